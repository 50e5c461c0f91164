// Big values from code never stall the engine's main thread (issue 11, items 2–3's rule: the
// engine keeps answering whatever the code asks). The sandbox worker already holds a run's
// value, so it makes the JSON text, cuts it and reports the true size; the engine formats,
// redacts and stores only the cut text, and a kept result (result handles) crosses as bytes
// that are written without being parsed.
//
// Responsiveness is measured as a real client sees it: a `status` request over the control
// socket every 50 ms while the run goes on, keeping the longest time between two answers. The
// bound asserted is generous (1 s) because this 2-core machine is loaded by other engineers'
// test runs at the same time. Before this change the engine's thread spent 1.0–1.5 s on one
// million-object result (parsing it, formatting its text, formatting it again for the record;
// gaps of 0.2–2.8 s were seen, depending on load); now it spends under 1 ms, and the figures
// measured here are the machine's noise. They go into the case's notes.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { ExecResult } from '../../src-shared/api.ts';
import type { AuditEntry, RunRecord } from '../../src-shared/records.ts';
import { cleanupHomes, fixtureServer, makeHome, waitFor } from '../helpers/home.ts';
import { hardeningCase, type Tally } from './hardening-case.ts';
import { serveEngine, type ServedEngine } from './serve-engine.ts';
import { controlClient, whilePolling } from './status-gap.ts';

afterAll(cleanupHomes);

/** The slowest status answer allowed while code hands the host a big value (see the header). */
const MAX_STATUS_MS = 1000;

const budgets = { memoryMb: 512, timeoutMs: 60_000 };
const home = makeHome({
  servers: { basic: fixtureServer('basic.mjs'), big: fixtureServer('big-input.mjs') },
  profiles: {
    code: { servers: ['basic', 'big'], surface: 'code', budgets },
    keeps: { servers: ['basic'], surface: 'code', budgets, codeMode: { results: true } },
  },
});
let engine: ServedEngine;

beforeAll(async () => {
  engine = await serveEngine(home);
  await waitFor(async () => {
    const s = await engine.api<{ servers: Record<string, { state: string }> }>('status');
    return s.servers.basic?.state === 'ready' && s.servers.big?.state === 'ready';
  }, 30_000, 'servers ready');
}, 60_000);
afterAll(() => engine?.stop());

/** Runs `code` on `profile` while polling `status` every 50 ms; the run's answer and the worst gap. */
async function runPolling(profile: string, code: string): Promise<{ value: ExecResult; worstMs: number; polls: number }> {
  const runner = await controlClient(home);
  try {
    return await whilePolling(home, async () => (await runner.call('exec', { profile, code })) as ExecResult);
  } finally {
    runner.close();
  }
}

/**
 * A 20 MB argument is still parsed once and serialized for the server on the engine's thread
 * (about 60 ms on an idle core): with other suites on this machine that measured up to 1.1 s,
 * so its bound is wider; what that case proves is the server's answer and the clear error.
 */
const MAX_STATUS_MS_BIG_ARGUMENT = 2000;

async function measured(
  tally: Tally,
  label: string,
  profile: string,
  code: string,
  check: (r: ExecResult) => void | Promise<void>,
  maxMs: number = MAX_STATUS_MS,
): Promise<void> {
  await tally.attempt(label, async () => {
    const { value, worstMs, polls } = await runPolling(profile, code);
    tally.notes!.push(`${label}: worst status gap ${Math.round(worstMs)} ms over ${polls} polls`);
    await check(value);
    expect(worstMs).toBeLessThan(maxMs);
  });
}

async function record(runId: string): Promise<RunRecord> {
  return (await engine.api<{ run: RunRecord }>('runs.get', { id: runId })).run;
}

const objects = (n: number) => `async () => Array.from({ length: ${n} }, (_, i) => ({ i, ok: true }))`;
const MILLION = objects(1_000_000);

