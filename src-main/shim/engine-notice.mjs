// @ts-check
// Takes the engine's moving notice (ENGINE_MOVING_METHOD in src-shared/api.ts: the engine hands
// its home over, docs/updates.md) out of the byte stream a shim relays to its client, which must
// never see it. The engine writes it as a line of its own, starting with NOTICE_HEAD; every other
// line passes through as it streams (a line is held only while its first bytes could still be
// the notice's). native/shim/src/notice.rs cuts the same line.

export const NOTICE_HEAD = Buffer.from('{"jsonrpc":"2.0","method":"notifications/switchboard/engineMoving"');
const NEWLINE = 0x0a;
/** A notice longer than this is still cut, but handed over without its params, in bytes. */
const MAX_NOTICE_BYTES = 64 * 1024;

export class NoticeCutter {
  /** @param {{ onNotice: (params: Record<string, unknown>) => void }} opts  `params`: the notice's ({} when unreadable). */
  constructor(opts) {
    /** @private */ this.onNotice = opts.onNotice;
    /** At a line's start, or this many bytes into one that matches NOTICE_HEAD so far. @private */
    this.matched = 0;
    /** Inside a line that is not the notice. @private */
    this.passing = false;
    /** Inside the notice, dropping it up to its newline. @private */
    this.cutting = false;
    /** The notice's bytes after its head. @private @type {Buffer[]} */
    this.rest = [];
    /** @private */
    this.restBytes = 0;
  }

  /** The bytes of `chunk` to relay (the notice left out), in order. @param {Buffer} chunk @returns {Buffer[]} */
  push(chunk) {
    /** @type {Buffer[]} */
    const out = [];
    const n = chunk.length;
    let i = 0;
    /** Start of the bytes to pass on from this chunk. */
    let from = 0;
    while (i < n) {
      if (this.cutting) {
        const nl = chunk.indexOf(NEWLINE, i);
        this.keep(chunk.subarray(i, nl === -1 ? n : nl));
        if (nl === -1) return out;
        this.cutting = false;
        i = from = nl + 1;
        this.onNotice(this.params());
        continue;
      }
      if (this.passing) {
        const nl = chunk.indexOf(NEWLINE, i);
        if (nl === -1) {
          i = n;
          break;
        }
        this.passing = false;
        i = nl + 1;
        continue;
      }
      // At a line's start (or inside a match that began in an earlier chunk).
      const take = Math.min(n - i, NOTICE_HEAD.length - this.matched);
      const same = chunk.compare(NOTICE_HEAD, this.matched, this.matched + take, i, i + take) === 0;
      if (same) {
        if (i > from) out.push(chunk.subarray(from, i));
        this.matched += take;
        i += take;
        from = i;
        if (this.matched === NOTICE_HEAD.length) {
          this.matched = 0;
          this.cutting = true;
        }
        continue;
      }
      // Not the notice: what was held of an earlier chunk goes first.
      if (this.matched > 0) {
        if (i > from) out.push(chunk.subarray(from, i));
        out.push(NOTICE_HEAD.subarray(0, this.matched));
        from = i;
        this.matched = 0;
      }
      this.passing = true;
    }
    if (!this.cutting && this.matched === 0 && from < n) out.push(chunk.subarray(from, n));
    return out;
  }

  /** @private @param {Buffer} bytes */
  keep(bytes) {
    this.restBytes += bytes.length;
    if (this.restBytes <= MAX_NOTICE_BYTES) this.rest.push(Buffer.from(bytes));
  }

  /** @private @returns {Record<string, unknown>} */
  params() {
    const text = NOTICE_HEAD.toString('latin1') + Buffer.concat(this.rest).toString('utf8');
    const fits = this.restBytes <= MAX_NOTICE_BYTES;
    this.rest = [];
    this.restBytes = 0;
    try {
      const p = fits ? JSON.parse(text).params : undefined;
      return p && typeof p === 'object' ? p : {};
    } catch {
      return {};
    }
  }
}
