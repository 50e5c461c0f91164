// `switchboard engine --take-over` (docs/updates.md, docs/updates.md): a new engine takes a home over from
// the one serving it while clients are in the middle of calls, through both shims and over HTTP.
// Real processes throughout: `serve` as the old engine, `engine --take-over` as the new one, real
// shims with real MCP clients, fixture servers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { NATIVE_SHIM_UNAVAILABLE, cleanupHomes, cli, enginePid, shimClient, stopEngine, waitFor, type ShimKind } from '../../helpers/home.ts';
import { modernPost, serve, type Served } from '../../helpers/serve.ts';
import { CAN_FIND_MARKED, MARK_VAR, killMarked, markedGone, markedProcesses, newMark } from '../../helpers/processes.ts';
import { retryUnreachable } from '../../../src-renderer/lib/api-retry.ts';
import { alive, handingOver, homeWithServers, status, takeOver, text } from '../../helpers/take-over.ts';

afterAll(cleanupHomes);

/**
 * Calls /api/status over and over as the UI's page does (a read the engine cannot be reached for
 * is tried again, src-renderer/lib/api-retry.ts) until stopped; the failures it saw.
 */
function pollUi(s: Served): { stop: () => Promise<string[]> } {
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const r = await retryUnreachable(() =>
          fetch(`${s.url}/api/status`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: '{}' }),
        );
        if (!r.ok) failures.push(`HTTP ${r.status}`);
        await r.text();
      } catch (err) {
        failures.push((err as Error).message);
      }
      await new Promise((r) => setTimeout(r, 40));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return failures;
    },
  };
}

/**
 * The calls in flight, in ms: a slow tool, long enough to still run when the new engine (a
 * second or two to start on a loaded machine) asks; the code run's budget (30 s) covers it.
 */
const CALL_MS = 6000;

const SHIMS: { kind: ShimKind; skip?: string }[] = [{ kind: 'node' }, { kind: 'native', skip: NATIVE_SHIM_UNAVAILABLE }];

describe.each(SHIMS)('take-over through the $kind shim', ({ kind, skip }) => {
  it.skipIf(skip !== undefined)(
    'every call in flight is answered, a client arriving meanwhile is served, a save is kept, and one engine is left: the new one',
    { timeout: 120_000 },
    async () => {
      const mark = newMark();
      const home = homeWithServers(mark);
      const old = await serve(home, { [MARK_VAR]: mark });
      const a = await shimClient(home, 'demo', { shim: kind, name: 'client-a' });
      const b = await shimClient(home, 'code', { shim: kind, name: 'client-b' });
      // What the clients hear besides answers: no list change (none happened), and never the engine's moving notice.
      const heard: string[] = [];
      for (const c of [a, b]) c.fallbackNotificationHandler = async (n) => void ((n.method.endsWith('list_changed') || n.method.startsWith('notifications/switchboard/')) && heard.push(n.method));
      let next: ReturnType<typeof takeOver> | undefined;
      try {
        await waitFor(async () => (await a.listTools()).tools.some((t) => t.name === 'slow__wait'), 30_000, 'slow__wait');
        await b.listTools();
        const oldPid = old.child.pid!;
        const handed = handingOver(old);
        // Three clients mid-call: a 3 s tool through the shim, a code run calling it, a 2026-07-28 HTTP request.
        const t0 = Date.now();
        const done: Record<string, number> = {};
        const finish =
          (what: string) =>
          <T,>(v: T): T => ((done[what] = Date.now()), v);
        const toolCall = a.callTool({ name: 'slow__wait', arguments: { ms: CALL_MS } }, undefined, { timeout: 60_000 }).then(finish('tool'));
        const codeRun = b.callTool({ name: 'execute', arguments: { code: `const r = await slow.wait({ ms: ${CALL_MS} }); return { ran: r }` } }, undefined, { timeout: 60_000 }).then(finish('code'));
        const httpCall = modernPost(old, 'demo', 'tools/call', { name: 'slow__wait', arguments: { ms: CALL_MS } }, { name: 'slow__wait', clientName: 'http-client' }).then(finish('http'));
        const ui = pollUi(old);
        await new Promise((r) => setTimeout(r, 200));
        next = takeOver(home, { SWITCHBOARD_TEST_VERSION: '0.2.0', [MARK_VAR]: mark });
        const handedAt = await handed;
        // During the take-over: a save, a client that connects, and more HTTP requests.
        expect(cli(home, ['config', 'set', 'profiles.extra', JSON.stringify({ servers: ['basic'] })]).code).toBe(0);
        const c = await shimClient(home, 'demo', { shim: kind, name: 'client-c' });
        const late = await c.callTool({ name: 'basic__echo', arguments: { text: 'late' } }, undefined, { timeout: 60_000 });
        const httpLate = await modernPost(old, 'demo', 'tools/list', {}, { clientName: 'http-client' });

        const [tool, code, http] = await Promise.all([toolCall, codeRun, httpCall]);
        expect(text(tool)).toBe(`waited ${CALL_MS}`);
        expect((tool as { isError?: boolean }).isError).toBeFalsy();
        expect(text(code)).toContain(`"ran": "waited ${CALL_MS}"`);
        expect((code as { isError?: boolean }).isError).toBeFalsy();
        expect(http.status).toBe(200);
        expect(JSON.stringify(http.json().result)).toContain(`waited ${CALL_MS}`);
        // They really were in flight when the old engine began handing over.
        for (const what of ['tool', 'code', 'http']) expect(done[what]!).toBeGreaterThan(handedAt);
        expect(handedAt - t0).toBeLessThan(CALL_MS);
        expect(text(late)).toBe('late');
        expect(httpLate.status).toBe(200);

        // One engine left, the new one; the old one exited by itself.
        await waitFor(() => old.child.exitCode !== null, 30_000, 'the old engine to exit');
        expect(old.child.exitCode).toBe(0);
        expect(alive(oldPid)).toBe(false);
        const st = status(home);
        expect(st.pid).toBe(next.child.pid);
        expect(st.version).toBe('0.2.0');
        expect(enginePid(home)).toBe(next.child.pid);
        // The save made during the take-over is on disk and served by the new engine.
        expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).profiles.extra).toEqual({ servers: ['basic'] });
        await waitFor(() => 'extra' in status(home).profiles, 10_000, 'the new engine to serve profile extra');

        // The same sessions go on, now with the new engine.
        expect(text(await a.callTool({ name: 'slow__wait', arguments: { ms: 10 } }))).toBe('waited 10');
        expect(text(await b.callTool({ name: 'execute', arguments: { code: 'return await slow.wait({ ms: 10 })' } }))).toContain('waited 10');
        expect((await fetch(`${old.url}/api/status`, { method: 'POST', headers: { Authorization: `Bearer ${old.token}` }, body: '{}' })).status).toBe(200);
        expect(await ui.stop()).toEqual([]);
        // Nothing changed in the lists, so the clients were told of no change.
        expect(heard).toEqual([]);
        // Each server runs once: the old engine's are gone.
        if (CAN_FIND_MARKED) {
          const slowServers = markedProcesses(mark).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('slow.mjs'));
          expect(slowServers).toHaveLength(1);
        }
        await c.close();
      } finally {
        await a.close();
        await b.close();
        await old.stop();
        next?.child.kill('SIGTERM');
        await next?.exit;
        if (CAN_FIND_MARKED) {
          expect(await markedGone(mark, 10_000)).toEqual([]);
          killMarked(mark);
        }
      }
    },
  );
});

