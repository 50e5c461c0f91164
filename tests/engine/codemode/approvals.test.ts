// Approvals of destructive calls from code (profile `approvals`), through a real MCP client, the
// real shim and a real engine: the client asked by elicitation (accept, decline), the app's
// control API when the client cannot be asked, the approval timeout, a denial caught by code,
// the run's clock held while a person decides, and every decision in the audit log and the run;
// the question in words a person can answer, and progress while a call waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';
import { homePaths } from '../../../src-main/engine/platform/home.ts';
import { SocketControlClient } from '../../../src-main/cli/engine-client.ts';
import { approvalTimeoutSec, needsApproval } from '../../../src-main/engine/codemode/approvals.ts';
import { runErrorLabel, type AuditEntry, type RunRecord } from '../../../src-shared/records.ts';

afterAll(cleanupHomes);

let home: string;
let asking: Client;
let plain: Client;
let waiter: Client;
let askingWaiter: Client;
let control: SocketControlClient;
let answer: (req: ElicitRequest) => Promise<ElicitResult>;
const asked: ElicitRequest[] = [];

beforeAll(async () => {
  home = makeHome({
    servers: { ann: fixtureServer('annotated.mjs'), basic: fixtureServer('basic.mjs') },
    profiles: {
      guarded: {
        servers: ['ann', 'basic'],
        surface: 'code',
        // A run's own clock is 1.5 s: every wait below is longer, so only a held clock lets it finish.
        budgets: { timeoutMs: 1500 },
        approvals: { destructive: true, approve: ['basic.echo'], timeoutSec: 3 },
        codeMode: { skills: true },
      },
      // Long enough approvals that a client's own 6 s request timeout would end the call first.
      waiting: { servers: ['ann'], surface: 'code', approvals: { destructive: true, timeoutSec: 20 } },
    },
  });
  asking = await shimClient(home, 'guarded', { name: 'asking-client', capabilities: { elicitation: {} } });
  asking.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req);
    return answer(req);
  });
  plain = await shimClient(home, 'guarded', { name: 'plain-client' });
  waiter = await shimClient(home, 'waiting', { name: 'Plain Waiter' });
  askingWaiter = await shimClient(home, 'waiting', { name: 'Asking Waiter', capabilities: { elicitation: {} } });
  askingWaiter.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req);
    return answer(req);
  });
  await waitFor(async () => (await run(plain, 'async () => typeof ann.deleted + typeof basic.echo')).text.includes('functionfunction') || undefined, 30_000, 'servers ready');
  control = (await SocketControlClient.connect(homePaths(home)))!;
}, 60_000);

afterAll(() => control?.close());

async function run(c: Client, code: string, opts: { timeout?: number; onprogress?: (p: Progress) => void } = {}): Promise<{ text: string; isError: boolean; runId: string }> {
  const raw = (await c.callTool({ name: 'execute', arguments: { code } }, undefined, {
    timeout: opts.timeout ?? 60_000,
    // A progress token is sent only with onprogress; progress then resets the client's own timeout.
    ...(opts.onprogress ? { onprogress: opts.onprogress, resetTimeoutOnProgress: true } : {}),
  })) as CallToolResult;
  return { text: (raw.content[0] as { text: string }).text, isError: Boolean(raw.isError), runId: String(raw._meta?.['switchboard/runId']) };
}

function resultOf(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('Result:\n') + 'Result:\n'.length));
}

async function deleted(): Promise<string[]> {
  return resultOf((await run(plain, 'async () => (await ann.deleted()).deleted')).text) as string[];
}

async function auditFor(runId: string): Promise<AuditEntry[]> {
  return waitFor(async () => {
    const { entries } = await control.call('audit.list', { limit: 50 });
    const mine = entries.filter((e) => e.runId === runId);
    return mine.length ? mine : undefined;
  }, 10_000, `audit of ${runId}`);
}

async function runRecord(runId: string): Promise<RunRecord> {
  return waitFor(async () => (await control.call('runs.get', { id: runId }).catch(() => undefined))?.run, 10_000, `run ${runId}`);
}

