// An append-only store of JSON records in newline-delimited segment files, capped by size.
//
// Layout of a store folder (owner-only, 0700):
//   000000000001.ndjson        one record per line, oldest segment first
//   000000000001.idx.json      the in-memory index of a sealed segment, written once when the
//                              segment is sealed, so that opening 100,000 records parses ~8 MB
//                              of numbers and ids instead of ~150 MB of records
//   000000000002.ndjson        the active segment: the only one written, scanned on open
//
// The index files are a cache: one that is missing, unreadable or does not match its segment's
// size is rebuilt by scanning that segment, so a crash at any point loses at most the line being
// written, plus what a deferring store still queued. The engine's stores defer writes
// (`deferWrites`: a batch within 25 ms, off the caller's path, write-queue.ts), so a crash of the
// engine loses at most its last 25 ms of records; without it a record is written during `append`
// (the CLI opens the stores without it, only to read them). Appending never rewrites existing
// data: the active segment's fd stays open in append mode.
//
// A size cap deletes the oldest segments, or with `fairBy` keeps each writer's newest records
// (segment-eviction.ts). The holes left in the in-memory index are closed once they outnumber the
// records held (RecordIndex.squeeze).
//
// The parts: segment-log-options.ts (what a store is opened with), segment-files.ts (names,
// leftovers, lines), index-file.ts (the index file format), record-index.ts (the in-memory index),
// segment-reader.ts (reading lines), segment-query.ts (queries), segment-eviction.ts (the cap),
// write-queue.ts (deferred writes), active-segment-file.ts (the file being appended to).
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../platform/home.ts';
import { ActiveSegmentFile } from './active-segment-file.ts';
import { writeFileAtomicSync } from '../config/atomic-file.ts';
import { addIndexFile, decodeIndexFile, encodeIndexFile } from './index-file.ts';
import { GONE, RecordIndex, UNWRITTEN } from './record-index.ts';
import { SEGMENT_READ, forEachLine, indexFileName, leftoverNames, segmentFileName, segmentSeqs } from './segment-files.ts';
import { SegmentReader } from './segment-reader.ts';
import { WriteQueue } from './write-queue.ts';
import type { IndexFields, SegmentLogOptions } from './segment-log-options.ts';
import { parseRecord, queryRecords, type LogQuery } from './segment-query.ts';
import { CapDropTally, fairKeep, keptLines, positionsBySegment, positionsOf } from './segment-eviction.ts';
import { readHomeFileSync } from '../../shim/home-file.mjs';

interface Segment {
  seq: number;
  /** Bytes of complete lines; anything past this in the file is a torn line to cut off. */
  bytes: number;
  indexBytes: number;
  /** Not ours to append to (unreadable on open, or changed behind our back): writing moves on to a new segment. */
  frozen?: boolean;
}

/** A record ready to write: its line, and what the index keeps of it (tags coded). */
interface Line {
  buf: Buffer;
  id: string;
  time: number;
  tags: number[];
}

const DEFAULT_SEGMENT_BYTES = 4 * 1024 * 1024;
const DEFAULT_UNWRITTEN_BYTES = 8 * 1024 * 1024;

export class SegmentLog<R> {
  readonly #dir: string;
  readonly #opts: SegmentLogOptions<R>;
  readonly #segmentBytes: number;
  readonly #maxUnwritten: number;
  readonly #index: RecordIndex;
  readonly #queue: WriteQueue<R> | undefined;
  /** Lines the disk refused, by position. */
  readonly #unwritten = new Map<number, string>();
  #segments: Segment[] = [];
  /** Position of the active segment's first record: no earlier record can be in it. */
  #activeFirst = 0;
  readonly #file = new ActiveSegmentFile();
  #failing = false;
  #unwrittenBytes = 0;
  #disposed = false;

  private constructor(dir: string, opts: SegmentLogOptions<R>) {
    this.#dir = dir;
    this.#opts = opts;
    this.#segmentBytes = Math.max(1, opts.segmentBytes ?? Math.min(DEFAULT_SEGMENT_BYTES, Math.floor(opts.maxBytes / 4)));
    this.#maxUnwritten = opts.maxUnwrittenBytes ?? DEFAULT_UNWRITTEN_BYTES;
    this.#index = new RecordIndex(opts.tags.length);
    this.#queue = opts.deferWrites ? new WriteQueue<R>((recs) => this.#appendNow(recs)) : undefined;
  }

  /** Opens (or starts) the store in `dir`. Never throws for I/O: an unreadable folder opens empty and the first failed write is reported. */
  static open<R>(dir: string, opts: SegmentLogOptions<R>): SegmentLog<R> {
    const log = new SegmentLog<R>(dir, opts);
    log.#load();
    return log;
  }

