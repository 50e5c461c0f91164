import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUNS_KEEP_PER_CLIENT, RunStore } from '../../../src-main/engine/records/run-store.ts';
import type { RunRecord } from '../../../src-shared/records.ts';
import { iso, makeRun, tempDir } from './fixtures.ts';

let dir: string;
let cleanup: () => void;
let store: RunStore;

const ids = (list: RunRecord[]) => list.map((r) => r.id);
const runIds = (...n: number[]) => n.map((i) => makeRun(i).id);

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  store = RunStore.open(dir, { segmentBytes: 3_000 });
});
afterEach(() => {
  store.dispose();
  cleanup();
});

describe('RunStore', () => {
  it('makes ids that sort by creation time and never repeat', () => {
    const made = Array.from({ length: 2_000 }, () => store.newId());
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    expect(made[0]).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
  });

  it('finds a run by id and says undefined for one it does not hold', () => {
    store.append(makeRun(1, { kind: 'timeout' }));
    expect(store.get(makeRun(1).id)).toEqual(makeRun(1, { kind: 'timeout' }));
    expect(store.get('nope')).toBeUndefined();
  });

  it('filters by client as people know it: the connect id, the shown name or the raw clientInfo, old records too', () => {
    store.append(makeRun(1, { client: 'qwen-cli-mcp-client-switchboard-demo-code', clientId: 'qwen-code' }));
    store.append(makeRun(2, { client: 'qwen-cli-mcp-client-other' }));
    store.append(makeRun(3, { client: 'my-agent', clientId: 'cursor' }));
    store.append(makeRun(4, { client: 'some-other-client' }));
    for (const f of ['Qwen Code', 'qwen-code', 'qwen-cli-mcp-client-x']) expect(ids(store.list({ client: f })), f).toEqual(runIds(2, 1));
    expect(ids(store.list({ client: 'cursor' }))).toEqual(runIds(3));
    expect(ids(store.list({ client: 'some-other-client' }))).toEqual(runIds(4));
    expect(store.get(makeRun(1).id)).toMatchObject({ client: 'qwen-cli-mcp-client-switchboard-demo-code', clientId: 'qwen-code' });
  });

  it('filters by profile, client and outcome, newest first', () => {
    for (let i = 0; i < 24; i++) store.append(makeRun(i, i % 4 === 0 ? { kind: 'runtime' } : i % 4 === 1 ? { kind: 'budget' } : {}));
    expect(ids(store.list({ profile: 'odd', limit: 3 }))).toEqual(runIds(23, 21, 19));
    expect(ids(store.list({ client: 'claude-desktop', limit: 3 }))).toEqual(runIds(21, 18, 15));
    expect(ids(store.list({ outcome: 'runtime', limit: 3 }))).toEqual(runIds(20, 16, 12));
    expect(ids(store.list({ outcome: 'ok', limit: 3 }))).toEqual(runIds(23, 22, 19));
    expect(ids(store.list({ outcome: 'budget', profile: 'odd', client: 'claude-desktop' }))).toEqual(runIds(21, 9));
    expect(store.list({ profile: 'nobody' })).toEqual([]);
  });

  it('filters by an inclusive time range', () => {
    for (let i = 0; i < 20; i++) store.append(makeRun(i));
    expect(ids(store.list({ since: iso(15) }))).toEqual(runIds(19, 18, 17, 16, 15));
    expect(ids(store.list({ until: iso(2) }))).toEqual(runIds(2, 1, 0));
    expect(ids(store.list({ since: iso(5), until: iso(7) }))).toEqual(runIds(7, 6, 5));
  });

  it('searches code, result and error message case-insensitively, and nothing else', () => {
    store.append(makeRun(1, { code: 'return await Linear.Search_Issues({ q: \'a "quoted" word\' })' }));
    store.append(makeRun(2, { result: { title: 'Quarterly REPORT', nested: ['x'] } }));
    store.append(makeRun(3, { kind: 'runtime', error: { kind: 'runtime', message: 'TypeError: cannot read properties of undefined' } }));
    store.append(makeRun(4, { profile: 'report-profile', logs: [{ level: 'log', text: 'report' }] }));
    store.append(makeRun(5, { result: 'plain REPORT text' }));
    expect(ids(store.list({ text: 'search_issues' }))).toEqual(runIds(1));
    expect(ids(store.list({ text: '"quoted"' }))).toEqual(runIds(1));
    expect(ids(store.list({ text: 'report' }))).toEqual(runIds(5, 2));
    expect(ids(store.list({ text: '"title":"quarterly' }))).toEqual(runIds(2));
    expect(ids(store.list({ text: 'typeerror' }))).toEqual(runIds(3));
    expect(ids(store.list({ text: 'report', limit: 1 }))).toEqual(runIds(5));
    expect(store.list({ text: 'absent' })).toEqual([]);
  });

  it('pages newest first with before, combined with filters', () => {
    for (let i = 0; i < 40; i++) store.append(makeRun(i));
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = store.list({ profile: 'even', limit: 7, before });
      if (page.length === 0) break;
      seen.push(...ids(page));
      before = page.at(-1)!.id;
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, k) => makeRun(38 - 2 * k).id));
  });

  it('redacts the secrets it is given before anything reaches the disk', () => {
    store.dispose();
    const secrets = ['hunter2-very-secret'];
    store = RunStore.open(dir, { secrets: () => secrets });
    store.append(makeRun(1, { code: 'call("hunter2-very-secret")', result: { echoed: 'token=hunter2-very-secret' }, logs: [{ level: 'warn', text: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }] }));
    const run = store.get(makeRun(1).id)!;
    expect(run.code).toBe('call("[redacted]")');
    expect(run.result).toEqual({ echoed: 'token=[redacted]' });
    expect(run.logs[0]!.text).toBe('[redacted]');
    const onDisk = readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8')).join('');
    expect(onDisk).toContain('[redacted]');
    expect(onDisk).not.toContain('hunter2');
    expect(onDisk).not.toContain('ghp_');
  });
});

