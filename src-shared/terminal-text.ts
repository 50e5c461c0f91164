// The one way outside data (a client's file, a server's name or error, model output) is quoted
// on a terminal or in an approval view. Control characters are written as visible `\u001b`
// escapes, so a crafted name cannot move the cursor, erase a line (`\r`, ESC [2K), inject a
// fake line (`\n`) or reorder what is shown (bidi overrides, "Trojan Source"). The `\uXXXX`
// form is also a valid JSON string escape, so escaping JSON output keeps it valid JSON. Pure.

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
