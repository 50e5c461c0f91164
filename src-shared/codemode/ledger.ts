// The call ledger of a failed run: which tool calls started and finished,
// how each ended, and the shape of the last completed result, so that a model can resume the
// work instead of repeating calls that already took effect. Pure.
import type { CallOutcome } from '../records.ts';
import { renderShape, type Shape } from './shapes.ts';

export interface LedgerCall {
  /** As written in code: `github.create_issue`. */
  name: string;
  /** The arguments as JSON text, as the code sent them. */
  argsJson?: string;
  /** Undefined while the call had not finished when the run ended. */
  outcome?: CallOutcome;
  /** Milliseconds; for an unfinished call, how long it had been running. */
  durationMs: number;
}

/** Calls listed one per line at most: the first few and the last ones, the middle counted. */
export const MAX_LEDGER_LINES = 20;
const HEAD_LINES = 5;
/** Each call's arguments are shown cut to this many characters: enough to tell calls apart. */
export const MAX_LEDGER_ARGS_CHARS = 80;
/** The last result's type sketch is cut (deepest levels first) to this many characters. */
export const MAX_LEDGER_SHAPE_CHARS = 300;

const UNFINISHED = 'unfinished: cancelled when the run ended';
const MAYBE = ', it may still have taken effect';

export function formatLedger(calls: readonly LedgerCall[], last?: { name: string; shape: Shape }): string {
  if (calls.length === 0) return '';
  const finished = calls.filter((c) => c.outcome !== undefined);
  const counts = new Map<string, number>();
  for (const c of finished) counts.set(c.outcome!, (counts.get(c.outcome!) ?? 0) + 1);
  const tally = [...counts].map(([o, n]) => `${n} ${o}`).join(', ');
  const unfinished = calls.length - finished.length;
  const lines = [
    `Calls: ${calls.length} started, ${finished.length} finished${tally ? ` (${tally})` : ''}${unfinished ? `, ${unfinished} unfinished` : ''}. ` +
      'A failed run does not undo them: when you retry, skip the calls that succeeded.',
  ];
  const line = (c: LedgerCall, i: number): string =>
    `  ${i + 1}. ${c.name}(${brief(c.argsJson)}) → ${c.outcome === undefined ? `${UNFINISHED} after ${ms(c.durationMs)}${MAYBE}` : `${c.outcome} in ${ms(c.durationMs)}${c.outcome === 'cancelled' || c.outcome === 'timeout' ? MAYBE : ''}`}`;
  if (calls.length <= MAX_LEDGER_LINES) {
    calls.forEach((c, i) => lines.push(line(c, i)));
  } else {
    const tail = MAX_LEDGER_LINES - HEAD_LINES;
    calls.slice(0, HEAD_LINES).forEach((c, i) => lines.push(line(c, i)));
    const middle = calls.slice(HEAD_LINES, calls.length - tail);
    const notOk = middle.filter((c) => c.outcome !== 'ok').length;
    lines.push(`  … ${middle.length} more calls (${notOk === 0 ? 'all ok' : `${middle.length - notOk} ok, ${notOk} not`}) …`);
    calls.slice(calls.length - tail).forEach((c, i) => lines.push(line(c, calls.length - tail + i)));
  }
  if (last) lines.push(`Last completed result (${last.name}): ${renderShape(last.shape, MAX_LEDGER_SHAPE_CHARS)}`);
  return lines.join('\n');
}

function brief(json: string | undefined): string {
  if (json === undefined || json === '{}') return '';
  const flat = json.replace(/\s+/g, ' ');
  return flat.length > MAX_LEDGER_ARGS_CHARS ? `${flat.slice(0, MAX_LEDGER_ARGS_CHARS - 1)}…` : flat;
}

function ms(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n * 10) / 10} ms`;
}
