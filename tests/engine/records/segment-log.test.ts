import { appendFileSync, chmodSync, mkdirSync, rmdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../../src-main/engine/records/run-store.ts';
import { SegmentLog } from '../../../src-main/engine/records/segment-log.ts';
import { makeRun, tempDir } from './fixtures.ts';

const posix = process.platform !== 'win32';

let dir: string;
let cleanup: () => void;
const open: RunStore[] = [];

function openStore(opts: Parameters<typeof RunStore.open>[1] = {}): RunStore {
  const s = RunStore.open(dir, { segmentBytes: 2_000, ...opts });
  open.push(s);
  return s;
}

function files(ext: string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith(ext)).sort();
}

function ids(list: { id: string }[]): string[] {
  return list.map((r) => r.id);
}

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  dir = path.join(dir, 'runs');
});
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
  cleanup();
});

describe('segment log', () => {
  it('keeps every record across a restart, newest first', () => {
    const a = openStore();
    for (let i = 0; i < 30; i++) a.append(makeRun(i));
    a.dispose();
    expect(files('.ndjson').length).toBeGreaterThan(3);

    const b = openStore();
    expect(b.count()).toBe(30);
    expect(ids(b.list({ limit: 100 }))).toEqual(Array.from({ length: 30 }, (_, i) => makeRun(29 - i).id));
    expect(b.get(makeRun(7).id)).toEqual(makeRun(7));
    b.append(makeRun(30));
    expect(b.list({ limit: 1 })[0]!.id).toBe(makeRun(30).id);
  });

  it('writes an index for each sealed segment, rebuilds one that is missing or stale, and clears crash leftovers', () => {
    const a = openStore();
    for (let i = 0; i < 30; i++) a.append(makeRun(i));
    a.dispose();
    const indexes = files('.idx.json');
    // Every segment but the active one is sealed with an index.
    expect(indexes.length).toBe(files('.ndjson').length - 1);
    unlinkSync(path.join(dir, indexes[0]!));
    writeFileSync(path.join(dir, indexes[1]!), '{"v":1,"bytes":3,"tags":[],"rows":[]}');
    writeFileSync(path.join(dir, indexes[2]!), 'not json');

    writeFileSync(path.join(dir, `${indexes[0]!}.123.tmp`), '{"v":2');
    writeFileSync(path.join(dir, '000000000000.idx.json'), '{}');

    const b = openStore();
    expect(ids(b.list({ limit: 100 }))).toEqual(Array.from({ length: 30 }, (_, i) => makeRun(29 - i).id));
    // The rebuilt indexes are written back so the next open is fast again.
    expect(files('.idx.json')).toEqual(indexes);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(dir, indexes[1]!), 'utf8')).id.length).toBeGreaterThan(0);
  });

  it('drops the oldest segments first when over its size cap', () => {
    const maxBytes = 8_000;
    const a = openStore({ maxBytes });
    // One client: the history's fair share between clients (run-store.test.ts) keeps no older run here.
    for (let i = 0; i < 100; i++) a.append(makeRun(i, { client: 'cursor' }));
    const onDisk = readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
    expect(onDisk).toBeLessThanOrEqual(maxBytes);

    const kept = ids(a.list({ limit: 1000 }));
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(100);
    // What is left is the newest run back to some point, with no holes.
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => makeRun(99 - i).id));
    expect(a.get(makeRun(0).id)).toBeUndefined();
    expect(a.count()).toBe(kept.length);
    a.dispose();

    const b = openStore({ maxBytes });
    expect(ids(b.list({ limit: 1000 }))).toEqual(kept);
    // A lower cap applies at the next open.
    b.dispose();
    const c = openStore({ maxBytes: 4_000 });
    expect(c.count()).toBeLessThan(kept.length);
    expect(ids(c.list({ limit: 1 }))).toEqual([makeRun(99).id]);
  });

  it('skips a torn last line after a crash, keeps the rest and appends cleanly after it', () => {
    const a = openStore();
    for (let i = 0; i < 5; i++) a.append(makeRun(i));
    a.dispose();
    const active = path.join(dir, files('.ndjson').at(-1)!);
    appendFileSync(active, '{"id":"run-torn","time":"2025-03-01T1');

    const b = openStore();
    expect(ids(b.list({ limit: 100 }))).toEqual([4, 3, 2, 1, 0].map((i) => makeRun(i).id));
    b.append(makeRun(5));
    b.dispose();
    const lines = readFileSync(active, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines.slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();

    const c = openStore();
    expect(ids(c.list({ limit: 100 }))).toEqual([5, 4, 3, 2, 1, 0].map((i) => makeRun(i).id));
  });

  it('skips a corrupt line inside a segment without losing its neighbours', () => {
    const a = openStore({ segmentBytes: 1_000_000 });
    a.append(makeRun(0));
    a.dispose();
    appendFileSync(path.join(dir, files('.ndjson')[0]!), '{garbage\n');
    const b = openStore({ segmentBytes: 1_000_000 });
    b.append(makeRun(1));
    b.dispose();
    const c = openStore({ segmentBytes: 1_000_000 });
    expect(ids(c.list({}))).toEqual([makeRun(1).id, makeRun(0).id]);
  });

  it.runIf(posix)('keeps its folder 0700 and its files 0600, tightening a folder that was too open', () => {
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const a = openStore();
    for (let i = 0; i < 20; i++) a.append(makeRun(i));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const all = readdirSync(dir);
    expect(all.length).toBeGreaterThan(2);
    for (const f of all) expect(statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
  });

  it('appends without rewriting sealed segments or the bytes already in the active one', () => {
    const a = openStore();
    for (let i = 0; i < 20; i++) a.append(makeRun(i));
    const snapshot = (f: string) => {
      const s = statSync(path.join(dir, f));
      return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
    };
    const sealed = [...files('.ndjson').slice(0, -1), ...files('.idx.json')];
    const before = Object.fromEntries(sealed.map((f) => [f, snapshot(f)]));
    const activeName = files('.ndjson').at(-1)!;
    const activeIno = statSync(path.join(dir, activeName)).ino;
    const activeBytes = readFileSync(path.join(dir, activeName));

    a.append(makeRun(20));
    expect(statSync(path.join(dir, activeName)).ino).toBe(activeIno);
    expect(readFileSync(path.join(dir, activeName)).subarray(0, activeBytes.length).equals(activeBytes)).toBe(true);

    // Through several more rotations, nothing sealed earlier is touched again.
    for (let i = 21; i < 60; i++) a.append(makeRun(i));
    expect(files('.ndjson').length).toBeGreaterThan(sealed.length / 2 + 3);
    for (const f of sealed) expect(snapshot(f), f).toEqual(before[f]);
  });

  it('pages with before, also from an id it no longer holds', () => {
    const a = openStore({ maxBytes: 6_000 });
    for (let i = 0; i < 60; i++) a.append(makeRun(i));
    const page1 = ids(a.list({ limit: 3 }));
    expect(page1).toEqual([59, 58, 57].map((i) => makeRun(i).id));
    expect(ids(a.list({ limit: 3, before: page1.at(-1) }))).toEqual([56, 55, 54].map((i) => makeRun(i).id));
    expect(a.list({ limit: 3, before: makeRun(0).id })).toEqual([]);
    // An id the store does not hold pages by id order.
    expect(ids(a.list({ limit: 2, before: `${makeRun(55).id}x` }))).toEqual([55, 54].map((i) => makeRun(i).id));
  });

  it('leaves lines another writer added to its segment alone and moves on to a new segment', () => {
    const a = openStore();
    a.append(makeRun(1));
    a.dispose();
    const b = openStore();
    const first = path.join(dir, files('.ndjson')[0]!);
    const foreign = JSON.stringify(makeRun(2)) + '\n';
    appendFileSync(first, foreign);
    b.append(makeRun(3));
    b.dispose();
    expect(readFileSync(first, 'utf8').endsWith(foreign)).toBe(true);
    expect(files('.ndjson')).toHaveLength(2);
    const c = openStore();
    expect(ids(c.list({}))).toEqual([3, 2, 1].map((i) => makeRun(i).id));
  });

  it('keeps records the disk refused in memory only up to its bound, dropping the oldest of them', () => {
    const errors: Error[] = [];
    const log = SegmentLog.open<{ id: string; k: string }>(dir, {
      maxBytes: 1_000_000,
      segmentBytes: 1,
      maxUnwrittenBytes: 100,
      tags: ['k'],
      index: (r) => ({ id: r.id, time: 0, tags: [r.k] }),
      searchText: (r) => [r.k],
      onError: (e) => errors.push(e),
    });
    log.append({ id: 'a', k: 'x' }); // segment 1
    mkdirSync(path.join(dir, '000000000002.ndjson'));
    for (let i = 0; i < 10; i++) log.append({ id: `m${i}`, k: 'x' }); // each ~20 bytes, refused
    expect(errors).toHaveLength(1);
    const held = log.query({ limit: 100 }).map((r) => r.id);
    expect(held[0]).toBe('m9');
    expect(held.at(-1)).toBe('a');
    expect(held.length).toBeLessThan(11);
    expect(held.length).toBeGreaterThan(3);
    expect(log.count()).toBe(held.length);
    expect(log.get('m0')).toBeUndefined();
    rmdirSync(path.join(dir, '000000000002.ndjson'));
    log.dispose();
  });
});

