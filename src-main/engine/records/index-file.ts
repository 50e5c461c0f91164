// A sealed segment's index file (`NNN.idx.json`): the RecordIndex entries of that segment, so
// opening 100,000 records parses ~8 MB of numbers and ids instead of ~150 MB of records. It is a
// cache: one that does not match its segment (size, version, tag names) is ignored and the
// segment scanned instead.
import type { RecordIndex } from './record-index.ts';

const INDEX_VERSION = 2;

/** Columns, not one object per record: flat arrays of numbers parse fast and leave little garbage. */
export interface IndexFile {
  v: number;
  /** Size of the segment the index describes; any other size means it is stale. */
  bytes: number;
  tags: string[];
  /** Tag values, referred to by `codes`. */
  strings: string[];
  off: number[];
  len: number[];
  id: string[];
  time: number[];
  /** `tags.length` codes per record, into `strings`. */
  codes: number[];
}

/** The index file text for the records of segment `seq` held in `index` from position `from` on. */
export function encodeIndexFile(index: RecordIndex, seq: number, from: number, segmentBytes: number, tags: readonly string[]): string {
  const file: IndexFile = { v: INDEX_VERSION, bytes: segmentBytes, tags: [...tags], strings: [], off: [], len: [], id: [], time: [], codes: [] };
  // Tag values get the file's own string table, so the file does not depend on our codes.
  const local = new Map<number, number>();
  for (let p = from; p < index.end; p++) {
    if (index.seg(p) !== seq) continue;
    file.off.push(index.off(p));
    file.len.push(index.len(p));
    file.id.push(index.id(p));
    file.time.push(index.time(p));
    for (let t = 0; t < tags.length; t++) {
      const code = index.tag(p, t);
      let c = local.get(code);
      if (c === undefined) {
        c = file.strings.length;
        file.strings.push(index.string(code));
        local.set(code, c);
      }
      file.codes.push(c);
    }
  }
  return JSON.stringify(file);
}

/** The index file in `text` when it describes a segment of `segmentBytes` bytes with these tags; undefined otherwise. */
export function decodeIndexFile(text: string, segmentBytes: number, tags: readonly string[]): IndexFile | undefined {
  let idx: IndexFile;
  try {
    idx = JSON.parse(text) as IndexFile;
  } catch {
    return undefined;
  }
  if (!idx || typeof idx !== 'object' || !Array.isArray(idx.id)) return undefined;
  const n = idx.id.length;
  const valid =
    idx.v === INDEX_VERSION && idx.bytes === segmentBytes && sameList(idx.tags, tags) && Array.isArray(idx.strings) &&
    isArrayOf(idx.off, n) && isArrayOf(idx.len, n) && isArrayOf(idx.time, n) && isArrayOf(idx.codes, n * tags.length);
  return valid ? idx : undefined;
}

/** Adds the records of a decoded index file of segment `seq` to `index`. */
export function addIndexFile(index: RecordIndex, seq: number, idx: IndexFile): void {
  const nTags = idx.tags.length;
  // The file's own string table maps onto ours once, not once per record.
  const map = idx.strings.map((str) => index.code(str));
  const tags = new Array<number>(nTags);
  for (let k = 0; k < idx.id.length; k++) {
    for (let t = 0; t < nTags; t++) tags[t] = map[idx.codes[k * nTags + t]!]!;
    index.add(seq, idx.off[k]!, idx.len[k]!, idx.id[k]!, idx.time[k]!, tags);
  }
}

function isArrayOf(a: unknown, n: number): boolean {
  return Array.isArray(a) && a.length === n;
}

function sameList(a: unknown, b: readonly string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}
