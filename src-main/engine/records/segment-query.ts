// A query over a segment log: filters on the in-memory index first (tags, times, paging), and
// reads only the records that pass, newest first; a text search tests the raw line before parsing.
import { GONE, type RecordIndex } from './record-index.ts';
import type { SegmentReader } from './segment-reader.ts';

export interface LogQuery {
  /** Tag name → required value. */
  tags?: Record<string, string | undefined>;
  /** Milliseconds since the epoch, inclusive. */
  since?: number;
  until?: number;
  /** Case-insensitive substring of any of the record's `searchText`. */
  text?: string;
  /** Only records older than the one with this id. */
  before?: string;
  /** Defaults to 50; at most 10,000. */
  limit?: number;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 10_000;

/** How the store's records are read and searched. */
export interface QueryShape<R> {
  /** The store's tag names, in index order. */
  tags: readonly string[];
  /** The texts a `text` query searches, case-insensitively. */
  searchText: (rec: R) => string[];
}

/** Records matching `q`, newest first, read through `reader`. */
export function queryRecords<R>(index: RecordIndex, reader: SegmentReader, shape: QueryShape<R>, q: LogQuery): R[] {
  const limit = Number.isFinite(q.limit) ? Math.min(Math.max(0, Math.floor(q.limit!)), MAX_LIMIT) : DEFAULT_LIMIT;
  const tagFilters: [number, number][] = [];
  for (const [name, value] of Object.entries(q.tags ?? {})) {
    if (value === undefined) continue;
    const t = shape.tags.indexOf(name);
    if (t < 0) throw new Error(`Unknown tag "${name}"`);
    const code = index.codeOf(value);
    if (code === undefined) return []; // a value no record has
    tagFilters.push([t, code]);
  }
  let end = index.end;
  let beforeId: string | undefined;
  if (q.before !== undefined) {
    const anchor = index.find(q.before);
    // An anchor no longer held (dropped by the cap) still pages, by id order.
    if (anchor !== undefined) end = anchor;
    else beforeId = q.before;
  }
  const needle = q.text ? q.text.toLowerCase() : undefined;
  const escapedNeedle = needle ? JSON.stringify(needle).slice(1, -1) : undefined;
  const out: R[] = [];
  scan: for (let p = end - 1; p >= index.start && out.length < limit; p--) {
    if (index.seg(p) === GONE) continue;
    if (q.since !== undefined && index.time(p) < q.since) continue;
    if (q.until !== undefined && index.time(p) > q.until) continue;
    for (const [t, code] of tagFilters) if (index.tag(p, t) !== code) continue scan;
    if (beforeId !== undefined && !(index.id(p) < beforeId)) continue;
    const line = reader.line(p, needle !== undefined);
    if (line === undefined) continue;
    if (needle !== undefined) {
      // Cheap test on the raw line first; a field's text appears in it verbatim or JSON-escaped.
      const raw = line.toLowerCase();
      if (!raw.includes(needle) && !raw.includes(escapedNeedle!)) continue;
      const rec = parseRecord<R>(line);
      if (rec === undefined || !shape.searchText(rec).some((s) => s.toLowerCase().includes(needle))) continue;
      out.push(rec);
    } else {
      const rec = parseRecord<R>(line);
      if (rec !== undefined) out.push(rec);
    }
  }
  return out;
}

/** A stored line as a record; undefined for a line that is not JSON (torn or foreign). */
export function parseRecord<R>(line: string): R | undefined {
  try {
    return JSON.parse(line) as R;
  } catch {
    return undefined;
  }
}
