// What a code-mode run hands back besides failures: its console lines, kept within the log
// budgets, and its value as the engine gets it. Pure (no QuickJS): testable without WASM.
import { MAX_LOG_BYTES } from '../../../src-shared/config/budgets.ts';
import { LOG_CUT_NOTE, MAX_LOG_ENTRIES, cutToBytes, resultTextOf, utf8Bytes } from '../../../src-shared/codemode/result-text.ts';
import { MAX_KEPT_RESULT_CHARS } from '../../../src-shared/codemode/result-pages.ts';
import type { LogLine } from '../../../src-shared/records.ts';
import type { WorkerValue } from './sandbox-protocol.ts';
import { CONSOLE_LEVELS } from './sandbox-setup.ts';

/**
 * A run's console within MAX_LOG_ENTRIES lines and MAX_LOG_BYTES: the line that goes over is cut
 * to what room is left, followed by LOG_CUT_NOTE, and every later line is dropped.
 */
export class LogCap {
  #bytes = 0;
  #entries = 0;
  #cut = false;

  /** The lines one console call passes on (none once the log is cut). */
  take(level: string, text: string): LogLine[] {
    if (this.#cut) return [];
    const lvl = (CONSOLE_LEVELS as readonly string[]).includes(level) ? (level as LogLine['level']) : 'log';
    const size = utf8Bytes(text) + 1;
    if (this.#entries < MAX_LOG_ENTRIES && this.#bytes + size <= MAX_LOG_BYTES) {
      this.#bytes += size;
      this.#entries++;
      return [{ level: lvl, text }];
    }
    const lines: LogLine[] = [];
    const room = MAX_LOG_BYTES - this.#bytes - 1;
    if (this.#entries < MAX_LOG_ENTRIES && room > 0) lines.push({ level: lvl, text: cutToBytes(text, room) });
    lines.push({ level: 'warn', text: LOG_CUT_NOTE });
    this.#cut = true;
    return lines;
  }
}

/**
 * A result as the engine gets it, made here on the worker's thread from the compact JSON QuickJS
 * wrote: the client's text cut at maxResultChars (plus the slack redaction needs) and the true
 * size; the compact JSON itself only when nothing is cut or the run needs the whole value (a
 * skill's), or as bytes when the profile keeps cut results and it is small enough to keep.
 */
export function resultFor(json: string, maxResultChars: number, keeping: boolean, whole: boolean): WorkerValue {
  const text = resultTextOf(JSON.parse(json), maxResultChars);
  if (whole || text.chars <= maxResultChars) return { ok: true, text, json };
  if (!keeping) return { ok: true, text };
  const keep = json.length > MAX_KEPT_RESULT_CHARS ? { chars: json.length } : { chars: json.length, bytes: new TextEncoder().encode(json) };
  return { ok: true, text, keep };
}
