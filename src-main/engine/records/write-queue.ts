// Deferred writes of a record store: appended records wait FLUSH_DELAY_MS (25 ms) and are then
// written in one batch (one write of their lines, segment-log.ts), so the disk write (and redaction) happens after the caller's answer has
// gone out rather than on every call's round trip. The owner flushes before every read and on
// dispose, so nothing queued is ever missing from a listing.

/** How long queued records wait before they are written, in ms. */
export const FLUSH_DELAY_MS = 25;

export class WriteQueue<R> {
  readonly #write: (batch: readonly R[]) => void;
  readonly #delayMs: number;
  #queued: R[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `write` is called with the queued records, in order, when the queue flushes. */
  constructor(write: (batch: readonly R[]) => void, delayMs = FLUSH_DELAY_MS) {
    this.#write = write;
    this.#delayMs = delayMs;
  }

  push(rec: R): void {
    this.#queued.push(rec);
    // A short wait batches the writes of a burst of calls, and keeps them out of the gaps
    // between the sequential calls of a code run.
    this.#timer ??= setTimeout(() => this.flush(), this.#delayMs).unref();
  }

  /** Writes every queued record now. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queued;
    if (batch.length === 0) return;
    this.#queued = [];
    this.#write(batch);
  }

  get size(): number {
    return this.#queued.length;
  }
}
