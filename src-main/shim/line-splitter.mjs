// @ts-check
// The one splitter for every newline-framed stream (engine socket, CLI control connection,
// child stdio, the shim's relay). It works on bytes and decodes nothing: a line is handed over
// as one Buffer only when its newline has arrived, so a multibyte character split across two
// chunks is never decoded in halves. A line longer than the cap is not buffered: its bytes are
// dropped as they come, keeping only the first and last bytes (where a JSON-RPC id sits), and
// the caller is told once its newline arrives, so the stream carries on with the next line.
//
// Plain JavaScript with no dependencies: the shim imports it without a TypeScript loader, and
// the engine and the CLI import the same file.

/** Bytes kept from each end of an oversized line, for finding its id. */
export const OVERSIZED_KEEP_BYTES = 512;

/**
 * @typedef {object} OversizedLine
 * @property {number} bytes  Length of the dropped line, without its newline.
 * @property {Buffer} head   Its first bytes (up to OVERSIZED_KEEP_BYTES).
 * @property {Buffer} tail   Its last bytes (up to OVERSIZED_KEEP_BYTES).
 */

/**
 * @typedef {object} LineSplitterOptions
 * @property {number} maxLineBytes  Longest line handed over, in bytes (without its newline).
 * @property {(line: Buffer) => void} onLine  Each complete line, without its newline.
 * @property {(info: OversizedLine) => void} [onOversized]  A line over the cap, once its end arrived.
 */

export class LineSplitter {
  /** @param {LineSplitterOptions} opts */
  constructor(opts) {
    if (!(opts.maxLineBytes > 0)) throw new Error('LineSplitter: maxLineBytes must be positive');
    /** @readonly */ this.maxLineBytes = opts.maxLineBytes;
    /** @private */ this.onLine = opts.onLine;
    /** @private */ this.onOversized = opts.onOversized;
    /** Pieces of the current line, not copied until it is complete. @private @type {Buffer[]} */
    this.chunks = [];
    /** Bytes of the current line so far (also while dropping one). @private */
    this.bytes = 0;
    /** True while the current line is over the cap and being dropped. @private */
    this.dropping = false;
    /** @private @type {Buffer} */
    this.head = Buffer.alloc(0);
    /** @private @type {Buffer} */
    this.tail = Buffer.alloc(0);
  }

  /** Bytes of an unfinished line held (0 while one is being dropped). */
  get pendingBytes() {
    return this.dropping ? 0 : this.bytes;
  }

  /** Feeds the next chunk of the stream. @param {Buffer | Uint8Array} chunk */
  push(chunk) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(10, start);
      const piece = buf.subarray(start, nl === -1 ? buf.length : nl);
      this.add(piece);
      if (nl === -1) break;
      this.end();
      start = nl + 1;
    }
  }

  /**
   * Hands over the bytes of an unfinished line and forgets them (the shim's relay goes from lines
   * to raw bytes mid-stream); empty while a line is being dropped.
   */
  takePending() {
    const held = this.dropping ? Buffer.alloc(0) : Buffer.concat(this.chunks, this.bytes);
    if (!this.dropping) this.reset();
    return held;
  }

  /** Forgets an unfinished line (the stream was cut, e.g. a reconnect). */
  reset() {
    this.chunks = [];
    this.bytes = 0;
    this.dropping = false;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
  }

  /** @private @param {Buffer} piece */
  add(piece) {
    if (piece.length === 0) return;
    if (!this.dropping && this.bytes + piece.length > this.maxLineBytes) {
      // Over the cap: keep the ends, let go of the rest.
      const held = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
      this.head = Buffer.from(Buffer.concat([/** @type {Buffer} */ (held ?? Buffer.alloc(0)), piece.subarray(0, OVERSIZED_KEEP_BYTES)]).subarray(0, OVERSIZED_KEEP_BYTES));
      this.tail = Buffer.alloc(0);
      this.chunks = [];
      this.dropping = true;
      this.keepTail(/** @type {Buffer} */ (held ?? Buffer.alloc(0)));
    }
    this.bytes += piece.length;
    if (this.dropping) this.keepTail(piece);
    else this.chunks.push(piece);
  }

  /** @private @param {Buffer} piece */
  keepTail(piece) {
    if (piece.length >= OVERSIZED_KEEP_BYTES) this.tail = Buffer.from(piece.subarray(piece.length - OVERSIZED_KEEP_BYTES));
    else this.tail = Buffer.concat([this.tail, piece]).subarray(-OVERSIZED_KEEP_BYTES);
  }

  /** @private */
  end() {
    if (this.dropping) {
      const info = { bytes: this.bytes, head: this.head, tail: this.tail };
      this.reset();
      this.onOversized?.(info);
      return;
    }
    const line = this.chunks.length === 1 ? /** @type {Buffer} */ (this.chunks[0]) : Buffer.concat(this.chunks, this.bytes);
    this.chunks = [];
    this.bytes = 0;
    this.onLine(line);
  }
}