  /**
   * Appends one record: written now, or with `deferWrites` queued for a batch write within
   * 25 ms. Never throws: a lost write goes to `onError` and the record stays readable until
   * restart. Reads and dispose write what is queued first, so nothing is missing from a listing.
   */
  append(rec: R): void {
    if (this.#disposed) return;
    if (this.#queue) this.#queue.push(rec);
    else this.#appendNow([rec]);
  }

  /** Writes every queued record now. */
  flush(): void {
    this.#queue?.flush();
  }

  /**
   * Writes records in order, the lines bound for one segment in one write (a deferred batch is
   * one system call), then indexes them and keeps the caps record by record, as one at a time
   * would. A failed write is tried again line by line: only what the disk refused stays in memory.
   */
  #appendNow(recs: readonly R[]): void {
    if (this.#disposed) return;
    const lines: Line[] = [];
    for (const rec of recs) {
      try {
        const stored = this.#opts.prepare ? this.#opts.prepare(rec) : rec;
        const f = this.#opts.index(stored);
        lines.push({ buf: Buffer.from(JSON.stringify(stored) + '\n'), id: f.id, time: f.time, tags: f.tags.map((t) => this.#index.code(t)) });
      } catch (err) {
        this.#report(err);
      }
    }
    for (let i = 0; i < lines.length; ) i = this.#writeFrom(lines, i, lines.length);
  }

  /** Writes lines[from] and those after it (before `to`) that fit in its segment; returns the next to write. */
  #writeFrom(lines: readonly Line[], from: number, to: number): number {
    let w: { seg: Segment; off: number; end: number };
    try {
      w = this.#write(lines, from, to);
    } catch (err) {
      if (to - from > 1) return this.#writeFrom(lines, from, from + 1);
      const { buf, id, time, tags } = lines[from]!;
      const p = this.#index.add(UNWRITTEN, 0, 0, id, time, tags);
      const line = buf.toString();
      this.#unwritten.set(p, line);
      this.#unwrittenBytes += line.length;
      this.#report(err);
      this.#enforceCaps();
      return from + 1;
    }
    for (let k = from, off = w.off; k < w.end; k++) {
      const { buf, id, time, tags } = lines[k]!;
      w.seg.bytes += buf.length;
      this.#index.add(w.seg.seq, off, buf.length, id, time, tags);
      off += buf.length;
      this.#failing = false;
      this.#enforceCaps();
    }
    return w.end;
  }

  get(id: string): R | undefined {
    this.flush();
    const p = this.#index.find(id);
    if (p === undefined) return undefined;
    const reader = new SegmentReader(this.#dir, this.#index, this.#unwritten);
    try {
      const line = reader.line(p, false);
      return line === undefined ? undefined : parseRecord<R>(line);
    } finally {
      reader.close();
    }
  }

  /** Records matching `q`, newest first. */
  query(q: LogQuery): R[] {
    this.flush();
    const reader = new SegmentReader(this.#dir, this.#index, this.#unwritten);
    try {
      return queryRecords(this.#index, reader, this.#opts, q);
    } finally {
      reader.close();
    }
  }

  count(): number {
    this.flush();
    return this.#index.size;
  }

  /** Bytes the store holds on disk (segments and index files). */
  diskBytes(): number {
    return this.#segments.reduce((n, s) => n + s.bytes + s.indexBytes, 0);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.flush();
    this.#disposed = true;
    this.#file.close();
  }

  // ---- opening -------------------------------------------------------------------------------

  #load(): void {
    try {
      ensurePrivateDir(this.#dir);
    } catch {
      // A read-only home still lets us read what is there; the first write reports the problem.
    }
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    const seqs = segmentSeqs(names);
    for (const n of leftoverNames(names, seqs)) {
      try {
        unlinkSync(path.join(this.#dir, n));
      } catch {
        // read-only home: harmless, they are ignored anyway
      }
    }
    for (const [k, seq] of seqs.entries()) {
      const isActive = k === seqs.length - 1;
      const seg: Segment = { seq, bytes: 0, indexBytes: 0 };
      if (isActive) this.#activeFirst = this.#index.end;
      if (isActive || !this.#readIndex(seg)) this.#scanSegment(seg, isActive);
      this.#segments.push(seg);
    }
    this.#enforceCaps();
  }

  /** Loads a sealed segment's index file into memory; false when it is missing or stale. */
  #readIndex(seg: Segment): boolean {
    let text: string;
    let size: number;
    try {
      text = readHomeFileSync(this.#indexPath(seg.seq), SEGMENT_READ).toString('utf8');
      size = statSync(this.#segmentPath(seg.seq)).size;
    } catch {
      return false;
    }
    const idx = decodeIndexFile(text, size, this.#opts.tags);
    if (!idx) return false;
    addIndexFile(this.#index, seg.seq, idx);
    seg.bytes = idx.bytes;
    seg.indexBytes = Buffer.byteLength(text);
    return true;
  }

  #scanSegment(seg: Segment, isActive: boolean): void {
    let buf: Buffer;
    try {
      buf = readHomeFileSync(this.#segmentPath(seg.seq), SEGMENT_READ);
    } catch {
      // Unreadable now is not empty: never append to (or truncate) what we could not see.
      seg.frozen = true;
      try {
        seg.bytes = statSync(this.#segmentPath(seg.seq)).size;
      } catch {
        // gone or not even stat-able: counts as nothing on disk
      }
      return;
    }
    const first = this.#index.end;
    // Past the last whole line is a torn one: cut off before the next write.
    const start = forEachLine(buf, (from, nl) => {
      const rec = parseRecord<R>(buf.toString('utf8', from, nl));
      if (rec === undefined) return;
      try {
        const f = this.#opts.index(rec);
        this.#index.add(seg.seq, from, nl + 1 - from, f.id, f.time, f.tags.map((t) => this.#index.code(t)));
      } catch {
        // A line that is JSON but not a record of ours is skipped like a torn one.
      }
    });
    seg.bytes = start;
    if (isActive) {
      this.#file.mustTruncate = start < buf.length;
    } else {
      // A sealed segment never grows again, so its torn tail (if any) counts as data.
      seg.bytes = buf.length;
      this.#writeIndex(seg, first);
    }
  }

  // ---- writing -------------------------------------------------------------------------------

  /** Writes lines[from] to the active segment (a new one if it does not fit) with the next ones that fit; the caller counts their bytes. */
  #write(lines: readonly Line[], from: number, to: number): { seg: Segment; off: number; end: number } {
    const first = lines[from]!.buf.length;
    // A second try only follows a segment found changed behind our back; a third would mean a bug.
    for (let attempt = 0; ; attempt++) {
      let active = this.#segments.at(-1);
      if (!active || active.frozen || (active.bytes > 0 && active.bytes + first > this.#segmentBytes)) {
        if (active && !active.frozen) this.#seal(active);
        active = { seq: (active?.seq ?? 0) + 1, bytes: 0, indexBytes: 0 };
        this.#segments.push(active);
        this.#activeFirst = this.#index.end;
      }
      if (!this.#file.isOpen && !this.#file.open(this.#dir, this.#segmentPath(active.seq), active)) {
        if (attempt >= 2) throw new Error(`Segment files in ${this.#dir} keep changing while the log writes to them.`);
        continue;
      }
      let end = from + 1;
      let bytes = first;
      while (end < to && active.bytes + bytes + lines[end]!.buf.length <= this.#segmentBytes) bytes += lines[end++]!.buf.length;
      const buf = end - from === 1 ? lines[from]!.buf : Buffer.concat(lines.slice(from, end).map((l) => l.buf), bytes);
      this.#file.write(buf);
      return { seg: active, off: active.bytes, end };
    }
  }

  #seal(seg: Segment): void {
    this.#file.close();
    this.#writeIndex(seg, Math.max(this.#activeFirst, this.#index.start));
  }

  /** Best effort: without an index file the segment is scanned on the next open. */
  #writeIndex(seg: Segment, from: number): void {
    const text = encodeIndexFile(this.#index, seg.seq, from, seg.bytes, this.#opts.tags);
    const target = this.#indexPath(seg.seq);
    try {
      writeFileAtomicSync(target, text, { mode: 0o600 });
      seg.indexBytes = Buffer.byteLength(text);
    } catch {
      // The index is a cache: without it the segment is scanned on the next open.
    }
  }

  #enforceCaps(): void {
    const drops = this.#opts.capDrops;
    const tally = new CapDropTally(this.#index, drops ? this.#opts.tags.indexOf(drops.tag) : -1);
    const count = (p: number): void => tally.count(p);
    if (this.diskBytes() > this.#opts.maxBytes && this.#segments.length > 1) {
      if (this.#opts.fairBy) this.#evictFairly(count);
      // Without fairBy, or when the records it keeps still fill the cap: oldest first.
      while (this.diskBytes() > this.#opts.maxBytes && this.#segments.length > 1) this.#deleteSegment(0, count);
      // Records the disk refused in between go too: they are older than everything kept.
      this.#index.dropFrontWhile((p) => {
        const s = this.#index.seg(p);
        if (s === UNWRITTEN) {
          this.#forgetUnwritten(p);
          count(p);
        }
        return s >= GONE;
      });
      if (this.#index.holes > 4096 && this.#index.holes > this.#index.size) this.#squeeze();
    }
    const groups = tally.groups();
    if (groups.length > 0) drops!.report(groups);
    while (this.#unwrittenBytes > this.#maxUnwritten && this.#unwritten.size > 0) {
      const oldest = this.#unwritten.keys().next().value!;
      this.#forgetUnwritten(oldest);
      this.#index.markGone(oldest);
    }
  }

  /**
   * Takes sealed segments oldest first until the store is a segment below its cap: one holding
   * none of the records `fairBy` keeps is deleted, one holding some is rewritten with only those
   * (one whose rewrite fails is left to the oldest-first rule). Stops at the active segment.
   */
  #evictFairly(count: (p: number) => void): void {
    const { tag, keepRecent } = this.#opts.fairBy!;
    // What is kept takes at most half the cap; past that the oldest go whatever their tag.
    const keep = fairKeep(this.#index, this.#opts.tags.indexOf(tag), keepRecent, this.#opts.maxBytes / 2);
    const bySeg = positionsBySegment(this.#index);
    // Down to a segment below the cap, as deleting whole segments does: the next round (a pass
    // over the index) comes a segment's worth of records later, not at the next append.
    const target = Math.max(0, this.#opts.maxBytes - this.#segmentBytes);
    for (let i = 0; this.diskBytes() > target && i < this.#segments.length - 1; ) {
      const seg = this.#segments[i]!;
      const held = bySeg.get(seg.seq) ?? [];
      const kept = held.filter((p) => keep.has(p));
      if (kept.length === 0) {
        this.#deleteSegment(i, count, held);
        continue;
      }
      if (kept.length < held.length && !seg.frozen) this.#rewriteSegment(seg, held, kept, count);
      i++;
    }
  }

  /** Deletes the segment at `i` and forgets its records (`held`, else found by scanning). */
  #deleteSegment(i: number, count: (p: number) => void, held?: readonly number[]): void {
    const seg = this.#segments.splice(i, 1)[0]!;
    for (const file of [this.#segmentPath(seg.seq), this.#indexPath(seg.seq)]) {
      try {
        unlinkSync(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.#report(err);
      }
    }
    for (const p of held ?? positionsOf(this.#index, seg.seq)) {
      count(p);
      this.#index.markGone(p);
    }
  }

  /**
   * Rewrites a sealed segment with only the records at `kept` (a subset of `held`, both in order):
   * the new file replaces the old atomically, then the index follows. On any failure nothing
   * changes and false is returned: a crash leaves the old file or the new, never half of one.
   */
  #rewriteSegment(seg: Segment, held: readonly number[], kept: readonly number[], count: (p: number) => void): boolean {
    const index = this.#index;
    let buf: Buffer;
    try {
      buf = readHomeFileSync(this.#segmentPath(seg.seq), SEGMENT_READ);
    } catch {
      return false;
    }
    const cut = keptLines(buf, index, kept);
    if (!cut) return false;
    try {
      writeFileAtomicSync(this.#segmentPath(seg.seq), cut.data, { mode: 0o600 });
    } catch {
      // Not a lost record: the segment stays whole, and the oldest-first rule keeps the cap.
      return false;
    }
    const keep = new Set(kept);
    for (const p of held) {
      if (keep.has(p)) continue;
      count(p);
      index.markGone(p);
    }
    kept.forEach((p, k) => index.setOff(p, cut.offs[k]!));
    seg.bytes = cut.data.length;
    seg.indexBytes = 0;
    // The old index no longer matches (its size says so, but it would still take disk space).
    try {
      unlinkSync(this.#indexPath(seg.seq));
    } catch {
      // already gone; or left, and ignored on open as stale
    }
    this.#writeIndex(seg, kept[0]!);
    return true;
  }

  /** Closes the index's holes; the positions kept by the store itself move with their records. */
  #squeeze(): void {
    const unwritten = [...this.#unwritten];
    const moved = new Map<number, number>();
    const firstActive = this.#firstHeldFrom(this.#activeFirst);
    this.#index.squeeze((from, to) => moved.set(from, to));
    this.#unwritten.clear();
    for (const [p, line] of unwritten) this.#unwritten.set(moved.get(p) ?? p, line);
    this.#activeFirst = firstActive === undefined ? this.#index.end : (moved.get(firstActive) ?? firstActive);
  }

  #firstHeldFrom(from: number): number | undefined {
    for (let p = Math.max(from, this.#index.start); p < this.#index.end; p++) if (this.#index.seg(p) !== GONE) return p;
    return undefined;
  }

  #forgetUnwritten(p: number): void {
    const line = this.#unwritten.get(p);
    if (line === undefined) return;
    this.#unwritten.delete(p);
    this.#unwrittenBytes -= line.length;
  }

  #report(err: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    try {
      this.#opts.onError?.(err instanceof Error ? err : new Error(String(err)));
    } catch {
      // The caller's handler must not turn a lost record into a crash.
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  #segmentPath(seq: number): string {
    return path.join(this.#dir, segmentFileName(seq));
  }

  #indexPath(seq: number): string {
    return path.join(this.#dir, indexFileName(seq));
  }
}

