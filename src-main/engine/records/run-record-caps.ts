// Caps on one run record, so that code cannot flood the run history: a run that returns 10 M
// characters (the client got 24,000) must not take 10 MB of the 200 MB history and evict every
// earlier run. The record keeps what the client was shown, and the true size of what was cut.
import { MAX_LOG_BYTES } from '../../../src-shared/config/budgets.ts';
import { MAX_LOG_ENTRIES, capLogs } from '../../../src-shared/codemode/result-text.ts';
import type { LogLine, RunRecord } from '../../../src-shared/records.ts';
import { capText, RECORD_NAME_CHARS, RECORD_SHORT_CHARS, REDACT_SLACK } from './record-text.ts';

/** What one run record keeps at most, field by field. */
export const RUN_RECORD_CAPS = {
  /** Characters of code (the default `maxSourceBytes` budget is 65,536 bytes). */
  codeChars: 65_536,
  /** Console lines (the sandbox's own cap, plus its note that output was dropped), and their bytes (the code-mode docs' 64 KB of logs). */
  logLines: MAX_LOG_ENTRIES + 1,
  logBytes: MAX_LOG_BYTES,
  /** Characters of the result's JSON (the client's default cut is 24,000). */
  resultChars: 32_000,
  /** Tool calls listed (the default `maxToolCalls` budget is 64). */
  calls: 256,
  /** Characters of the error message. */
  errorChars: 4_000,
} as const;

/** Bytes of one stored run record (its JSON line) at most: the 200 MB history holds ≥ 800 runs. */
export const MAX_RUN_RECORD_BYTES = 256 * 1024;

type Caps = { -readonly [K in keyof typeof RUN_RECORD_CAPS]: number };

/**
 * The record to store for `rec`: every field within RUN_RECORD_CAPS and the whole within
 * MAX_RUN_RECORD_BYTES, then `finish` (redaction of the whole record) applied. `redactText`
 * redacts one string; it runs on text before it is cut.
 */
export function capRunRecord(rec: RunRecord, redactText: (s: string) => string, finish: (r: RunRecord) => RunRecord): RunRecord {
  let caps: Caps = { ...RUN_RECORD_CAPS };
  const maxResult = Math.max(0, Math.min(rec.budgets?.maxResultChars ?? RUN_RECORD_CAPS.resultChars, RUN_RECORD_CAPS.resultChars));
  caps.resultChars = maxResult;
  const json = resultJson(rec);
  for (let round = 0; ; round++) {
    const stored = finish(capFields(rec, json, caps, redactText));
    // Five halvings take every cap below a sixteenth; the last round drops the bulky fields.
    if (round >= 5 || Buffer.byteLength(JSON.stringify(stored)) <= MAX_RUN_RECORD_BYTES) return stored;
    caps = Object.fromEntries(Object.entries(caps).map(([k, v]) => [k, round === 4 ? 0 : Math.floor(v / 2)])) as Caps;
  }
}

/** The result as pretty JSON (as the client sees it), or why it has none. */
function resultJson(rec: RunRecord): { text: string } | { error: string } | undefined {
  if (!('result' in rec) || rec.result === undefined) return undefined;
  try {
    return { text: JSON.stringify(rec.result, null, 2) ?? 'null' };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function capFields(rec: RunRecord, json: ReturnType<typeof resultJson>, caps: Caps, redactText: (s: string) => string): RunRecord {
  const out: RunRecord = { ...rec };
  // Names and times, cut like every other text (the id is the store's own, never cut).
  const name = (s: string) => capText(s, RECORD_NAME_CHARS, redactText, 'name cut for the run history');
  const short = (s: string) => capText(s, RECORD_SHORT_CHARS, redactText, 'cut for the run history');
  if (typeof rec.client === 'string') out.client = name(rec.client);
  if (typeof rec.clientId === 'string') out.clientId = name(rec.clientId);
  if (typeof rec.profile === 'string') out.profile = name(rec.profile);
  if (typeof rec.time === 'string') out.time = short(rec.time);
  if (rec.skill) out.skill = { name: name(String(rec.skill.name)), parentRunId: short(String(rec.skill.parentRunId)) };
  if (typeof rec.code === 'string' && rec.code.length > caps.codeChars) {
    out.code = capText(rec.code, caps.codeChars, redactText, 'code cut for the run history');
  }
  out.logs = capLogLines(rec.logs ?? [], caps, redactText);
  if (Array.isArray(rec.calls)) {
    out.calls = rec.calls.slice(0, caps.calls).map((c) => ({ ...c, server: name(String(c.server)), tool: name(String(c.tool)) }));
    if (rec.calls.length > caps.calls) out.callCount = rec.calls.length;
  }
  if (rec.error && typeof rec.error.message === 'string' && rec.error.message.length > caps.errorChars) {
    out.error = { ...rec.error, message: capText(rec.error.message, caps.errorChars, redactText, 'message cut for the run history') };
  }
  if (json && 'error' in json) {
    delete out.result;
    out.resultText = `[the result could not be stored: ${json.error}]`;
  } else if (json && json.text.length > caps.resultChars) {
    // What the client was shown: the JSON text cut at its limit, not a value to rebuild.
    delete out.result;
    out.resultText = capText(json.text, caps.resultChars, redactText, 'result cut');
    out.resultFullChars = json.text.length;
  } else if (!json && typeof rec.resultText === 'string' && typeof rec.resultFullChars === 'number') {
    // The start of a big result's text as the sandbox worker made it (with REDACT_SLACK more
    // than the client's cut), and the true size: the value itself never reached the engine.
    out.resultText = capText(rec.resultText, caps.resultChars, redactText, 'result cut', rec.resultFullChars);
  }
  return out;
}

function capLogLines(logs: readonly LogLine[], caps: Caps, redactText: (s: string) => string): LogLine[] {
  if (!Array.isArray(logs)) return [];
  const kept = logs.slice(0, caps.logLines).map((l) => ({ level: l.level, text: redactText(String(l.text ?? '').slice(0, caps.logBytes + REDACT_SLACK)) }));
  const capped = caps.logBytes > 0 ? capLogs(kept, caps.logBytes) : [];
  if (logs.length > caps.logLines) {
    capped.push({ level: 'warn', text: `… ${logs.length - caps.logLines} more console lines were not kept in the run history (it keeps ${caps.logLines})` });
  }
  return capped;
}
