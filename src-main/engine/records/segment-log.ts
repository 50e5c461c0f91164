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
// The cap deletes the oldest segments whole. With `fairBy` (the audit: by client) it first keeps
// each writer's newest records: an oldest segment holding some is rewritten with only those (the
// file replaced atomically, its index file rewritten), one holding none is deleted, so one
// writer's flood removes its own oldest records and not another's recent trail. The holes left in
// the in-memory index are closed once they outnumber the records held (RecordIndex.squeeze).
//
// The parts: segment-files.ts (names, leftovers, lines), index-file.ts (the index file format),
// record-index.ts (the in-memory index), segment-reader.ts (reading lines), write-queue.ts.
import { closeSync, fchmodSync, fstatSync, mkdirSync, ftruncateSync, openSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../platform/home.ts';
import { writeFileAtomicSync } from '../config/atomic-file.ts';
import { addIndexFile, decodeIndexFile, encodeIndexFile } from './index-file.ts';
import { currentSecrets, redactDeep } from './redact.ts';
import { GONE, RecordIndex, UNWRITTEN } from './record-index.ts';
import { SEGMENT_READ, forEachLine, indexFileName, leftoverNames, segmentFileName, segmentSeqs } from './segment-files.ts';
import { SegmentReader } from './segment-reader.ts';
import { WriteQueue } from './write-queue.ts';
import { readHomeFileSync } from '../../shim/home-file.mjs';

/** What the in-memory index keeps of one record: enough to filter and page without reading it. */
export interface IndexFields {
  id: string;
  /** Milliseconds since the epoch. */
  time: number;
  /** Values of the store's tag fields, in the order of `SegmentLogOptions.tags`. */
  tags: string[];
}

export interface SegmentLogOptions<R> {
  /** Write within 25 ms, in a batch (write-queue.ts), instead of during append(). Defaults to false. */
  deferWrites?: boolean;
  /** Total bytes on disk (segments and their index files) beyond which the oldest segments are deleted. */
  maxBytes: number;
  /** Size in bytes at which a new segment is started. Defaults to 4 MB, or a quarter of `maxBytes` when that is smaller. */
  segmentBytes?: number;
  /** Names of the string fields kept in memory for filtering, e.g. `['profile', 'client', 'outcome']`. */
  tags: readonly string[];
  /** The index fields of a record. */
  index: (rec: R) => IndexFields;
  /** Turns a record into what is stored (redaction); its failure is reported like a lost write. */
  prepare?: (rec: R) => R;
  /** The texts a `text` query searches, case-insensitively. */
  searchText: (rec: R) => string[];
  /** Told of a lost write once, then again only after a write has succeeded in between. */
  onError?: (err: Error) => void;
  /** Records the disk refused are kept in memory (until restart) up to this many bytes. Defaults to 8 MB. */
  maxUnwrittenBytes?: number;
  /**
   * Told what the size cap removed, grouped by the value of one tag (the audit: per client), so
   * that records pushed out by one writer's traffic leave a trace of what they were.
   */
  capDrops?: { tag: string; report: (groups: CapDrop[]) => void };
  /**
   * Fair eviction: the `keepRecent` newest records of each value of `tag` outlive the segment
   * they are in when the cap removes it, as long as they take at most half of `maxBytes` (shared
   * out by rank, see #fairKeep); past that the cap removes the oldest records whatever their tag.
   * Off when absent.
   */
  fairBy?: { tag: string; keepRecent: number };
}

/** Records of one group the size cap removed at once: how many, and the span of their times (ms). */
export interface CapDrop {
  value: string;
  count: number;
  from: number;
  to: number;
}

/** What the audit log and the run store take when opened. */
export interface RecordStoreOptions {
  /** Bytes on disk beyond which the oldest records are deleted. Defaults: audit 50 MB, runs 200 MB. */
  maxBytes?: number;
  /** Size of one segment file, in bytes. Defaults to 4 MB (a quarter of `maxBytes` when that is smaller). */
  segmentBytes?: number;
  /** Told once when records stop reaching the disk, and again only after one has in between. */
  onError?: (err: Error) => void;
  /** Secret values to redact, asked at each append so a changed secret applies at once. */
  secrets?: () => readonly string[];
  /** Write within 25 ms, in a batch off the caller's path, instead of during append(). Defaults to false. */
  deferWrites?: boolean;
}

/** The options every record store passes on unchanged, with redaction of secrets on write. */
export function storeBasics<R>(opts: RecordStoreOptions, defaultMaxBytes: number): Pick<SegmentLogOptions<R>, 'maxBytes' | 'segmentBytes' | 'onError' | 'deferWrites' | 'prepare'> {
  return {
    maxBytes: opts.maxBytes ?? defaultMaxBytes,
    segmentBytes: opts.segmentBytes,
    onError: opts.onError,
    deferWrites: opts.deferWrites,
    prepare: (r: R) => redactDeep(r, currentSecrets(opts)),
  };
}

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

interface Segment {
  seq: number;
  /** Bytes of complete lines; anything past this in the file is a torn line to cut off. */
  bytes: number;
  indexBytes: number;
  /** Not ours to append to (unreadable on open, or changed behind our back): writing moves on to a new segment. */
  frozen?: boolean;
}

const DEFAULT_SEGMENT_BYTES = 4 * 1024 * 1024;
const DEFAULT_UNWRITTEN_BYTES = 8 * 1024 * 1024;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 10_000;

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
  #fd: number | undefined;
  /** The active file may hold bytes past `bytes` (a torn line or a half-failed write). */
  #mustTruncate = false;
  #failing = false;
  #unwrittenBytes = 0;
  #disposed = false;

  private constructor(dir: string, opts: SegmentLogOptions<R>) {
    this.#dir = dir;
    this.#opts = opts;
    this.#segmentBytes = Math.max(1, opts.segmentBytes ?? Math.min(DEFAULT_SEGMENT_BYTES, Math.floor(opts.maxBytes / 4)));
    this.#maxUnwritten = opts.maxUnwrittenBytes ?? DEFAULT_UNWRITTEN_BYTES;
    this.#index = new RecordIndex(opts.tags.length);
    this.#queue = opts.deferWrites ? new WriteQueue<R>((rec) => this.#appendNow(rec)) : undefined;
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
    else this.#appendNow(rec);
  }

  /** Writes every queued record now. */
  flush(): void {
    this.#queue?.flush();
  }

  #appendNow(rec: R): void {
    if (this.#disposed) return;
    let line: string;
    let fields: IndexFields;
    try {
      const stored = this.#opts.prepare ? this.#opts.prepare(rec) : rec;
      line = JSON.stringify(stored) + '\n';
      fields = this.#opts.index(stored);
    } catch (err) {
      this.#report(err);
      return;
    }
    const tags = fields.tags.map((t) => this.#index.code(t));
    try {
      const { seg, off, len } = this.#write(Buffer.from(line));
      this.#index.add(seg, off, len, fields.id, fields.time, tags);
      this.#failing = false;
    } catch (err) {
      const p = this.#index.add(UNWRITTEN, 0, 0, fields.id, fields.time, tags);
      this.#unwritten.set(p, line);
      this.#unwrittenBytes += line.length;
      this.#report(err);
    }
    this.#enforceCaps();
  }

  get(id: string): R | undefined {
    this.flush();
    const p = this.#index.find(id);
    if (p === undefined) return undefined;
    const reader = new SegmentReader(this.#dir, this.#index, this.#unwritten);
    try {
      const line = reader.line(p, false);
      return line === undefined ? undefined : parse<R>(line);
    } finally {
      reader.close();
    }
  }

  /** Records matching `q`, newest first. */
  query(q: LogQuery): R[] {
    this.flush();
    const limit = Number.isFinite(q.limit) ? Math.min(Math.max(0, Math.floor(q.limit!)), MAX_LIMIT) : DEFAULT_LIMIT;
    const index = this.#index;
    const tagFilters: [number, number][] = [];
    for (const [name, value] of Object.entries(q.tags ?? {})) {
      if (value === undefined) continue;
      const t = this.#opts.tags.indexOf(name);
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
    const reader = new SegmentReader(this.#dir, index, this.#unwritten);
    try {
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
          const rec = parse<R>(line);
          if (rec === undefined || !this.#opts.searchText(rec).some((s) => s.toLowerCase().includes(needle))) continue;
          out.push(rec);
        } else {
          const rec = parse<R>(line);
          if (rec !== undefined) out.push(rec);
        }
      }
    } finally {
      reader.close();
    }
    return out;
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
    this.#closeFd();
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
      const rec = parse<R>(buf.toString('utf8', from, nl));
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
      this.#mustTruncate = start < buf.length;
    } else {
      // A sealed segment never grows again, so its torn tail (if any) counts as data.
      seg.bytes = buf.length;
      this.#writeIndex(seg, first);
    }
  }

  // ---- writing -------------------------------------------------------------------------------

  #write(buf: Buffer): { seg: number; off: number; len: number } {
    // A second try only follows a segment found changed behind our back; a third would mean a bug.
    for (let attempt = 0; ; attempt++) {
      let active = this.#segments.at(-1);
      if (!active || active.frozen || (active.bytes > 0 && active.bytes + buf.length > this.#segmentBytes)) {
        if (active && !active.frozen) this.#seal(active);
        active = { seq: (active?.seq ?? 0) + 1, bytes: 0, indexBytes: 0 };
        this.#segments.push(active);
        this.#activeFirst = this.#index.end;
      }
      if (this.#fd === undefined && !this.#openActive(active)) {
        if (attempt >= 2) throw new Error(`Segment files in ${this.#dir} keep changing while the log writes to them.`);
        continue;
      }
      const off = active.bytes;
      try {
        let done = 0;
        while (done < buf.length) done += writeSync(this.#fd!, buf, done, buf.length - done);
      } catch (err) {
        // Part of the line may be on disk: reopen and cut back to the last whole line next time.
        this.#closeFd();
        this.#mustTruncate = true;
        throw err;
      }
      active.bytes += buf.length;
      return { seg: active.seq, off, len: buf.length };
    }
  }

  /** Opens the active segment for appending; false (and the segment frozen) when its file is not as we left it. */
  #openActive(active: Segment): boolean {
    // Tightening an existing folder is done (best effort) on open; here only create a missing one.
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const file = this.#segmentPath(active.seq);
    const fd = openSync(file, 'a', 0o600);
    try {
      const st = fstatSync(fd);
      // Never chmod or truncate what is not our own plain file (a link to /dev/full, say).
      if (!st.isFile()) throw Object.assign(new Error(`${file} is not a regular file.`), { code: 'EFTYPE' });
      if (st.size > active.bytes && this.#mustTruncate) {
        ftruncateSync(fd, active.bytes); // our own torn line
      } else if (st.size !== active.bytes) {
        // Someone else's bytes: leave them be and write elsewhere.
        active.frozen = true;
        active.bytes = st.size;
        closeSync(fd);
        return false;
      }
      if (process.platform !== 'win32') fchmodSync(fd, 0o600);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.#fd = fd;
    this.#mustTruncate = false;
    return true;
  }

  #seal(seg: Segment): void {
    this.#closeFd();
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
    const tag = drops ? this.#opts.tags.indexOf(drops.tag) : -1;
    const groups = new Map<string, CapDrop>();
    const count = (p: number): void => {
      if (tag < 0) return;
      const value = this.#index.string(this.#index.tag(p, tag));
      const time = this.#index.time(p);
      const g = groups.get(value);
      if (!g) groups.set(value, { value, count: 1, from: time, to: time });
      else {
        g.count++;
        g.from = Math.min(g.from, time);
        g.to = Math.max(g.to, time);
      }
    };
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
    if (groups.size > 0) drops!.report([...groups.values()]);
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
    const keep = this.#fairKeep();
    const bySeg = this.#positionsBySegment();
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

  /**
   * The positions `fairBy` keeps: each tag value's `keepRecent` newest, within half the cap. The
   * half is shared out by rank — every value's newest first, then every value's second newest… —
   * so a flood's newest records cannot take the share of another writer's few.
   */
  #fairKeep(): Set<number> {
    const { tag: name, keepRecent } = this.#opts.fairBy!;
    const t = this.#opts.tags.indexOf(name);
    const keep = new Set<number>();
    if (t < 0) return keep;
    const index = this.#index;
    // Each value's newest records, newest first; values in the order of their newest record.
    const byValue = new Map<number, number[]>();
    for (let p = index.end - 1; p >= index.start; p--) {
      const s = index.seg(p);
      if (s >= GONE) continue; // gone, or only in memory (not on disk, nothing to keep)
      const code = index.tag(p, t);
      let list = byValue.get(code);
      if (!list) byValue.set(code, (list = []));
      if (list.length < keepRecent) list.push(p);
    }
    const lists = [...byValue.values()];
    let budget = this.#opts.maxBytes / 2;
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
  #positionsBySegment(): Map<number, number[]> {
    const out = new Map<number, number[]>();
    const index = this.#index;
    for (let p = index.start; p < index.end; p++) {
      const s = index.seg(p);
      if (s >= GONE) continue;
      let list = out.get(s);
      if (!list) out.set(s, (list = []));
      list.push(p);
    }
    return out;
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
    const index = this.#index;
    const gone = (p: number): void => {
      count(p);
      index.markGone(p);
    };
    if (held) for (const p of held) gone(p);
    else {
      // Positions follow segment order: past the first record of a newer segment, none is this one's.
      for (let p = index.start; p < index.end; p++) {
        const s = index.seg(p);
        if (s === seg.seq) gone(p);
        else if (s < GONE && s > seg.seq) break;
      }
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
    const parts: Buffer[] = [];
    const offs: number[] = [];
    let size = 0;
    for (const p of kept) {
      const off = index.off(p);
      const len = index.len(p);
      // The file must still be as the index says: whole lines where it puts them.
      if (off + len > buf.length || buf[off + len - 1] !== 0x0a || (off > 0 && buf[off - 1] !== 0x0a)) return false;
      parts.push(buf.subarray(off, off + len));
      offs.push(size);
      size += len;
    }
    try {
      writeFileAtomicSync(this.#segmentPath(seg.seq), Buffer.concat(parts, size), { mode: 0o600 });
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
    kept.forEach((p, k) => index.setOff(p, offs[k]!));
    seg.bytes = size;
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

  #closeFd(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // already gone
    }
    this.#fd = undefined;
  }

  // ---- helpers -------------------------------------------------------------------------------

  #segmentPath(seq: number): string {
    return path.join(this.#dir, segmentFileName(seq));
  }

  #indexPath(seq: number): string {
    return path.join(this.#dir, indexFileName(seq));
  }
}

function parse<R>(line: string): R | undefined {
  try {
    return JSON.parse(line) as R;
  } catch {
    return undefined;
  }
}
