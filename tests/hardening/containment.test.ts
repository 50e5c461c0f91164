// Containment: whatever code asks of the host — huge catalog lookups, runs that spin
// on every worker, values nested thousands deep, code that breaks out of its wrapper, a flood
// of log lines — the engine keeps answering, every run is answered with its kind and recorded,
// and one profile never starves another.
//
// Responsiveness is measured as a real client sees it: a `status` request over the control
// socket every 50 ms while the abuse runs, keeping the slowest answer. The bound asserted is
// generous (1 s) because this 2-core test machine is shared with other test runs; a freeze of
// the engine's main thread shows as several seconds, so the bound still tells the two apart.
// The figures measured go into the case's notes (the hardening table).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { AuditEntry, RunRecord } from '../../src-shared/records.ts';
import type { ExecResult } from '../../src-shared/api.ts';
import type { SocketControlClient } from '../../src-main/cli/engine-client.ts';
import { cleanupHomes, fixtureServer, makeHome, shimClient, waitFor } from '../helpers/home.ts';
import { hardeningCase, type CaseTally } from './hardening-case.ts';
import { serveEngine, type ServedEngine } from './serve-engine.ts';
import { controlClient, whilePolling as statusGapWhile } from './status-gap.ts';

afterAll(cleanupHomes);

const GITHUB = fileURLToPath(new URL('../fixtures/catalogs/github.json', import.meta.url));
/** The slowest status answer allowed while code abuses the host (see the header). */
const MAX_STATUS_MS = 1000;
/** The spinning profile's timeout: long enough that waiting for it cannot pass for fairness. */
const SPIN_TIMEOUT_MS = 12_000;

const home = makeHome({
  servers: { github: fixtureServer('catalog.mjs', { env: { CATALOG_FILE: GITHUB } }), basic: fixtureServer('basic.mjs') },
  profiles: {
    code: { servers: ['github', 'basic'], surface: 'code' },
    spin: { servers: ['basic'], surface: 'code', budgets: { timeoutMs: SPIN_TIMEOUT_MS } },
    other: { servers: ['basic'], surface: 'code' },
  },
});
let engine: ServedEngine;

beforeAll(async () => {
  engine = await serveEngine(home);
  await waitFor(async () => {
    const s = await engine.api<{ servers: Record<string, { state: string }> }>('status');
    return s.servers.github?.state === 'ready' && s.servers.basic?.state === 'ready';
  }, 30_000, 'servers ready');
}, 60_000);
afterAll(() => engine?.stop());

function control(): Promise<SocketControlClient> {
  return controlClient(home);
}

async function exec(profile: string, code: string): Promise<ExecResult> {
  const c = await control();
  try {
    return await c.call('exec', { profile, code });
  } finally {
    c.close();
  }
}

/** Runs `work` while asking for `status` every 50 ms (status-gap.ts). */
function whilePolling<T>(work: () => Promise<T>): Promise<{ value: T; worstMs: number; polls: number }> {
  return statusGapWhile(home, work);
}

/** Runs `code` on the code profile while polling; it must end as `expected`, the engine answering throughout. */
async function abuse(tally: CaseTally, label: string, code: string, expected: RegExp): Promise<void> {
  tally.tried++;
  const { value, worstMs, polls } = await whilePolling(() => exec('code', code));
  note(tally, label, worstMs, polls);
  expect(value.text).toMatch(expected);
  expect(worstMs).toBeLessThan(MAX_STATUS_MS);
  tally.held++;
}

function note(tally: { notes?: string[] }, what: string, worstMs: number, polls: number): void {
  tally.notes!.push(`${what}: worst status gap ${Math.round(worstMs)} ms over ${polls} polls`);
}

async function record(runId: string): Promise<RunRecord> {
  return (await engine.api<{ run: RunRecord }>('runs.get', { id: runId })).run;
}

async function auditOf(runId: string): Promise<AuditEntry[]> {
  return (await engine.api<{ entries: AuditEntry[] }>('audit.list', { limit: 1000 })).entries.filter((e) => e.runId === runId);
}