describe('approvals of calls from code', () => {
  it('asks the calling client by elicitation; accepted, the call proceeds, and the decision is recorded', async () => {
    answer = async () => ({ action: 'accept', content: { decision: 'Allow' } });
    asked.length = 0;
    const r = await run(asking, `async () => await ann.delete_item({ id: 'a1' })`);
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toBe('deleted a1');
    expect(asked).toHaveLength(1);
    expect(await deleted()).toContain('a1');
    expect(await deleted()).toContain('a1');
    const [entry] = await auditFor(r.runId);
    expect(entry).toMatchObject({ tool: 'delete_item', outcome: 'ok', approval: { decision: 'approved', by: 'client' } });
    const rec = await runRecord(r.runId);
    expect(rec.calls[0]).toMatchObject({ tool: 'delete_item', outcome: 'ok', approval: { decision: 'approved', by: 'client' } });
  });

  it('declined by the client, the call throws "denied: …", code catches it, and the tool never runs', async () => {
    answer = async () => ({ action: 'decline' });
    const r = await run(
      asking,
      `async () => {
        try { await ann.delete_item({ id: 'b2' }); return 'deleted'; }
        catch (e) { return { caught: e.message }; }
      }`,
    );
    expect(r.isError, r.text).toBe(false);
    const caught = (resultOf(r.text) as { caught: string }).caught;
    expect(caught).toMatch(/^denied: ann\.delete_item needs approval and the client declined it/);
    expect(await deleted()).not.toContain('b2');
    const [entry] = await auditFor(r.runId);
    expect(entry).toMatchObject({ tool: 'delete_item', outcome: 'denied', approval: { decision: 'denied', by: 'client' } });
    expect((await runRecord(r.runId)).calls[0]).toMatchObject({ outcome: 'denied', approval: { decision: 'denied' } });
  });

  it('asks in words a person can answer: which app, the tool by its title and what it does, the arguments as lines, what No means; no ids', async () => {
    answer = async () => ({ action: 'accept', content: { decision: 'Allow' } });
    asked.length = 0;
    const r = await run(asking, `async () => await ann.delete_item({ id: 'q1', why: 'old draft' })`);
    expect(resultOf(r.text)).toBe('deleted q1');
    const message = asked[0]!.params.message;
    expect(message).toBe(
      [
        'asking-client wants to use “Delete an item” (ann.delete_item) from code it runs through Switchboard.',
        'What it does: Deletes an item for good.',
        'With:\n  id: q1\n  why: old draft',
        "Allow: the tool runs this once.\nDon't allow: the tool will not run; the code gets an error it can handle.",
      ].join('\n\n'),
    );
    expect(message).not.toContain(r.runId);
    expect(message).not.toContain('{');
  });

  it('the form is one choice preselected to Allow: Accept as shown allows, "Don\'t allow" denies', async () => {
    asked.length = 0;
    // A client that renders the form sends the preselected answer; one that shows no field sends none.
    for (const [id, content] of [['c1', { decision: 'Allow' }], ['c2', undefined]] as const) {
      answer = async () => ({ action: 'accept', ...(content ? { content } : {}) });
      expect(resultOf((await run(asking, `async () => await ann.delete_item({ id: '${id}' })`)).text)).toBe(`deleted ${id}`);
    }
    const schema = (asked[0]!.params as { requestedSchema: { properties: Record<string, { enum?: string[]; default?: string }>; required: string[] } }).requestedSchema;
    expect(schema.required).toEqual(['decision']);
    expect(schema.properties.decision).toMatchObject({ type: 'string', enum: ['Allow', "Don't allow"], default: 'Allow' });
    answer = async () => ({ action: 'accept', content: { decision: "Don't allow" } });
    const r = await run(asking, `async () => { try { await ann.delete_item({ id: 'c3' }); } catch (e) { return e.message; } }`);
    expect(resultOf(r.text)).toMatch(/^denied: ann\.delete_item needs approval and the client declined it/);
    expect(await deleted()).not.toContain('c3');
  });

  it("holds the run's clock while the client decides: a 2.5 s wait in a 1.5 s run does not time it out", async () => {
    answer = () => new Promise((resolve) => setTimeout(() => resolve({ action: 'accept', content: { decision: 'Allow' } }), 2500));
    const t0 = Date.now();
    const r = await run(asking, `async () => { const d = await ann.delete_item({ id: 'd4' }); return d; }`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2400);
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toBe('deleted d4');
    const rec = await runRecord(r.runId);
    expect(rec.calls[0]!.approval!.waitedMs).toBeGreaterThanOrEqual(2400);
  });

  it('a run that spins after an approval still times out on its own clock', async () => {
    answer = async () => ({ action: 'accept', content: { decision: 'Allow' } });
    const r = await run(asking, `async () => { await ann.delete_item({ id: 'e5' }); while (true) {} }`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^timeout:/);
  });

  it('a run that spins while a call waits for approval still times out on its own clock (only waiting is free)', async () => {
    const t0 = Date.now();
    const r = await run(plain, `async () => {
      ann.delete_item({ id: 'spin' }).catch(() => {});
      await ann.deleted();
      while (true) {}
    }`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^timeout:/);
    // The 1.5 s of the run, not the 3 s approval timeout on top.
    expect(Date.now() - t0).toBeLessThan(2800);
    expect(await deleted()).not.toContain('spin');
  });

  it('without elicitation, the app decides through the control API, seeing the exact tool, arguments and run', async () => {
    const pending = run(plain, `async () => await ann.delete_item({ id: 'f6', why: 'cleanup' })`);
    const [p] = await waitFor(async () => {
      const { pending: list } = await control.call('approvals.list', {});
      return list.length ? list : undefined;
    }, 10_000, 'a pending approval');
    expect(p).toMatchObject({
      profile: 'guarded', client: 'plain-client', server: 'ann', tool: 'delete_item', name: 'ann.delete_item',
      title: 'Delete an item', description: 'Deletes an item for good.', args: { id: 'f6', why: 'cleanup' }, askedClient: false,
    });
    // Waiting longer than the run's own 1.5 s before deciding.
    await new Promise((r) => setTimeout(r, 1800));
    await control.call('approvals.decide', { id: p!.id, approve: true });
    const r = await pending;
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toBe('deleted f6');
    expect(r.runId).toBe(p!.runId);
    const [entry] = await auditFor(r.runId);
    expect(entry).toMatchObject({ outcome: 'ok', approval: { decision: 'approved', by: 'app' } });
    expect((await control.call('approvals.list', {})).pending).toEqual([]);
    await expect(control.call('approvals.decide', { id: p!.id, approve: true })).rejects.toThrow(/No pending approval/);
  });

  it('denied through the control API, the code gets "denied: …"', async () => {
    const pending = run(plain, `async () => { try { await ann.delete_item({ id: 'g7' }); } catch (e) { return e.message; } }`);
    const [p] = await waitFor(async () => {
      const { pending: list } = await control.call('approvals.list', {});
      return list.length ? list : undefined;
    }, 10_000, 'a pending approval');
    await control.call('approvals.decide', { id: p!.id, approve: false });
    expect(resultOf((await pending).text)).toMatch(/^denied: ann\.delete_item needs approval and it was denied in Switchboard/);
    expect(await deleted()).not.toContain('g7');
  });

  it('a run that fails on a call the person refused is recorded as refused by them, not as a plain runtime error', async () => {
    const pending = run(plain, `async () => await ann.delete_item({ id: 'h8' })`);
    const [p] = await waitFor(async () => {
      const { pending: list } = await control.call('approvals.list', {});
      return list.length ? list : undefined;
    }, 10_000, 'a pending approval');
    await control.call('approvals.decide', { id: p!.id, approve: false });
    const r = await pending;
    // The client still sees the kinds docs/protocol.md names.
    expect(r.text).toMatch(/^runtime: .*denied: ann\.delete_item/);
    const rec = await runRecord(r.runId);
    expect(rec.error).toMatchObject({ kind: 'runtime', refusedBy: 'app' });
    expect(runErrorLabel(rec.error!, rec.calls)).toBe('Not allowed by you');
    // Records written before `refusedBy` read the same from their calls.
    expect(runErrorLabel({ kind: 'runtime', message: rec.error!.message }, rec.calls)).toBe('Not allowed by you');
    expect(runErrorLabel({ kind: 'runtime', message: 'boom' }, rec.calls)).toBe('runtime');
  });

  it('the CLI lists a waiting call and approves it', async () => {
    // In the 20 s profile: each CLI start takes a second or two on a loaded machine.
    const pending = run(waiter, `async () => await ann.delete_item({ id: 'cli-1' })`);
    const id = await waitFor(() => {
      const r = cli(home, ['approvals', '--json']);
      const list = JSON.parse(r.stdout) as { id: string; name: string }[];
      return list[0]?.name === 'ann.delete_item' ? list[0].id : undefined;
    }, 10_000, 'the CLI listing');
    expect(cli(home, ['approvals']).stdout).toContain(`${id}  ann.delete_item({"id":"cli-1"})`);
    expect(cli(home, ['approvals', 'approve', id]).stdout).toBe(`Approved ${id}.\n`);
    expect(resultOf((await pending).text)).toBe('deleted cli-1');
    expect(cli(home, ['approvals', 'deny', id]).stderr).toMatch(/No pending approval/);
  });

  it('nobody deciding within timeoutSec is a denial the code can catch (and the run did not time out meanwhile); later calls of that run are not asked', async () => {
    const t0 = Date.now();
    const r = await run(plain, `async () => {
      const out = [];
      for (const id of ['h8', 'h9']) { try { await ann.delete_item({ id }); } catch (e) { out.push(e.message); } }
      return out;
    }`);
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(2900);
    // One approval window, not two.
    expect(took).toBeLessThan(5500);
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toEqual([
      'denied: ann.delete_item needs approval and no decision came within 3 s',
      'denied: ann.delete_item needs approval and an earlier call of this run waited for approval until it timed out, so nobody is deciding',
    ]);
    const entries = await auditFor(r.runId);
    expect(entries.map((e) => [e.outcome, e.approval?.by])).toEqual(expect.arrayContaining([['denied', 'timeout'], ['denied', 'limit']]));
    expect(await deleted()).not.toContain('h8');
  });

  it('at most 8 calls of one run wait for approval at once; the rest are denied without asking', async () => {
    const pending = run(plain, `async () => {
      const ids = Array.from({ length: 10 }, (_, i) => 'm' + i);
      const r = await Promise.allSettled(ids.map((id) => ann.delete_item({ id })));
      return r.map((x) => x.status === 'rejected' ? x.reason.message : x.value);
    }`);
    const list = await waitFor(async () => {
      const { pending: l } = await control.call('approvals.list', {});
      return l.length >= 8 ? l : undefined;
    }, 10_000, '8 pending approvals');
    expect(list).toHaveLength(8);
    for (const p of list) await control.call('approvals.decide', { id: p.id, approve: false });
    const out = resultOf((await pending).text) as string[];
    expect(out.filter((m) => m.includes('8 calls of this run already wait for approval'))).toHaveLength(2);
    expect(out.filter((m) => m.includes('denied in Switchboard'))).toHaveLength(8);
  });

  it('read-only and unannotated tools do not ask; an `approve` pattern asks even without annotations', async () => {
    asked.length = 0;
    answer = async () => ({ action: 'decline' });
    const r = await run(asking, `async () => {
      const seen = await ann.touch({ id: 'x' });
      const list = await ann.deleted();
      let echo;
      try { echo = await basic.echo({ text: 'hi' }); } catch (e) { echo = e.message; }
      return { seen, n: list.deleted.length, echo };
    }`);
    expect(r.isError, r.text).toBe(false);
    const v = resultOf(r.text) as { seen: string; echo: string };
    expect(v.seen).toBe('touched x');
    expect(v.echo).toMatch(/^denied: basic\.echo/);
    expect(asked.map((a) => a.params.message).join('\n')).toContain('basic.echo');
    expect(asked).toHaveLength(1);
  });
});

