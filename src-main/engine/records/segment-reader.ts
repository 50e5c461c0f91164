// Reads the record lines of one query from a segment log's folder: by offset from files kept
// open until close(), or from whole segments read once when a text search visits many records.
import { closeSync, readSync } from 'node:fs';
import path from 'node:path';
import { GONE, UNWRITTEN, type RecordIndex } from './record-index.ts';
import { SEGMENT_READ, segmentFileName } from './segment-files.ts';
import { openHomeReadSync, readHomeFileSync } from '../../shim/home-file.mjs';

/** Reads record lines for one query, keeping files open (or a whole segment, when scanning) until `close`. */
export class SegmentReader {
  readonly #dir: string;
  readonly #index: RecordIndex;
  readonly #unwritten: Map<number, string>;
  readonly #fds = new Map<number, number>();
  #scanSeq = -1;
  #scanBuf: Buffer | undefined;

  constructor(dir: string, index: RecordIndex, unwritten: Map<number, string>) {
    this.#dir = dir;
    this.#index = index;
    this.#unwritten = unwritten;
  }

  line(p: number, scanning: boolean): string | undefined {
    const e = { seg: this.#index.seg(p), off: this.#index.off(p), len: this.#index.len(p) };
    if (e.seg === UNWRITTEN) return this.#unwritten.get(p)?.slice(0, -1);
    if (e.seg === GONE) return undefined;
    try {
      if (scanning) {
        // A text search reads many neighbours: one read per segment beats one per record.
        if (this.#scanSeq !== e.seg) {
          this.#scanBuf = readHomeFileSync(path.join(this.#dir, segmentFileName(e.seg)), SEGMENT_READ);
          this.#scanSeq = e.seg;
        }
        return this.#scanBuf!.toString('utf8', e.off, e.off + e.len - 1);
      }
      let fd = this.#fds.get(e.seg);
      if (fd === undefined) {
        fd = openHomeReadSync(path.join(this.#dir, segmentFileName(e.seg)), SEGMENT_READ);
        this.#fds.set(e.seg, fd);
      }
      const buf = Buffer.allocUnsafe(e.len);
      const n = readSync(fd, buf, 0, e.len, e.off);
      return buf.toString('utf8', 0, Math.max(0, n - 1));
    } catch {
      // A segment deleted behind our back: the record is gone, the rest still lists.
      return undefined;
    }
  }

  close(): void {
    for (const fd of this.#fds.values()) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
    this.#fds.clear();
    this.#scanBuf = undefined;
  }
}
