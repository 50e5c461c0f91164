// What a change of budgets would have done to past runs: the "live consequences" of the sliders.
import type { ResolvedBudgets } from '../../src-shared/config/schema.ts';
import type { RunRecord } from '../../src-shared/records.ts';

export type BudgetKey = keyof ResolvedBudgets;

/**
 * Each budget as a person sets it: in `unit` (seconds, KB), which is `scale` of what config.json
 * holds (milliseconds, bytes); slider bounds in `unit`; `help`, what it limits, in one line.
 */
export const BUDGET_LABELS: Record<BudgetKey, { label: string; unit: string; scale: number; min: number; max: number; step: number; help: string }> = {
  timeoutMs: { label: 'Time limit', unit: 'seconds', scale: 1000, min: 1, max: 300, step: 1, help: 'How long one run of code may take; it is stopped after that.' },
  maxToolCalls: { label: 'Tool calls', unit: 'per run', scale: 1, min: 1, max: 1024, step: 1, help: 'How many tools one run may call.' },
  memoryMb: { label: 'Memory', unit: 'MB', scale: 1, min: 8, max: 4096, step: 8, help: 'How much memory one run may use.' },
  maxSourceBytes: { label: 'Code size', unit: 'KB', scale: 1024, min: 1, max: 1024, step: 1, help: 'How long the code a client sends may be.' },
  maxResultChars: { label: 'Result size', unit: 'characters', scale: 1, min: 1000, max: 200_000, step: 1000, help: 'How much of a result goes back to the client; a longer one is cut.' },
};

/** A stored budget (ms, bytes, …) as its box shows it (seconds, KB, …). */
export function budgetText(key: BudgetKey, stored: number): string {
  const shown = stored / BUDGET_LABELS[key].scale;
  return String(Math.round(shown * 1000) / 1000);
}

export const BUDGET_KEYS = Object.keys(BUDGET_LABELS) as BudgetKey[];

/** Why a past run would have failed under `b`; empty when it would have passed. */
export function failuresUnder(run: RunRecord, b: ResolvedBudgets): BudgetKey[] {
  const out: BudgetKey[] = [];
  if (run.durationMs > b.timeoutMs) out.push('timeoutMs');
  if (run.calls.length > b.maxToolCalls) out.push('maxToolCalls');
  if (new TextEncoder().encode(run.code).length > b.maxSourceBytes) out.push('maxSourceBytes');
  if ((run.resultChars ?? 0) > b.maxResultChars) out.push('maxResultChars');
  return out;
}

export interface Impact {
  /** Runs that passed with the budgets they had, and would fail under the new ones. */
  newlyFailing: number;
  /** Runs that failed on a budget and would pass now. */
  newlyPassing: number;
  total: number;
  byBudget: Record<BudgetKey, number>;
}

export function budgetImpact(runs: readonly RunRecord[], b: ResolvedBudgets): Impact {
  const byBudget = Object.fromEntries(BUDGET_KEYS.map((k) => [k, 0])) as Record<BudgetKey, number>;
  let newlyFailing = 0;
  let newlyPassing = 0;
  for (const run of runs) {
    const fails = failuresUnder(run, b);
    for (const k of fails) byBudget[k]++;
    const failedOnBudget = run.error?.kind === 'timeout' || run.error?.kind === 'budget' || run.error?.kind === 'memory';
    if (!run.error && fails.length > 0) newlyFailing++;
    if (failedOnBudget && fails.length === 0 && run.error?.kind !== 'memory') newlyPassing++;
  }
  return { newlyFailing, newlyPassing, total: runs.length, byBudget };
}

/** Reads a slider's text box (in the shown unit): the stored value, or a sentence saying what is wrong. */
export function parseBudget(key: BudgetKey, text: string): { value: number } | { error: string } {
  const { label, unit, scale } = BUDGET_LABELS[key];
  const n = Number(text.trim());
  // Seconds and KB may have a fraction (1.5 seconds); what is stored is whole (ms, bytes).
  const value = Math.round(n * scale);
  if (text.trim() === '' || !Number.isFinite(n) || (scale === 1 && !Number.isInteger(n)) || value <= 0) {
    return { error: scale === 1 ? `${label} must be a whole number above 0.` : `${label} must be a number of ${unit} above 0.` };
  }
  if (key === 'memoryMb' && n > 4096) return { error: 'Memory can be at most 4096 MB.' };
  return { value };
}