describe('a call waiting for approval tells a client that sent a progress token', () => {
  it('without elicitation: progress at once and every 5 s, so a client whose own timeout is 6 s still gets the answer after 8 s', { timeout: 30_000 }, async () => {
    const heard: Progress[] = [];
    const pending = run(waiter, `async () => await ann.delete_item({ id: 'p1' })`, { timeout: 6000, onprogress: (p) => heard.push(p) }).catch((e: Error) => e);
    const [p] = await waitFor(async () => {
      const { pending: list } = await control.call('approvals.list', {});
      const mine = list.filter((x) => x.profile === 'waiting');
      return mine.length ? mine : undefined;
    }, 10_000, 'a pending approval');
    await new Promise((r) => setTimeout(r, 8000));
    await control.call('approvals.decide', { id: p!.id, approve: true }).catch(() => {});
    const r = await pending;
    if (r instanceof Error) throw r;
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toBe('deleted p1');
    expect(heard.length).toBeGreaterThanOrEqual(2);
    expect(heard.every((h) => h.message === 'Waiting for your approval in Switchboard…' && h.total === 20)).toBe(true);
    expect(heard[1]!.progress).toBeGreaterThan(heard[0]!.progress);
  });

  it('with elicitation: progress while the question is open, then the answer decides', { timeout: 30_000 }, async () => {
    const heard: Progress[] = [];
    answer = () => new Promise((resolve) => setTimeout(() => resolve({ action: 'accept', content: { decision: 'Allow' } }), 8000));
    const r = await run(askingWaiter, `async () => await ann.delete_item({ id: 'p2' })`, { timeout: 6000, onprogress: (p) => heard.push(p) });
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toBe('deleted p2');
    expect(heard.length).toBeGreaterThanOrEqual(2);
    expect(heard[0]!.message).toBe('Waiting for your answer to the approval question…');
  });

  it('stops telling the client once the call is decided', async () => {
    const heard: Progress[] = [];
    answer = async () => ({ action: 'accept', content: { decision: 'Allow' } });
    await run(askingWaiter, `async () => await ann.delete_item({ id: 'p3' })`, { onprogress: (p) => heard.push(p) });
    const after = heard.length;
    await new Promise((r) => setTimeout(r, 5500));
    expect(heard.length).toBe(after);
  });
});