describe.each(SHIMS)('a server asking the client during a take-over, through the $kind shim', ({ kind, skip }) => {
  it.skipIf(skip !== undefined)('the client answers the engine that asked, and the call in flight is answered', { timeout: 90_000 }, async () => {
    const home = homeWithServers();
    const old = await serve(home);
    // Answers sampling only once the take-over is under way: the answer must go to the old engine.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const a = await shimClient(home, 'demo', { shim: kind, name: 'asked', capabilities: { sampling: {} } });
    a.setRequestHandler(CreateMessageRequestSchema, async () => {
      await released;
      return { role: 'assistant', content: { type: 'text', text: 'hi from the client' }, model: 'test' };
    });
    let next: ReturnType<typeof takeOver> | undefined;
    try {
      await waitFor(async () => (await a.listTools()).tools.some((t) => t.name === 'basic__sample'), 30_000, 'basic__sample');
      const handed = handingOver(old);
      const call = a.callTool({ name: 'basic__sample', arguments: {} }, undefined, { timeout: 60_000 });
      await new Promise((r) => setTimeout(r, 300));
      next = takeOver(home, { SWITCHBOARD_TEST_VERSION: '0.2.0' });
      await handed;
      await new Promise((r) => setTimeout(r, 500));
      release();
      const r = await call;
      expect(text(r)).toBe('hi from the client');
      // Generous: on a loaded machine its servers' and records' stop can take long.
      await waitFor(() => old.child.exitCode !== null, 60_000, 'the old engine to leave');
      expect(text(await a.callTool({ name: 'basic__echo', arguments: { text: 'then' } }))).toBe('then');
    } finally {
      await a.close();
      await old.stop();
      next?.child.kill('SIGTERM');
      await next?.exit;
    }
  });
});

