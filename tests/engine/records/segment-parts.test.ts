// The pure parts of the segment log: file names and leftovers, line splitting of a segment, the
// index file format, and the write queue's batching.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addIndexFile, decodeIndexFile, encodeIndexFile } from '../../../src-main/engine/records/index-file.ts';
import { RecordIndex } from '../../../src-main/engine/records/record-index.ts';
import { forEachLine, indexFileName, leftoverNames, segmentFileName, segmentSeqs } from '../../../src-main/engine/records/segment-files.ts';
import { FLUSH_DELAY_MS, WriteQueue } from '../../../src-main/engine/records/write-queue.ts';

describe('segment files', () => {
  it('names segments and their indexes with twelve digits, so a listing sorts in order', () => {
    expect(segmentFileName(42)).toBe('000000000042.ndjson');
    expect(indexFileName(42)).toBe('000000000042.idx.json');
  });

  it('finds the segments of a folder, oldest first, and nothing else', () => {
    const names = ['000000000010.ndjson', 'notes.txt', '000000000002.ndjson', '000000000002.idx.json', '12.ndjson', '000000000003.ndjson.bak'];
    expect(segmentSeqs(names)).toEqual([2, 10]);
  });

  it('names as leftovers the temp files and the index files whose segment is gone', () => {
    const names = ['000000000001.ndjson', '000000000001.idx.json', '000000000002.idx.json', '.000000000001.idx.json.77.ab.tmp', 'x.tmp', 'keep.json'];
    expect(leftoverNames(names, [1])).toEqual(['000000000002.idx.json', '.000000000001.idx.json.77.ab.tmp', 'x.tmp']);
  });

  it('splits a segment into whole lines and counts a torn last line out', () => {
    const buf = Buffer.from('{"a":1}\n{"b":2}\n{"c":');
    const lines: string[] = [];
    const whole = forEachLine(buf, (start, end) => lines.push(buf.toString('utf8', start, end)));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(whole).toBe(16);
    expect(forEachLine(Buffer.from(''), () => expect.unreachable())).toBe(0);
    expect(forEachLine(Buffer.from('\n\n'), () => undefined)).toBe(2);
  });
});

describe('index file', () => {
  const tags = ['profile', 'outcome'];
  function sample(): RecordIndex {
    const index = new RecordIndex(tags.length);
    const code = (s: string) => index.code(s);
    index.add(1, 0, 10, 'r1', 1000, [code('demo'), code('ok')]);
    index.add(2, 0, 12, 'other-segment', 1500, [code('x'), code('ok')]);
    index.add(1, 10, 20, 'r2', 2000, [code('work'), code('timeout')]);
    return index;
  }

  it('keeps exactly one segment\'s records, and reads back into another index with its own codes', () => {
    const text = encodeIndexFile(sample(), 1, 0, 30, tags);
    const idx = decodeIndexFile(text, 30, tags)!;
    expect(idx.id).toEqual(['r1', 'r2']);
    const into = new RecordIndex(tags.length);
    into.code('unrelated'); // codes differ from the writer's
    addIndexFile(into, 1, idx);
    expect(into.size).toBe(2);
    const p = into.find('r2')!;
    expect([into.seg(p), into.off(p), into.len(p), into.time(p)]).toEqual([1, 10, 20, 2000]);
    expect([into.string(into.tag(p, 0)), into.string(into.tag(p, 1))]).toEqual(['work', 'timeout']);
  });

  it('ignores a file that does not match its segment: another size, other tags, another version, broken JSON', () => {
    const text = encodeIndexFile(sample(), 1, 0, 30, tags);
    expect(decodeIndexFile(text, 31, tags)).toBeUndefined();
    expect(decodeIndexFile(text, 30, ['profile'])).toBeUndefined();
    expect(decodeIndexFile(text.replace('"v":2', '"v":1'), 30, tags)).toBeUndefined();
    expect(decodeIndexFile(text.slice(0, -5), 30, tags)).toBeUndefined();
    expect(decodeIndexFile('null', 30, tags)).toBeUndefined();
    const short = JSON.parse(text);
    short.time.pop();
    expect(decodeIndexFile(JSON.stringify(short), 30, tags)).toBeUndefined();
  });
});

describe('write queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it(`writes nothing during push, then the whole burst in order after ${FLUSH_DELAY_MS} ms`, () => {
    const written: number[] = [];
    const q = new WriteQueue<number>((n) => written.push(n));
    q.push(1);
    vi.advanceTimersByTime(10);
    q.push(2);
    q.push(3);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(FLUSH_DELAY_MS - 11);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(written).toEqual([1, 2, 3]);
    expect(q.size).toBe(0);
  });

  it('writes at once on flush and starts a new wait for the next record', () => {
    const written: number[] = [];
    const q = new WriteQueue<number>((n) => written.push(n));
    q.push(1);
    q.flush();
    expect(written).toEqual([1]);
    q.push(2);
    vi.advanceTimersByTime(FLUSH_DELAY_MS - 1);
    expect(written).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(written).toEqual([1, 2]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
