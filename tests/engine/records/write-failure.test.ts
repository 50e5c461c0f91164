import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../../src-main/engine/records/run-store.ts';
import { CAN_RUN_AS_NOBODY, runAsNobody } from '../../helpers/as-nobody.ts';
import { makeRun, tempDir } from './fixtures.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const segment = (seq: number) => `${String(seq).padStart(12, '0')}.ndjson`;
const lineBytes = Buffer.byteLength(JSON.stringify(makeRun(0)) + '\n');

let root: string;
let dir: string;
let cleanup: () => void;

beforeEach(() => {
  ({ dir: root, cleanup } = tempDir());
  dir = path.join(root, 'runs');
});
afterEach(() => cleanup());

describe('write failures', () => {
  // A real refusal from the kernel, not a mock: the next segment's path is a directory, so
  // opening it fails with EISDIR exactly as a full or broken disk would fail the write.
  // (Permissions cannot be used here: tests run as root, which ignores them; see below.)
  // Deferred, the records of a burst are written in one write, and tried again one by one when it fails.
  it.each([false, true])('reports a lost write once, keeps serving every record, and reports again only after a success (deferred writes: %s)', (deferWrites) => {
    const errors: NodeJS.ErrnoException[] = [];
    // Three records fill a segment, so the fourth has to open segment 2.
    const store = RunStore.open(dir, { segmentBytes: lineBytes * 3 + 10, onError: (e) => errors.push(e), deferWrites });
    mkdirSync(path.join(dir, segment(2)), { recursive: true });
    for (let i = 1; i <= 6; i++) store.append(makeRun(i));
    store.count(); // writes what is deferred
    expect(errors.map((e) => e.code)).toEqual(['EISDIR']);
    expect(store.list({ limit: 100 }).map((r) => r.id)).toEqual([6, 5, 4, 3, 2, 1].map((i) => makeRun(i).id));
    expect(store.get(makeRun(5).id)).toEqual(makeRun(5));

    rmdirSync(path.join(dir, segment(2)));
    store.append(makeRun(7));
    store.count();
    expect(errors).toHaveLength(1);
    expect(readFileSync(path.join(dir, segment(2)), 'utf8')).toContain(makeRun(7).id);

    mkdirSync(path.join(dir, segment(3)));
    for (let i = 8; i <= 11; i++) store.append(makeRun(i));
    store.count();
    expect(errors.map((e) => e.code)).toEqual(['EISDIR', 'EISDIR']);
    store.dispose();
    rmdirSync(path.join(dir, segment(3)));

    // What the disk refused lived in memory only; everything written survives the restart.
    const reopened = RunStore.open(dir, { segmentBytes: lineBytes * 3 + 10 });
    expect(reopened.list({ limit: 100 }).map((r) => r.id)).toEqual([9, 8, 7, 3, 2, 1].map((i) => makeRun(i).id));
    reopened.dispose();
  });

  // A pipe planted under the next segment's name: opening it to append would wait for a reader
  // (the engine's event loop with it). A link there would have the log write where it points.
  it.skipIf(process.platform === 'win32')('writes past a FIFO or a link planted at the next segment, leaving both as they were', () => {
    const errors: NodeJS.ErrnoException[] = [];
    const store = RunStore.open(dir, { segmentBytes: lineBytes * 3 + 10, onError: (e) => errors.push(e) });
    execFileSync('mkfifo', ['-m', '600', path.join(dir, segment(2))]);
    const outside = path.join(root, 'outside.txt');
    writeFileSync(outside, 'theirs');
    symlinkSync(outside, path.join(dir, segment(3)));
    for (let i = 1; i <= 9; i++) store.append(makeRun(i));
    store.count();
    expect(errors).toEqual([]);
    expect(lstatSync(path.join(dir, segment(2))).isFIFO()).toBe(true);
    expect(lstatSync(path.join(dir, segment(3))).isSymbolicLink()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('theirs');
    expect(store.list({ limit: 100 }).map((r) => r.id)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1].map((i) => makeRun(i).id));
    store.dispose();
    // Everything written is there after a restart, from segments of its own.
    const reopened = RunStore.open(dir, { segmentBytes: lineBytes * 3 + 10 });
    expect(reopened.list({ limit: 100 }).map((r) => r.id)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1].map((i) => makeRun(i).id));
    reopened.dispose();
  });

  it('does not throw into the caller when the handler itself throws', () => {
    const store = RunStore.open(dir, { segmentBytes: 10, onError: () => { throw new Error('handler broke'); } });
    mkdirSync(path.join(dir, segment(1)), { recursive: true });
    expect(() => store.append(makeRun(1))).not.toThrow();
    expect(store.count()).toBe(1);
    store.dispose();
  });

  // A read-only home for real: root ignores permissions, so the writer runs as `nobody` against a
  // store root owns and leaves readable (0755 folder, 0644 files) but not writable.
  it.runIf(CAN_RUN_AS_NOBODY)('in a read-only home, still lists what is on disk and reports the lost writes once', () => {
    const store = RunStore.open(dir);
    for (let i = 1; i <= 5; i++) store.append(makeRun(i));
    store.dispose();
    chmodSync(root, 0o755);
    chmodSync(dir, 0o755);
    for (const f of readdirSync(dir)) chmodSync(path.join(dir, f), 0o644);
    const filesBefore = readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]);

    const out = runAsNobody(path.join(repo, 'tests/engine/records/fixtures/readonly-writer.ts'), [dir]);
    const seen = JSON.parse(out) as { uid: number; before: string[]; after: string[]; fetched: string | null; errors: string[] };
    expect(seen.uid).not.toBe(0);
    expect(seen.before).toEqual([5, 4, 3, 2, 1].map((i) => makeRun(i).id));
    expect(seen.errors).toEqual(['EACCES']);
    expect(seen.after).toEqual([101, 100, 5, 4, 3, 2, 1].map((i) => makeRun(i).id));
    expect(seen.fetched).toBe(makeRun(101).id);
    expect(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')])).toEqual(filesBefore);
  });
});
