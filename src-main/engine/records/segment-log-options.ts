// What a segment log (segment-log.ts) is opened with, and what the audit log and the run store,
// which are segment logs, take when opened.
import { currentSecrets, redactDeep } from './redact.ts';

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
   * out by rank, segment-eviction.ts); past that the cap removes the oldest records whatever their tag.
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
