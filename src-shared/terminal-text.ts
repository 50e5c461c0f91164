// The one way outside data (a client's file, a server's name or error, model output) is quoted
// on a terminal or in an approval view. Control characters are written as visible `\u001b`
// escapes, so a crafted name cannot move the cursor, erase a line (`\r`, ESC [2K), inject a
// fake line (`\n`) or reorder what is shown (bidi overrides, "Trojan Source"). The `\uXXXX`
// form is also a valid JSON string escape, so escaping JSON output keeps it valid JSON. What a
// client says about itself (clientInfo) is cleaned and bounded once, where it comes in
// (clientText), so records and status never hold it at full size. Pure.

// C0 controls, DEL, C1 controls (0x9b is a one-byte CSI on some terminals), the Arabic letter
// mark, zero-width and bidi marks, line/paragraph separators, bidi embeddings, overrides and
// isolates, and the BOM / zero-width no-break space.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

function escapeChar(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

/**
 * `text` with every control character escaped. One-line by default (for names, keys, URLs,
 * commands); `multiline` keeps newlines and tabs (for code, logs, whole outputs).
 */
export function terminalSafe(text: string, opts: { multiline?: boolean } = {}): string {
  const s = typeof text === 'string' ? text : String(text);
  return s.replace(opts.multiline ? UNSAFE_KEEP_LINES : UNSAFE, escapeChar);
}

/** Longest client-declared name kept (clientInfo.name), in characters. */
export const MAX_CLIENT_NAME_CHARS = 100;
/** Longest client-declared version kept (clientInfo.version), in characters. */
export const MAX_CLIENT_VERSION_CHARS = 40;

const SPACES = /[\t\n\v\f\r\u0085\u2028\u2029\s]+/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A string a client declares about itself (its name, version, title) as it is kept and shown:
 * taken at the edge, before anything stores it. Control, bidi and zero-width characters are
 * removed, line breaks and runs of white space become one space, and past `max` characters it
 * is cut with "…" (a 1 MB name costs no more than a short one). Undefined for a non-string or
 * for nothing left.
 */
export function clientText(value: unknown, max = MAX_CLIENT_NAME_CHARS): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Bounded work: at most two UTF-16 units per character kept, plus room for some removed ones.
  const head = value.length > max * 4 ? value.slice(0, max * 4) : value;
  const cleaned = head.replace(SPACES, ' ').replace(UNSAFE, '').replace(LONE_SURROGATE, '').replace(/ {2,}/g, ' ').trim();
  const chars = Array.from(cleaned);
  const cut = head.length < value.length || chars.length > max;
  const out = cut ? chars.slice(0, max - 1).join('').trimEnd() + '…' : cleaned;
  return out === '' || out === '…' ? undefined : out;
}