// Issue 11, item 6: one run cannot flood the history.
describe('RunStore caps each record', () => {
  it('keeps what the client got of a 10 M character result, with its true size, so 24 such runs evict nothing', async () => {
    const { MAX_RUN_RECORD_BYTES } = await import('../../../src-main/engine/records/run-record-caps.ts');
    const big = RunStore.open(path.join(dir, 'big'), { maxBytes: 200 * 1024 * 1024 });
    try {
      for (let i = 0; i < 50; i++) big.append(makeRun(i));
      const huge = 'x'.repeat(10_000_000);
      for (let i = 50; i < 74; i++) big.append(makeRun(i, { result: huge, code: 'c'.repeat(500_000), logs: Array.from({ length: 70_000 }, () => ({ level: 'log' as const, text: '' })) }));
      expect(big.count()).toBe(74);
      expect(big.get(makeRun(0).id)).toEqual(makeRun(0));
      const r = big.get(makeRun(60).id)!;
      expect(r.result).toBeUndefined();
      expect(r.resultFullChars).toBe(JSON.stringify(huge).length);
      expect(r.resultText!.startsWith('"xxx')).toBe(true);
      expect(r.resultText!.length).toBeLessThan(24_000 + 200); // the client's default cut, plus a note
      expect(r.resultText).toMatch(/result cut at 24000 of 10000002 characters/);
      expect(r.code.length).toBeLessThan(70_000);
      expect(r.logs.length).toBeLessThanOrEqual(1_002);
      const bytes = readdirSync(path.join(dir, 'big')).reduce((n, f) => n + readFileSync(path.join(dir, 'big', f)).length, 0);
      expect(bytes).toBeLessThan(74 * MAX_RUN_RECORD_BYTES);
    } finally {
      big.dispose();
    }
  });

  it('keeps a small result as a value, lists only the first calls with their count, and cuts a long error', () => {
    const calls = Array.from({ length: 5_000 }, (_, k) => ({ server: 's', tool: 't', start: k, duration: 1, outcome: 'ok' as const }));
    store.append(makeRun(1, { calls }));
    store.append(makeRun(2, { kind: 'runtime', error: { kind: 'runtime', message: 'e'.repeat(100_000) } }));
    const r1 = store.get(makeRun(1).id)!;
    expect(r1.result).toEqual({ count: 1 });
    expect(r1.calls).toHaveLength(256);
    expect(r1.callCount).toBe(5_000);
    expect(store.get(makeRun(2).id)!.error!.message.length).toBeLessThan(4_200);
  });

  it('cuts names like every other text: a client, profile, server or tool name of 100,000 characters keeps 256', () => {
    const long = (c: string) => c.repeat(100_000);
    store.append(makeRun(1, { client: long('c'), profile: long('p'), calls: [{ server: long('s'), tool: long('t'), start: 1, duration: 1, outcome: 'ok' }] }));
    const [r] = store.list();
    const cut = (c: string) => `${c.repeat(256)}\n… [name cut for the run history at 256 of 100000 characters]`;
    expect(r!.client).toBe(cut('c'));
    expect(r!.profile).toBe(cut('p'));
    expect(r!.calls[0]).toMatchObject({ server: cut('s'), tool: cut('t') });
    expect(JSON.stringify(r).length).toBeLessThan(4_000);
  });

  it('redacts a secret that straddles a cut whole: no prefix of it survives', () => {
    const secret = 'Zq7-very-secret-value-123';
    const s = RunStore.open(path.join(dir, 'sec'), { secrets: () => [secret] });
    try {
      // JSON of the result: `"` + pad + secret…; the cut at 24,000 falls inside the secret.
      const result = 'p'.repeat(24_000 - 1 - 10) + secret + 'q'.repeat(50_000);
      s.append(makeRun(1, { result, code: 'c'.repeat(65_536 - 5) + secret }));
      const line = readdirSync(path.join(dir, 'sec')).filter((f) => f.endsWith('.ndjson')).map((f) => readFileSync(path.join(dir, 'sec', f), 'utf8')).join('');
      expect(line).not.toContain(secret.slice(0, 10));
    } finally {
      s.dispose();
    }
  });

  it('stores a run whose result cannot be serialised, saying why', () => {
    let deep: unknown[] = [];
    const root = deep;
    for (let k = 0; k < 20_000; k++) {
      const next: unknown[] = [];
      deep.push(next);
      deep = next;
    }
    store.append(makeRun(1, { result: root }));
    expect(store.get(makeRun(1).id)!.resultText).toMatch(/could not be stored/);
  });
});