describe('take-over refused', () => {
  it('an older engine never takes over a newer one: it exits 3 and the newer one goes on serving', { timeout: 60_000 }, async () => {
    const home = homeWithServers();
    const old = await serve(home, { SWITCHBOARD_TEST_VERSION: '0.3.0' });
    try {
      const next = takeOver(home, { SWITCHBOARD_TEST_VERSION: '0.2.0' });
      expect(await next.exit).toBe(3);
      expect(next.stderr()).toContain('never takes over one of a newer version');
      expect(old.child.exitCode).toBeNull();
      const st = status(home);
      expect(st.pid).toBe(old.child.pid);
      expect(st.version).toBe('0.3.0');
      const r = await modernPost(old, 'demo', 'tools/list', {});
      expect(r.status).toBe(200);
    } finally {
      await old.stop();
    }
  });

  it('with no engine running, --take-over is an ordinary start', { timeout: 60_000 }, async () => {
    const home = homeWithServers();
    const next = takeOver(home);
    try {
      await waitFor(() => enginePid(home) === next.child.pid, 30_000, 'the engine to serve');
      expect(status(home).pid).toBe(next.child.pid);
    } finally {
      next.child.kill('SIGTERM');
      await next.exit;
    }
  });
});

describe('a stop signal during a take-over', () => {
  it.skipIf(!CAN_FIND_MARKED)('SIGTERM to the old engine while it hands over: the new one serves, no server is left running twice or orphaned, the save is kept', { timeout: 120_000 }, async () => {
    const mark = newMark();
    const home = homeWithServers(mark);
    const old = await serve(home);
    const a = await shimClient(home, 'demo', { name: 'client-a' });
    let next: ReturnType<typeof takeOver> | undefined;
    try {
      await waitFor(async () => (await a.listTools()).tools.some((t) => t.name === 'slow__wait'), 30_000, 'slow__wait');
      const handed = handingOver(old);
      // Answered or told the engine stopped: a stopped engine may not finish it. Never left hanging.
      const inFlight = a.callTool({ name: 'slow__wait', arguments: { ms: 3000 } }, undefined, { timeout: 60_000 }).then(text, (e: Error) => e.message);
      await new Promise((r) => setTimeout(r, 200));
      next = takeOver(home, { SWITCHBOARD_TEST_VERSION: '0.2.0' });
      await handed;
      expect(cli(home, ['config', 'set', 'profiles.extra', JSON.stringify({ servers: ['basic'] })]).code).toBe(0);
      old.child.kill('SIGTERM');
      await waitFor(() => old.child.exitCode !== null || old.child.signalCode !== null, 15_000, 'the old engine to stop');
      await inFlight;
      await waitFor(() => status(home).pid === next!.child.pid, 20_000, 'the new engine to serve');
      expect(text(await a.callTool({ name: 'slow__wait', arguments: { ms: 10 } }, undefined, { timeout: 30_000 }))).toBe('waited 10');
      await waitFor(() => 'extra' in status(home).profiles, 10_000, 'the save to be served');
      expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).profiles.extra).toEqual({ servers: ['basic'] });
      const slowServers = markedProcesses(mark).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('slow.mjs'));
      expect(slowServers).toHaveLength(1);
    } finally {
      await a.close();
      await old.stop();
      next?.child.kill('SIGTERM');
      await next?.exit;
      expect(await markedGone(mark, 10_000)).toEqual([]);
      killMarked(mark);
    }
  });

  it.skipIf(!CAN_FIND_MARKED)('SIGTERM to the new engine while it takes over: the old one still answers its call and leaves, the save is kept, and a later start works', { timeout: 120_000 }, async () => {
    const mark = newMark();
    const home = homeWithServers(mark);
    const old = await serve(home);
    const a = await shimClient(home, 'demo', { name: 'client-a' });
    try {
      await waitFor(async () => (await a.listTools()).tools.some((t) => t.name === 'slow__wait'), 30_000, 'slow__wait');
      const handed = handingOver(old);
      const inFlight = a.callTool({ name: 'slow__wait', arguments: { ms: 3000 } }, undefined, { timeout: 60_000 });
      await new Promise((r) => setTimeout(r, 200));
      const next = takeOver(home, { SWITCHBOARD_TEST_VERSION: '0.2.0' });
      await handed;
      expect(cli(home, ['config', 'set', 'profiles.extra', JSON.stringify({ servers: ['basic'] })]).code).toBe(0);
      next.child.kill('SIGTERM');
      await next.exit;
      // The old engine had said yes: it answers what it holds and leaves as agreed.
      expect(text(await inFlight)).toBe('waited 3000');
      await waitFor(() => old.child.exitCode !== null, 30_000, 'the old engine to leave');
      expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).profiles.extra).toEqual({ servers: ['basic'] });
      // Neither engine left a server behind: each runs at most once (the client's shim may have
      // started the next engine already, with servers of its own). The home is serviceable.
      for (const script of ['slow.mjs', 'basic.mjs']) {
        const running = markedProcesses(mark).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script));
        expect(running.length).toBeLessThanOrEqual(1);
      }
      expect(text(await a.callTool({ name: 'basic__echo', arguments: { text: 'again' } }, undefined, { timeout: 60_000 }))).toBe('again');
      expect('extra' in status(home).profiles).toBe(true);
    } finally {
      await a.close();
      await old.stop();
      await stopEngine(home);
      expect(await markedGone(mark, 10_000)).toEqual([]);
      killMarked(mark);
    }
  });
});