describe('big values from code', () => {
  hardeningCase(
    'attack',
    '1,000,000 objects returned are cut in the sandbox worker; the engine keeps answering',
    async (tally) => {
      await measured(tally, '1,000,000 objects', 'code', MILLION, async (r) => {
        expect(r.isError).toBeFalsy();
        expect(r.text).toMatch(/^Result:\n\[\n {2}\{\n {4}"i": 0,\n {4}"ok": true\n {2}\},/);
        expect(r.text).toMatch(/\n… \[result cut at 24000 of 40888892 characters; return a smaller result/);
        const run = await record(r.runId!);
        expect(run.result).toBeUndefined();
        expect(run.resultFullChars).toBe(40_888_892);
        expect(run.resultText!.length).toBeLessThan(24_200);
      });
      // 1,000,000 of them are 22.9 M characters as compact JSON, over the 8 M a handle keeps.
      await measured(tally, '1,000,000 objects, too large to keep', 'keeps', MILLION, (r) => {
        expect(r.text).toMatch(/It is too large to keep for later runs \(over 8.0 MB as JSON\)\]$/);
      });
      await measured(tally, '200,000 objects, kept as a result handle', 'keeps', objects(200_000), async (r) => {
        expect(r.text).toContain('The whole result (an array of 200,000 items) is kept as');
        const handle = /"(res_[0-9a-f]{24})"/.exec(r.text)?.[1];
        expect(handle).toBeDefined();
        const page = await runPolling('keeps', `async () => results.get(${JSON.stringify(handle)}, { offset: 199998, limit: 5 })`);
        expect(page.value.text).toContain('"i": 199999');
        expect(page.value.text).not.toContain('"i": 199997');
      });
    },
    240_000,
  );

  hardeningCase(
    'attack',
    'runs returning 10 M characters are cut in the sandbox worker; the engine keeps answering',
    async (tally) => {
      for (let i = 0; i < 4; i++) {
        await measured(tally, `10 M characters, run ${i + 1}`, 'code', `async () => 'x'.repeat(10_000_000)`, async (r) => {
          expect(r.text).toMatch(/^Result:\n"x{23999}\n… \[result cut at 24000 of 10000002 characters/);
          const run = await record(r.runId!);
          expect(run.resultFullChars).toBe(10_000_002);
        });
      }
      await measured(tally, '10 M characters, too large to keep', 'keeps', `async () => 'x'.repeat(10_000_000)`, (r) => {
        expect(r.text).toMatch(/result cut at 24000 of 10000002 characters; .*It is too large to keep for later runs \(over 8.0 MB as JSON\)\]$/);
      });
    },
    240_000,
  );

  hardeningCase(
    'attack',
    'a 20 MB argument reaches a server that reads it; one that cannot gets a clear error',
    async (tally) => {
      await measured(tally, '20 MB argument to a server reading 64 MB messages', 'code', `async () => big.measure({ text: 'y'.repeat(20_000_000) })`, async (r) => {
        expect(r.isError, r.text).toBeFalsy();
        expect(r.text).toMatch(/^Result:\n"20000000 [0-9a-f]{64}"/);
        // The audit's size is the worker's count now (the engine used to serialize the argument again to measure it).
        const { entries } = await engine.api<{ entries: AuditEntry[] }>('audit.list', { limit: 20 });
        expect(entries.find((e) => e.runId === r.runId)?.argBytes).toBe(JSON.stringify({ text: 'y'.repeat(20_000_000) }).length);
      }, MAX_STATUS_MS_BIG_ARGUMENT);
      await measured(
        tally,
        '20 MB argument to a v1-SDK server (10 MiB messages)',
        'code',
        `async () => { try { await basic.echo({ text: 'y'.repeat(20_000_000) }); return 'sent'; } catch (e) { return e.message; } }`,
        (r) => {
          // The v1 SDK's stdio server reads 10 MiB per message and quits on more: the error
          // says so in words, with the size, instead of a bare "stopped".
          expect(r.text).toMatch(/^Result:\n"basic stopped while the call was running; it is being restarted\. The last request it was sent was 19\.1 MB: servers made with the MCP SDK read at most 10\.0 MB per message unless they raise that limit, and quit on a bigger one; send less per call/);
        },
        MAX_STATUS_MS_BIG_ARGUMENT,
      );
    },
    240_000,
  );
});