describe('RunStore over its cap', () => {
  it(`keeps a quiet client's recent runs when a loud one floods the history (each client its newest ${RUNS_KEEP_PER_CLIENT})`, () => {
    const capped = RunStore.open(path.join(dir, 'capped'), { maxBytes: 60_000, segmentBytes: 4_000 });
    try {
      for (let i = 1; i <= 3; i++) capped.append(makeRun(i, { client: 'quiet-client' }));
      for (let i = 4; i <= 600; i++) capped.append(makeRun(i, { client: 'loud-client' }));
      expect(ids(capped.list({ client: 'quiet-client', limit: 10 }))).toEqual(runIds(3, 2, 1));
      const loud = capped.list({ client: 'loud-client', limit: 1_000 });
      // The flood lost its own oldest, and kept its newest.
      expect(loud[0]!.id).toBe(makeRun(600).id);
      expect(loud.length).toBeGreaterThanOrEqual(RUNS_KEEP_PER_CLIENT);
      expect(loud.length).toBeLessThan(597);
      capped.dispose();
      // And after a restart.
      const reopened = RunStore.open(path.join(dir, 'capped'), { maxBytes: 60_000, segmentBytes: 4_000 });
      expect(ids(reopened.list({ client: 'quiet-client', limit: 10 }))).toEqual(runIds(3, 2, 1));
      reopened.dispose();
    } finally {
      capped.dispose();
    }
  });
});

