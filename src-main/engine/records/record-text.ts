// The one way a text is cut before it is stored in a record (audit entries, run records): at a
// number of characters, redacted before the cut so that no prefix of a secret survives it, and
// ending with a note that says what was cut and how long the whole was.
import { CUT_SLACK_CHARS } from '../../../src-shared/codemode/result-text.ts';

/**
 * Text kept past a cut before redaction, so that a secret straddling the cut is redacted whole
 * and no prefix of it survives (the sandbox worker keeps as much past the client's cut).
 */
export const REDACT_SLACK = CUT_SLACK_CHARS;

/** Characters a record keeps of a name: client, connector id, profile, server, tool, skill. */
export const RECORD_NAME_CHARS = 256;
/** Characters a record keeps of a time or an id it refers to. */
export const RECORD_SHORT_CHARS = 64;

/**
 * `s` as stored: unchanged when it fits in `max` characters and is the whole text; else its first
 * `max` characters, redacted, then `… [WHAT at MAX of TOTAL characters]`. `total` is the length
 * of the whole text when `s` is only its start; `redactText` redacts one string.
 */
export function capText(s: string, max: number, redactText: (s: string) => string, what: string, total: number = s.length): string {
  if (s.length <= max && total <= s.length) return s;
  let kept = redactText(s.slice(0, max + REDACT_SLACK)).slice(0, max);
  const last = kept.charCodeAt(kept.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
  return `${kept}\n… [${what} at ${max} of ${total} characters]`;
}