describe('segment log with fairBy', () => {
  interface Rec {
    id: string;
    t: number;
    who: string;
  }
  const openFair = (deferWrites = false) =>
    SegmentLog.open<Rec>(dir, {
      maxBytes: 40_000,
      segmentBytes: 4_000,
      deferWrites,
      tags: ['who'],
      index: (r) => ({ id: r.id, time: r.t, tags: [r.who] }),
      searchText: (r) => [r.who],
      fairBy: { tag: 'who', keepRecent: 5 },
    });
  const rec = (i: number, who: string): Rec => ({ id: `r-${String(i).padStart(7, '0')}`, t: i, who });

  it('writes deferred bursts (one write each) to the same files, byte for byte, as record-by-record appends, caps included', () => {
    const single = openFair(false);
    const burstsDir = `${dir}-bursts`;
    const bursts = SegmentLog.open<Rec>(burstsDir, { maxBytes: 40_000, segmentBytes: 4_000, deferWrites: true, tags: ['who'], index: (r) => ({ id: r.id, time: r.t, tags: [r.who] }), searchText: (r) => [r.who], fairBy: { tag: 'who', keepRecent: 5 } });
    try {
      for (let i = 0; i < 3_000; i++) {
        const r = rec(i, i % 7 === 0 ? 'quiet' : 'loud');
        single.append(r);
        bursts.append(r);
        if (i % 97 === 96) bursts.flush();
      }
      expect(bursts.query({ limit: 10_000 })).toEqual(single.query({ limit: 10_000 }));
      const filesOf = (d: string) => Object.fromEntries(readdirSync(d).sort().map((n) => [n, readFileSync(path.join(d, n), 'utf8')]));
      expect(filesOf(burstsDir)).toEqual(filesOf(dir));
      expect(Object.keys(filesOf(dir)).length).toBeGreaterThan(4);
    } finally {
      single.dispose();
      bursts.dispose();
    }
  });

  it('keeps a quiet writer\'s newest records through 12,000 of a loud one\'s, closing the holes they leave; get, paging and a restart agree', () => {
    const log = SegmentLog.open<Rec>(dir, { maxBytes: 40_000, segmentBytes: 4_000, tags: ['who'], index: (r) => ({ id: r.id, time: r.t, tags: [r.who] }), searchText: (r) => [r.who], fairBy: { tag: 'who', keepRecent: 5 } });
    try {
      for (let i = 0; i < 8; i++) log.append(rec(i, 'quiet'));
      for (let i = 8; i < 12_008; i++) log.append(rec(i, 'loud'));
      const quiet = log.query({ tags: { who: 'quiet' } });
      expect(quiet.map((r) => r.t)).toEqual([7, 6, 5, 4, 3]); // its 5 newest
      expect(log.get(rec(5, 'quiet').id)).toEqual(rec(5, 'quiet'));
      expect(log.get(rec(2, 'quiet').id)).toBeUndefined();
      const all = log.query({ limit: 10_000 });
      expect(all.length).toBe(log.count());
      expect(all.map((r) => r.t)).toEqual([...all.map((r) => r.t)].sort((a, b) => b - a));
      expect(all[0]!.t).toBe(12_007);
      // Every loud record after the oldest kept one is contiguous: only the oldest were removed.
      const loud = all.filter((r) => r.who === 'loud').map((r) => r.t);
      expect(loud.at(-1)! + loud.length - 1).toBe(12_007);
      const paged: Rec[] = [];
      for (let page = log.query({ limit: 9 }); page.length; page = log.query({ limit: 9, before: page.at(-1)!.id })) paged.push(...page);
      expect(paged).toEqual(all);
      expect(log.diskBytes()).toBeLessThanOrEqual(40_000);
      log.dispose();
      const again = openFair();
      try {
        expect(again.query({ limit: 10_000 })).toEqual(all);
        again.append(rec(12_008, 'loud'));
        expect(again.query({ tags: { who: 'quiet' } }).map((r) => r.t)).toEqual([7, 6, 5, 4, 3]);
      } finally {
        again.dispose();
      }
    } finally {
      log.dispose();
    }
  });
});
