// A server's stderr (and our notes about its lifecycle) in a size-capped file with one rotation,
// plus the last lines in memory for `lastError` and the UI. Memory stays bounded however fast a
// server writes: lines are batched and written in one write once 64 KB are pending or 200 ms
// after the first of them.
import { closeSync, fstatSync, mkdirSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isBenignLogLine } from '../../../src-shared/log-lines.ts';
import { openHomeAppendSync } from '../../shim/home-file.mjs';

export interface ServerLogOptions {
  /** Size at which the file is rotated to `<file>.1`. Defaults to 1 MB. */
  maxBytes?: number;
  /** Lines kept in memory for tail(). Defaults to 200. */
  tailLines?: number;
}

/** Longest line kept; a server that prints a megabyte without a newline gets it cut. */
const MAX_LINE_CHARS = 4000;
/** Pending output flushed once it reaches this size (bytes) or after FLUSH_MS. */
const FLUSH_BYTES = 64 * 1024;
const FLUSH_MS = 200;

export class ServerLog {
  readonly file: string;
  readonly #maxBytes: number;
  readonly #tailLines: number;
  #fd: number | null = null;
  #size = 0;
  #pending: string[] = [];
  #pendingBytes = 0;
  #timer: NodeJS.Timeout | undefined;
  #tail: string[] = [];
  #partial = '';
  #disposed = false;

  constructor(file: string, opts: ServerLogOptions = {}) {
    this.file = file;
    this.#maxBytes = opts.maxBytes ?? 1024 * 1024;
    this.#tailLines = opts.tailLines ?? 200;
  }

  /**
   * Raw stderr text; split into lines here so chunk boundaries do not matter. Not the shared
   * LineSplitter (shim/line-splitter.mjs), on purpose: that one drops an oversized line keeping
   * 512 bytes of each end, while a log line is redacted whole before it is cut (a secret across
   * the cut must not leave a prefix), and the unfinished line shows in tail() for lastError.
   */
  write(chunk: string): void {
    const parts = (this.#partial + chunk).split('\n');
    this.#partial = parts.pop() ?? '';
    if (this.#partial.length > MAX_LINE_CHARS) {
      parts.push(this.#partial);
      this.#partial = '';
    }
    for (const line of parts) this.line(line.replace(/\r$/, ''));
  }

  /** One whole line. */
  line(text: string): void {
    if (this.#disposed) return;
    const line = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… (cut)` : text;
    this.#tail.push(line);
    if (this.#tail.length > this.#tailLines * 2) this.#tail = this.#tail.slice(-this.#tailLines);
    this.#pending.push(line);
    this.#pendingBytes += line.length + 1;
    if (this.#pendingBytes >= FLUSH_BYTES) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  /** A note from the engine itself (start, exit, restart), marked so it stands out from the server's own output. */
  note(text: string): void {
    this.flushPartial();
    this.line(`[switchboard ${new Date().toISOString()}] ${text}`);
  }

  tail(lines: number): string[] {
    const all = this.#partial ? [...this.#tail, this.#partial] : this.#tail;
    return lines <= 0 ? [] : all.slice(-lines);
  }

  /** The last non-empty line the server itself wrote (not our notes, nor a known normal line that reads like trouble). */
  lastServerLine(): string | undefined {
    const all = this.#partial ? [...this.#tail, this.#partial] : this.#tail;
    for (let i = all.length - 1; i >= 0; i--) {
      const l = all[i]!.trim();
      if (l && !l.startsWith('[switchboard ') && !isBenignLogLine(l)) return l;
    }
    return undefined;
  }

  flushPartial(): void {
    if (this.#partial) {
      const p = this.#partial;
      this.#partial = '';
      this.line(p);
    }
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const data = Buffer.from(this.#pending.join('\n') + '\n');
    this.#pending = [];
    this.#pendingBytes = 0;
    try {
      this.#open();
      if (this.#size + data.length > this.#maxBytes && this.#size > 0) this.#rotate();
      // A single burst larger than the cap keeps only its end: the newest lines matter most.
      const out = data.length > this.#maxBytes ? data.subarray(data.length - this.#maxBytes) : data;
      writeSync(this.#fd!, out);
      this.#size += out.length;
    } catch {
      // A full or read-only disk must not take the server down with it; the tail stays in memory.
    }
  }

  #open(): void {
    if (this.#fd !== null) return;
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // Never waits on a pipe planted under the log's name (that would freeze the engine): the
    // open fails, and the tail stays in memory.
    this.#fd = openHomeAppendSync(this.file);
    this.#size = fstatSync(this.#fd).size;
  }

  #rotate(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    renameSync(this.file, `${this.file}.1`);
    this.#open();
  }

  dispose(): void {
    if (this.#disposed) return;
    this.flushPartial();
    this.flush();
    this.#disposed = true;
    if (this.#fd !== null) {
      try {
        closeSync(this.#fd);
      } catch {
        // already closed
      }
      this.#fd = null;
    }
  }
}
