import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../../src-main/engine/records/run-store.ts';
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
