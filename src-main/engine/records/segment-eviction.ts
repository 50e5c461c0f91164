// What the size cap of a segment log removes, and what it keeps. Without `fairBy` it deletes the
// oldest segments whole. With `fairBy` (the audit: by client) it first keeps each writer's newest
// records: an oldest segment holding some is rewritten with only those (the file replaced
// atomically, its index file rewritten), one holding none is deleted, so one writer's flood
// removes its own oldest records and not another's recent trail. These are the cap's pure parts,
// over the in-memory index; segment-log.ts does the deleting and rewriting.
import { GONE, type RecordIndex } from './record-index.ts';
import type { CapDrop } from './segment-log-options.ts';

/** Counts what one round of the cap removed, grouped by the value of one tag (`tag`: its position, -1 for none). */
export class CapDropTally {
  readonly #index: RecordIndex;
  readonly #tag: number;
  readonly #groups = new Map<string, CapDrop>();

  constructor(index: RecordIndex, tag: number) {
    this.#index = index;
    this.#tag = tag;
  }

  count(p: number): void {
    if (this.#tag < 0) return;
    const value = this.#index.string(this.#index.tag(p, this.#tag));
    const time = this.#index.time(p);
    const g = this.#groups.get(value);
    if (!g) this.#groups.set(value, { value, count: 1, from: time, to: time });
    else {
      g.count++;
      g.from = Math.min(g.from, time);
      g.to = Math.max(g.to, time);
    }
  }

  /** The groups counted; empty when nothing was. */
  groups(): CapDrop[] {
    return [...this.#groups.values()];
  }
}

/**
 * The positions fair eviction keeps: each value of the tag at `tag` gets its `keepRecent` newest
 * records, within `budgetBytes`. The budget is shared out by rank — every value's newest first,
 * then every value's second newest… — so a flood's newest records cannot take the share of
 * another writer's few.
 */
export function fairKeep(index: RecordIndex, tag: number, keepRecent: number, budgetBytes: number): Set<number> {
  const keep = new Set<number>();
  if (tag < 0) return keep;
  // Each value's newest records, newest first; values in the order of their newest record.
  const byValue = new Map<number, number[]>();
  for (let p = index.end - 1; p >= index.start; p--) {
    const s = index.seg(p);
    if (s >= GONE) continue; // gone, or only in memory (not on disk, nothing to keep)
    const code = index.tag(p, tag);
    let list = byValue.get(code);
    if (!list) byValue.set(code, (list = []));
    if (list.length < keepRecent) list.push(p);
  }
  const lists = [...byValue.values()];
  let budget = budgetBytes;
  for (let rank = 0; rank < keepRecent; rank++) {
    let any = false;
    for (const list of lists) {
      const p = list[rank];
      if (p === undefined) continue;
      any = true;
      budget -= index.len(p);
      if (budget < 0) return keep;
      keep.add(p);
    }
    if (!any) break;
  }
  return keep;
}

/** The positions of the records held in each segment, oldest first. */
export function positionsBySegment(index: RecordIndex): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let p = index.start; p < index.end; p++) {
    const s = index.seg(p);
    if (s >= GONE) continue;
    let list = out.get(s);
    if (!list) out.set(s, (list = []));
    list.push(p);
  }
  return out;
}

/** The positions of segment `seq`'s records, found by scanning the index. */
export function positionsOf(index: RecordIndex, seq: number): number[] {
  const out: number[] = [];
  // Positions follow segment order: past the first record of a newer segment, none is this one's.
  for (let p = index.start; p < index.end; p++) {
    const s = index.seg(p);
    if (s === seq) out.push(p);
    else if (s < GONE && s > seq) break;
  }
  return out;
}

/**
 * A segment's content cut down to the records at `kept` (in order), and their new offsets;
 * undefined when the file (`buf`) is no longer as the index says: whole lines where it puts them.
 */
export function keptLines(buf: Buffer, index: RecordIndex, kept: readonly number[]): { data: Buffer; offs: number[] } | undefined {
  const parts: Buffer[] = [];
  const offs: number[] = [];
  let size = 0;
  for (const p of kept) {
    const off = index.off(p);
    const len = index.len(p);
    if (off + len > buf.length || buf[off + len - 1] !== 0x0a || (off > 0 && buf[off - 1] !== 0x0a)) return undefined;
    parts.push(buf.subarray(off, off + len));
    offs.push(size);
    size += len;
  }
  return { data: Buffer.concat(parts, size), offs };
}
