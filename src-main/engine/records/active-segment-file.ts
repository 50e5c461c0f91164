// The active segment's file of a segment log (segment-log.ts), held open in append mode: opened
// only when it is as the log left it, cut back to its last whole line after a torn write, and
// never chmod-ed or cut when it is not a plain file of ours.
import { closeSync, fchmodSync, fstatSync, ftruncateSync, mkdirSync, writeSync } from 'node:fs';
import { isNotOurs, openHomeAppendSync } from '../../shim/home-file.mjs';

export class ActiveSegmentFile {
  #fd: number | undefined;
  /** The file may hold bytes past the segment's size (a torn line or a half-failed write). */
  mustTruncate = false;

  get isOpen(): boolean {
    return this.#fd !== undefined;
  }

  /**
   * Opens `file` (in `dir`, made if missing) for appending; false, with the segment frozen at the
   * file's size, when it holds bytes we did not write there: those are left alone. Something
   * planted under its name (a pipe, a link, another user's file) freezes it too, unopened: a pipe
   * never holds up the engine, and nothing is chmod-ed or cut that is not our own plain file.
   */
  open(dir: string, file: string, seg: { bytes: number; frozen?: boolean }): boolean {
    // Tightening an existing folder is done (best effort) on open; here only create a missing one.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = openHomeAppendSync(file);
    } catch (err) {
      if (!isNotOurs(err)) throw err;
      seg.frozen = true;
      return false;
    }
    try {
      const st = fstatSync(fd);
      if (st.size > seg.bytes && this.mustTruncate) {
        ftruncateSync(fd, seg.bytes); // our own torn line
      } else if (st.size !== seg.bytes) {
        // Someone else's bytes: leave them be and write elsewhere.
        seg.frozen = true;
        seg.bytes = st.size;
        closeSync(fd);
        return false;
      }
      if (process.platform !== 'win32') fchmodSync(fd, 0o600);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.#fd = fd;
    this.mustTruncate = false;
    return true;
  }

  /** Appends all of `buf`; on failure the file is closed, to be cut back when it is opened again. */
  write(buf: Buffer): void {
    try {
      let done = 0;
      while (done < buf.length) done += writeSync(this.#fd!, buf, done, buf.length - done);
    } catch (err) {
      // Part of the lines may be on disk: reopen and cut back to the last whole line next time.
      this.close();
      this.mustTruncate = true;
      throw err;
    }
  }

  close(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // already gone
    }
    this.#fd = undefined;
  }
}
