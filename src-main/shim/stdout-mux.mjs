// @ts-check
// The client's stdout, written by more than one engine connection at a time while the engine
// hands its home over (the old connection answers the calls in flight, the new one the rest):
// lines never interleave. A source in the middle of a line owns the output until its newline;
// the others' bytes wait, in order, until then.

export class StdoutMux {
  /** @param {{ write(chunk: Buffer | string): unknown }} out */
  constructor(out) {
    /** @private */ this.out = out;
    /** The source in the middle of a line, or null. @private @type {unknown} */
    this.owner = null;
    /** Bytes waiting for the owner's newline, by source. @private @type {Map<unknown, Buffer[]>} */
    this.waiting = new Map();
  }

  /** @param {unknown} source @param {Buffer} chunk */
  write(source, chunk) {
    if (chunk.length === 0) return;
    if (this.owner !== null && this.owner !== source) {
      const q = this.waiting.get(source);
      if (q) q.push(chunk);
      else this.waiting.set(source, [chunk]);
      return;
    }
    this.emit(source, chunk);
    this.drain();
  }

  /** A source ended (its connection closed): it owns the output no longer. @param {unknown} source */
  release(source) {
    if (this.owner === source) this.owner = null;
    this.drain();
  }

  /** @private @param {unknown} source @param {Buffer} chunk */
  emit(source, chunk) {
    this.out.write(chunk);
    this.owner = chunk[chunk.length - 1] === 0x0a ? null : source;
  }

  /** @private */
  drain() {
    for (const [source, q] of this.waiting) {
      if (this.owner !== null && this.owner !== source) return;
      while (q.length > 0 && (this.owner === null || this.owner === source)) this.emit(source, /** @type {Buffer} */ (q.shift()));
      if (q.length === 0) this.waiting.delete(source);
    }
  }
}