describe('approvals inside a skill', () => {
  it("holds the calling run's clock too while the skill's call waits", async () => {
    answer = async () => ({ action: 'accept', content: { decision: 'Allow' } });
    const src = await run(asking, `async (input = { id: 'seed' }) => await ann.delete_item({ id: input.id })`);
    expect(src.isError, src.text).toBe(false);
    await control.call('skills.save', { runId: src.runId, name: 'remove_one', input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } });
    await waitFor(async () => (await run(asking, 'async () => typeof skills.remove_one')).text.includes('"function"') || undefined, 10_000, 'the skill');
    answer = () => new Promise((resolve) => setTimeout(() => resolve({ action: 'accept', content: { decision: 'Allow' } }), 2500));
    const r = await run(asking, `async () => await skills.remove_one({ id: 'k9' })`);
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toBe('deleted k9');
    await control.call('skills.remove', { name: 'remove_one' });
  });
});

describe('how long a call waits for approval', () => {
  it('by default 50 s: inside the 60 s request timeout common to MCP clients, with room for the answer to travel back', () => {
    expect(approvalTimeoutSec(undefined)).toBe(50);
    expect(approvalTimeoutSec({})).toBe(50);
    expect(approvalTimeoutSec({ timeoutSec: 300 })).toBe(300);
  });
});

describe('which calls need approval', () => {
  const destructive = { annotations: { destructiveHint: true } };
  const readOnly = { annotations: { readOnlyHint: true } };
  it('follows annotations, `writes`, and patterns (approve wins over never, never over annotations)', () => {
    expect(needsApproval(undefined, 's', 't', destructive)).toBe(false);
    expect(needsApproval({ destructive: true }, 's', 't', destructive)).toBe(true);
    expect(needsApproval({ destructive: true }, 's', 't', {})).toBe(false);
    expect(needsApproval({ destructive: true }, 's', 't', { annotations: { destructiveHint: true, readOnlyHint: true } })).toBe(false);
    expect(needsApproval({ writes: true }, 's', 't', {})).toBe(true);
    expect(needsApproval({ writes: true }, 's', 't', readOnly)).toBe(false);
    expect(needsApproval({ destructive: true, never: ['s.t'] }, 's', 't', destructive)).toBe(false);
    expect(needsApproval({ approve: ['github.delete_*'], never: ['github.delete_*'] }, 'github', 'delete_repo', readOnly)).toBe(true);
    expect(needsApproval({ approve: ['github.delete_*'] }, 'github', 'create_issue', {})).toBe(false);
  });
});
