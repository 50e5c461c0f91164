// @ts-check
// Which of the engine's lines answer a client request, for the shim's set of requests in flight
// (each one left unanswered gets an error when the engine dies). Decided by the line's
// structure, as JSON-RPC defines a response: a top-level "result" or "error" member and no
// top-level "method". Looking for `"result":` anywhere in the line was not enough: a
// server→client request carrying one in its params, with the id of a pending call, took that
// call out of the set, and it got no error when the engine died.
//
// The engine writes every line with "jsonrpc" and "id" first (serializeIdFirst), so the id is
// read from the line's head; the rest is scanned as it streams through, without buffering the
// line or building anything. native/shim/src/json.rs
// (TopLevel) scans the same way in the native shim.

/** How much of an engine line holds its id, in bytes. */
export const ENGINE_HEAD_BYTES = 80;
const ID_AT_HEAD = /^\{"jsonrpc":"2\.0","id":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|null)/;
/** A top-level key longer than this (raw) is none of the three looked for. */
const MAX_KEY_BYTES = 64;

/** 1 for the bytes that matter inside a nested value: quote and brackets. */
const STRUCTURAL = new Uint8Array(256);
for (const c of '"{}[]') STRUCTURAL[c.charCodeAt(0)] = 1;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/** What is known of the line under way. */
function freshLine() {
  return {
    /** The line's first bytes. @type {Buffer[]} */
    head: [],
    headLen: 0,
    /** Nesting: 0 before the top-level object (or after it), 1 inside it. */
    depth: 0,
    /** The top-level object was opened. */
    opened: false,
    /** Something other than one object: never an answer. */
    bad: false,
    inString: false,
    escaped: false,
    /** At depth 1, the next string is a member's key. */
    keyNext: false,
    /** The raw bytes of the top-level key being read, or undefined when not in one. @type {number[] | undefined} */
    key: /** @type {number[] | undefined} */ (undefined),
    hasMethod: false,
    hasAnswer: false,
  };
}

export class EngineAnswers {
  /**
   * @param {{ onAnswer: (id: string) => void, onRequest?: (id: string) => void }} opts
   * `onRequest`: an engine line that is a request (a server asking the client, e.g. sampling), by id.
   */
  constructor(opts) {
    /** @private */ this.onAnswer = opts.onAnswer;
    /** @private */ this.onRequest = opts.onRequest;
    /** @private */ this.l = freshLine();
  }

  /** Forgets the line under way (the engine went away in the middle of it). */
  reset() {
    this.l = freshLine();
  }

  /** @param {Buffer} chunk */
  push(chunk) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      const seg = chunk.subarray(from, nl === -1 ? chunk.length : nl);
      if (seg.length > 0) this.segment(seg);
      if (nl === -1) return;
      this.endLine();
      from = nl + 1;
    }
  }

  /** @private */
  endLine() {
    const l = this.l;
    if (l.opened && !l.bad && l.depth === 0 && l.hasAnswer && !l.hasMethod) {
      const m = ID_AT_HEAD.exec(Buffer.concat(l.head).toString('utf8'));
      if (m) this.onAnswer(/** @type {string} */ (m[1]));
    } else if (this.onRequest && l.opened && !l.bad && l.depth === 0 && l.hasMethod && !l.hasAnswer) {
      const m = ID_AT_HEAD.exec(Buffer.concat(l.head).toString('utf8'));
      if (m) this.onRequest(/** @type {string} */ (m[1]));
    }
    this.reset();
  }

  /** A piece of a line without its newline. @private @param {Buffer} seg */
  segment(seg) {
    const l = this.l;
    if (l.headLen < ENGINE_HEAD_BYTES) {
      const take = seg.subarray(0, ENGINE_HEAD_BYTES - l.headLen);
      l.head.push(Buffer.from(take));
      l.headLen += take.length;
    }
    if (l.bad) return;
    const n = seg.length;
    let i = 0;
    while (i < n) {
      if (l.inString) {
        if (l.escaped) {
          l.escaped = false;
          this.keyByte(seg[i++]);
          continue;
        }
        const from = i;
        const end = stringEnd(seg, i);
        if (l.key) for (let k = from; k < Math.min(end, n) && l.key.length <= MAX_KEY_BYTES; k++) l.key.push(seg[k]);
        if (end >= n) {
          // The string goes on in the next segment; a backslash at the very end escapes its first byte.
          l.escaped = end > n;
          return;
        }
        l.inString = false;
        if (l.key) this.member(l.key);
        l.key = undefined;
        i = end + 1;
        continue;
      }
      if (l.depth > 1) {
        // Inside a nested value only quotes and brackets matter.
        while (i < n && STRUCTURAL[seg[i]] === 0) i++;
        if (i === n) return;
      }
      const c = seg[i++];
      if (c === QUOTE) {
        l.inString = true;
        if (l.depth === 1 && l.keyNext) {
          l.key = [];
          l.keyNext = false;
        }
      } else if (c === 0x7b || c === 0x5b) {
        // { or [: only an object may open the line.
        if (l.depth === 0 && (l.opened || c !== 0x7b)) l.bad = true;
        l.opened = true;
        l.depth++;
        if (l.depth === 1) l.keyNext = true;
      } else if (c === 0x7d || c === 0x5d) {
        l.depth--;
        if (l.depth < 0) l.bad = true;
      } else if (l.depth === 1 && c === 0x2c) {
        l.keyNext = true;
      } else if (l.depth === 0 && c !== 0x20 && c !== 0x09 && c !== 0x0d) {
        l.bad = true;
      }
      if (l.bad) return;
    }
  }

  /** @private @param {number} b */
  keyByte(b) {
    const l = this.l;
    if (l.key && l.key.length <= MAX_KEY_BYTES) l.key.push(b);
  }

  /** A top-level member's key, raw. @private @param {number[]} raw */
  member(raw) {
    const l = this.l;
    if (raw.length > MAX_KEY_BYTES) return;
    let key = Buffer.from(raw).toString('utf8');
    if (key.includes('\\')) {
      try {
        key = JSON.parse(`"${key}"`);
      } catch {
        return;
      }
    }
    if (key === 'method') l.hasMethod = true;
    else if (key === 'result' || key === 'error') l.hasAnswer = true;
  }
}

/**
 * Where the string that goes on at `i` ends: its closing quote's index; n when it goes on past
 * the segment, n + 1 when the segment ends inside an escape. A quote is found with indexOf and
 * told escaped by the backslashes just before it; a string with an escaped quote (a tool's
 * result is often JSON text, a \" every few bytes, where an indexOf per quote costs more) is
 * stepped through byte by byte from there.
 * @param {Buffer} seg @param {number} i
 */
function stringEnd(seg, i) {
  const n = seg.length;
  const q = seg.indexOf(QUOTE, i);
  if (q === -1) return n + (backslashesBefore(seg, n, i) % 2);
  if (backslashesBefore(seg, q, i) % 2 === 0) return q;
  let k = q + 1;
  for (; k < n; k++) {
    const c = seg[k];
    if (c === QUOTE) return k;
    if (c === BACKSLASH) k++;
  }
  // Ran off the end: n, or n + 1 when the last byte was a backslash that escapes the next.
  return k;
}

/** How many backslashes come just before index `at`, counting back no further than `from`. */
function backslashesBefore(/** @type {Buffer} */ seg, /** @type {number} */ at, /** @type {number} */ from) {
  let k = at;
  while (k > from && seg[k - 1] === BACKSLASH) k--;
  return at - k;
}
