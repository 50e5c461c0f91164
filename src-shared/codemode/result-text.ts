// The text `execute` hands back for a run (docs/code-mode.md, "Results", docs/protocol.md). Pure.
import { MAX_LOG_BYTES } from '../config/budgets.ts';
import type { LogLine, RunErrorKind } from '../records.ts';
import { describeKept } from './result-pages.ts';
import { groupDigits } from '../digits.ts';

/** Why a run failed: its kind, message, place in the code as sent (from 1) and a hint. */
export interface RunFailureInfo {
  kind: RunErrorKind;
  message: string;
  line?: number;
  column?: number;
  hint?: string;
}

/**
 * Characters of a result's text kept past its cut: the run record redacts this much more than it
 * keeps, so that a secret straddling the cut is redacted whole and no prefix of it survives.
 */
export const CUT_SLACK_CHARS = 1024;

/**
 * A run's result as the sandbox worker, which holds the value, made it: the start of its pretty
 * JSON and the true size, so that the engine never formats, parses or redacts a huge value.
 */
export interface ResultText {
  /** The pretty JSON (as `Result:` shows it), up to maxResultChars + CUT_SLACK_CHARS characters. */
  head: string;
  /** Characters of the whole pretty JSON. */
  chars: number;
  /** What the value is, for a kept result's note ("an array of 1,000 items"). */
  kind: string;
  /** Whether the value is an array or object (paged by items) rather than a string or scalar. */
  container: boolean;
}

/** How a run ended, as the sandbox reports it and the text below is made from. */
export type RunOutcome = (
  | {
      ok: true;
      returnedUndefined: boolean;
      /** The value; absent when the worker sent only its text (a result over maxResultChars). */
      value?: unknown;
      /** The result's text as the worker made it; without it, the text is made from `value`. */
      text?: ResultText;
    }
  | ({ ok: false } & RunFailureInfo)
) & {
  logs: LogLine[];
  calls: number;
};

/**
 * Captured console lines per run at most. The byte budget alone let a million empty lines make
 * 65,537 entries (a 1.7 MB record, each entry costing far more than its one byte).
 */
export const MAX_LOG_ENTRIES = 1000;

/** The last log line of a run whose console output went over MAX_LOG_BYTES or MAX_LOG_ENTRIES. */
export const LOG_CUT_NOTE = `further console output was dropped: logs are capped at ${MAX_LOG_BYTES / 1024} KB and ${groupDigits(MAX_LOG_ENTRIES)} lines; log less, or return the data instead`;

export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Cuts text to at most `budget` UTF-8 bytes without splitting a character. */
export function cutToBytes(s: string, budget: number): string {
  if (utf8Bytes(s) <= budget) return s;
  let end = Math.min(s.length, budget);
  while (end > 0 && utf8Bytes(s.slice(0, end)) > budget) end = Math.floor(end * 0.9);
  return dropLoneHighSurrogate(s.slice(0, end));
}

function dropLoneHighSurrogate(s: string): string {
  const last = s.charCodeAt(s.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? s.slice(0, -1) : s;
}

/**
 * Keeps console output within `maxBytes` (each line counts its text plus a newline) and
 * `maxEntries` lines. A run cut here ends with one LOG_CUT_NOTE line, which is not counted.
 */
export function capLogs(lines: readonly LogLine[], maxBytes: number = MAX_LOG_BYTES, maxEntries: number = MAX_LOG_ENTRIES): LogLine[] {
  const kept: LogLine[] = [];
  let used = 0;
  let cut = false;
  for (const line of lines) {
    if (line.text === LOG_CUT_NOTE) {
      cut = true;
      continue;
    }
    if (cut) continue;
    if (kept.length >= maxEntries) {
      cut = true;
      continue;
    }
    const size = utf8Bytes(line.text) + 1;
    if (used + size <= maxBytes) {
      kept.push(line);
      used += size;
      continue;
    }
    const room = maxBytes - used - 1;
    if (room > 0) kept.push({ level: line.level, text: cutToBytes(line.text, room) });
    cut = true;
  }
  if (cut) kept.push({ level: 'warn', text: LOG_CUT_NOTE });
  return kept;
}

export function formatLogs(lines: readonly LogLine[]): string {
  return capLogs(lines)
    .map((l) => (l.level === 'log' ? l.text : `[${l.level}] ${l.text}`))
    .join('\n');
}

export const UNDEFINED_RESULT = 'undefined (the function returned nothing)';

/**
 * The `Result:` body: pretty JSON, cut to maxResultChars with a note asking for less.
 * `whenCut` may add a sentence to that note (the result handle it was kept under).
 */
export function formatResultValue(
  value: unknown,
  returnedUndefined: boolean,
  maxResultChars: number,
  whenCut?: (chars: number) => string | undefined,
  text: ResultText = resultTextOf(value, maxResultChars),
): string {
  if (returnedUndefined) return UNDEFINED_RESULT;
  if (text.chars <= maxResultChars) return text.head;
  const more = whenCut?.(text.chars);
  return (
    dropLoneHighSurrogate(text.head.slice(0, maxResultChars)) +
    `\n… [result cut at ${maxResultChars} of ${text.chars} characters; return a smaller result, such as fewer items or only the fields you need${more ? `. ${more}` : ''}]`
  );
}

/**
 * The ResultText of `value` for a client cut at `maxResultChars` (the sandbox worker makes it,
 * off the engine's thread). Throws as JSON.stringify does.
 */
export function resultTextOf(value: unknown, maxResultChars: number): ResultText {
  const json = JSON.stringify(value, null, 2) ?? 'null';
  const keep = maxResultChars + CUT_SLACK_CHARS;
  return {
    head: json.length <= keep ? json : dropLoneHighSurrogate(json.slice(0, keep)),
    chars: json.length,
    kind: describeKept(value),
    container: typeof value === 'object' && value !== null,
  };
}

export interface RunText {
  text: string;
  isError: boolean;
}

/** What the engine adds to a run's text: a failed run's call ledger, the handle of a cut result. */
export interface RunTextExtras {
  /** Goes after the failure's message and hint, before its logs (ledger.ts). */
  ledger?: string;
  whenCut?: (chars: number) => string | undefined;
}

export function formatRunText(outcome: RunOutcome, maxResultChars: number, extras: RunTextExtras = {}): RunText {
  const logs = outcome.logs.length > 0 ? `Logs:\n${formatLogs(outcome.logs)}` : '';
  if (outcome.ok) {
    const text = outcome.text ?? (outcome.returnedUndefined ? undefined : resultTextOf(outcome.value, maxResultChars));
    const result = `Result:\n${formatResultValue(outcome.value, outcome.returnedUndefined, maxResultChars, extras.whenCut, text)}`;
    return { text: logs ? `${logs}\n\n${result}` : result, isError: false };
  }
  let head = `${outcome.kind}: ${outcome.message}`;
  if (outcome.line !== undefined) {
    head += outcome.column !== undefined ? ` (line ${outcome.line}, column ${outcome.column})` : ` (line ${outcome.line})`;
  }
  if (outcome.hint) head += `\nHint: ${outcome.hint}`;
  if (extras.ledger) head += `\n\n${extras.ledger}`;
  return { text: logs ? `${head}\n\n${logs}` : head, isError: true };
}