describe('containment', () => {
  hardeningCase('attack', 'catalog.search and search_tools with huge queries are refused and never freeze the engine', async (tally) => {
    const attempts = [
      `async () => { try { return await catalog.search('a'.repeat(60000)); } catch (e) { return 'refused: ' + e.message; } }`,
      `async () => { try { return await catalog.search(Array.from({ length: 5000 }, (_, i) => 'word' + i).join(' ')); } catch (e) { return 'refused: ' + e.message; } }`,
      // Within the caps, as many lookups as a run may make, all at once.
      `async () => { const q = Array.from({ length: 16 }, (_, i) => 'abcdefghijklmnopqrstuvwx'.slice(i) + 'yz').join(' ');
         const r = await Promise.all(Array.from({ length: 256 }, () => catalog.search(q, 50))); return 'ran ' + r.length; }`,
    ];
    for (const code of attempts) await abuse(tally, `search #${tally.tried + 1}`, code, /^Result:\n"(refused: .*at most.*|ran 256)"$/s);
    // search_tools from a client: the same caps, as a tool error the model can act on.
    const client = await shimClient(home, 'code', { name: 'containment' });
    try {
      tally.tried++;
      const { value, worstMs, polls } = await whilePolling(() => client.callTool({ name: 'search_tools', arguments: { query: 'x'.repeat(45_000) } }, undefined, { timeout: 60_000 }));
      note(tally, 'search_tools 45,000 chars', worstMs, polls);
      expect(value.isError).toBe(true);
      expect((value.content as { text: string }[])[0]!.text).toMatch(/at most/);
      expect(worstMs).toBeLessThan(MAX_STATUS_MS);
      tally.held++;
    } finally {
      await client.close();
    }
  }, 180_000);

  hardeningCase('attack', 'catalog.describe of 100,000 unknown names is refused and never freezes the engine', async (tally) => {
    const attempts = [
      `async () => { try { return await catalog.describe(Array.from({ length: 100000 }, (_, i) => 'github.nope_' + i)); } catch (e) { return 'refused: ' + e.message; } }`,
      // As many lookups as a run may make, each with as many unknown names as allowed: long
      // ones, and ones close to real names (each worth a suggestion).
      `async () => { const names = Array.from({ length: 100 }, (_, i) => 'github.' + 'q'.repeat(150) + i);
         const r = await Promise.all(Array.from({ length: 256 }, () => catalog.describe(names).catch((e) => e.message)));
         return 'ran ' + r.length + ' ' + r[0].length; }`,
      `async () => { const names = Array.from({ length: 100 }, (_, i) => 'github.crete_isue_' + i);
         const r = await Promise.all(Array.from({ length: 256 }, () => catalog.describe(names).catch((e) => e.message)));
         return 'ran ' + r.length + ' ' + r[0].length; }`,
    ];
    for (const code of attempts) await abuse(tally, `describe #${tally.tried + 1}`, code, /^Result:\n"(refused: .*at most.*|ran 256 \d+)"$/s);
  }, 300_000);

  hardeningCase('attack', "one profile's spinning runs on every worker do not starve another profile's run", async (tally) => {
    tally.tried++;
    // Polled from the first spinning run to the last one's end.
    const { value, worstMs, polls } = await whilePolling(async () => {
      const spinning = Array.from({ length: 8 }, () => exec('spin', 'async () => { while (true) {} }'));
      // Let them take the workers.
      await new Promise((r) => setTimeout(r, 1500));
      const t0 = performance.now();
      const other = await exec('other', 'async () => 6 * 7');
      const waited = performance.now() - t0;
      return { other, waited, spun: await Promise.all(spinning) };
    });
    note(tally, `other profile's run answered in ${Math.round(value.waited)} ms`, worstMs, polls);
    expect(value.other.text).toBe('Result:\n42');
    // Far less than the spinning runs' timeout: it did not wait for one of them to end.
    expect(value.waited).toBeLessThan(SPIN_TIMEOUT_MS / 2);
    expect(worstMs).toBeLessThan(MAX_STATUS_MS);
    for (const s of value.spun) expect(s.text).toMatch(/^timeout:/);
    tally.held++;
  }, 120_000);

  hardeningCase('attack', 'values nested thousands deep leaving the sandbox fail with runtime: and are recorded', async (tally) => {
    const cases: [string, RegExp][] = [
      // A result 6,000 deep, after a tool call that is audited.
      [
        `async () => { await basic.echo({ text: 'before' }); let a = []; for (let i = 0; i < 6000; i++) a = [a]; return a; }`,
        /^runtime: the result is nested more than 128 levels deep/,
      ],
      // Arguments 5,000 deep: refused before the call, so there is no call to audit.
      [
        `async () => { let a = {}; for (let i = 0; i < 5000; i++) a = { a }; return await basic.echo({ text: 'x', a }); }`,
        /^runtime: the arguments of basic\.echo are nested more than 128 levels deep/,
      ],
      // A log line of a deep value is only text.
      [
        `async () => { let a = []; for (let i = 0; i < 6000; i++) a = [a]; console.log(a); let o = {}; for (let i = 0; i < 6000; i++) o = { o }; console.log(o); return 'logged'; }`,
        /^Logs:\n[[][\s\S]*\n\nResult:\n"logged"$/,
      ],
    ];
    for (const [code, expected] of cases) {
      tally.tried++;
      const r = await exec('code', code);
      expect(r.text).toMatch(expected);
      const rec = await record(r.runId);
      expect(rec.code).toBe(code);
      // Every call the run made is in its record and in the audit log, and only those.
      const audited = await waitFor(async () => {
        const a = await auditOf(r.runId);
        return a.length === rec.calls.length ? a : undefined;
      }, 5000, 'the audit entries of the run');
      expect(audited.map((e) => e.tool)).toEqual(rec.calls.map((c) => c.tool));
      tally.held++;
    }
  }, 120_000);

  hardeningCase('attack', 'code that breaks out of its wrapper is refused before anything runs', async (tally) => {
    const breakouts = [
      `0)); basic.echo({ text: 'escaped' }); JSON.parse('{'); ((0`,
      `}); basic.echo({ text: 'escaped' }); JSON.parse('{'); (async () => {`,
      `0)).then(() => basic.echo({ text: 'escaped' })); ((0`,
      `}, basic.echo({ text: 'escaped' }), async () => {`,
    ];
    for (const code of breakouts) {
      tally.tried++;
      const r = await exec('code', code);
      expect(r.text, code).toMatch(/^syntax:/);
      const rec = await record(r.runId);
      expect(rec.calls).toEqual([]);
      expect(await auditOf(r.runId)).toEqual([]);
      tally.held++;
    }
    // A SyntaxError thrown while running is the code's own error, not a reason to run it again.
    tally.tried++;
    const r = await exec('code', `async () => { await basic.echo({ text: 'once' }); JSON.parse('{'); }`);
    expect(r.text).toMatch(/^runtime: SyntaxError/);
    expect((await record(r.runId)).calls).toHaveLength(1);
    tally.held++;
  }, 60_000);

  hardeningCase('attack', 'a million empty console.log lines keep the run record small', async (tally) => {
    tally.tried++;
    const r = await exec('code', `async () => { for (let i = 0; i < 1000000; i++) console.log(''); return 1; }`);
    expect(r.text).toMatch(/Result:\n1$/);
    const rec = await record(r.runId);
    expect(rec.logs.length).toBeLessThanOrEqual(1001);
    expect(rec.logs.filter((l) => /further console output was dropped/.test(l.text))).toHaveLength(1);
    expect(JSON.stringify(rec).length).toBeLessThan(100_000);
    tally.notes!.push(`${rec.logs.length} log entries, record ${JSON.stringify(rec).length} bytes`);
    tally.held++;
  }, 60_000);
});
