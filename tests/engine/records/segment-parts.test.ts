// The pure parts of the segment log: file names and leftovers, line splitting of a segment, the
// index file format, the cap's choices, and the write queue's batching.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addIndexFile, decodeIndexFile, encodeIndexFile } from '../../../src-main/engine/records/index-file.ts';
import { RecordIndex } from '../../../src-main/engine/records/record-index.ts';
import { CapDropTally, fairKeep, keptLines, positionsBySegment, positionsOf } from '../../../src-main/engine/records/segment-eviction.ts';
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

describe('size cap', () => {
  // Segment 1 holds a quiet writer's only record and a loud one's oldest two; segment 2 the loud one's newest.
  function flood(): RecordIndex {
    const index = new RecordIndex(1);
    const rows: [number, number, string, string][] = [[1, 0, 'a', 'quiet'], [1, 10, 'b', 'loud'], [1, 20, 'c', 'loud'], [2, 0, 'd', 'loud'], [2, 10, 'e', 'loud']];
    rows.forEach(([seg, off, id, who], k) => index.add(seg, off, 10, id, k + 1, [index.code(who)]));
    return index;
  }

  it("shares what it keeps by rank, so a flood's newest records cannot take a quiet writer's share", () => {
    const index = flood();
    // Room for three records of 10 bytes: the loud one's newest, the quiet one's only, then the loud one's second.
    expect([...fairKeep(index, 0, 3, 30)].sort()).toEqual([0, 3, 4]);
    expect(fairKeep(index, 0, 3, 1000).size).toBe(4);
    expect(fairKeep(index, -1, 3, 1000).size).toBe(0);
  });

  it('finds the records held in each segment, leaving out those gone', () => {
    const index = flood();
    index.markGone(1);
    expect(positionsBySegment(index)).toEqual(new Map([[1, [0, 2]], [2, [3, 4]]]));
    expect(positionsOf(index, 1)).toEqual([0, 2]);
    expect(positionsOf(index, 2)).toEqual([3, 4]);
  });

  it("cuts a segment down to the kept lines, and refuses a file that is not as the index says", () => {
    const index = flood();
    const lines = ['{"i":"a"}\n', '{"i":"b"}\n', '{"i":"c"}\n'];
    const cut = keptLines(Buffer.from(lines.join('')), index, [0, 2]);
    expect(cut?.data.toString()).toBe(lines[0]! + lines[2]!);
    expect(cut?.offs).toEqual([0, 10]);
    expect(keptLines(Buffer.from(lines.join('').slice(0, 25)), index, [0, 2])).toBeUndefined();
    expect(keptLines(Buffer.from(' ' + lines.join('')), index, [2])).toBeUndefined();
  });

  it('tallies what it removed per writer, with the span of their times', () => {
    const index = flood();
    const tally = new CapDropTally(index, 0);
    for (const p of [1, 2, 0]) tally.count(p);
    expect(tally.groups()).toEqual([
      { value: 'loud', count: 2, from: 2, to: 3 },
      { value: 'quiet', count: 1, from: 1, to: 1 },
    ]);
    const untagged = new CapDropTally(index, -1);
    untagged.count(0);
    expect(untagged.groups()).toEqual([]);
  });
});

describe('write queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it(`writes nothing during push, then the whole burst in order, as one batch, after ${FLUSH_DELAY_MS} ms`, () => {
    const written: number[] = [];
    let batches = 0;
    const q = new WriteQueue<number>((batch) => {
      batches++;
      written.push(...batch);
    });
    q.push(1);
    vi.advanceTimersByTime(10);
    q.push(2);
    q.push(3);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(FLUSH_DELAY_MS - 11);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(written).toEqual([1, 2, 3]);
    expect(batches).toBe(1);
    expect(q.size).toBe(0);
  });

  it('writes at once on flush and starts a new wait for the next record', () => {
    const written: number[] = [];
    const q = new WriteQueue<number>((batch) => written.push(...batch));
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
