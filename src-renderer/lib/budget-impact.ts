// What a change of budgets would have done to past runs: the "live consequences" of the sliders.
import type { ResolvedBudgets } from '../../src-shared/config/schema.ts';
import type { RunRecord } from '../../src-shared/records.ts';

export type BudgetKey = keyof ResolvedBudgets;

export const BUDGET_LABELS: Record<BudgetKey, { label: string; unit: string; min: number; max: number; step: number }> = {
  timeoutMs: { label: 'Time limit', unit: 'ms', min: 1000, max: 300_000, step: 1000 },
  maxToolCalls: { label: 'Tool calls per run', unit: 'calls', min: 1, max: 1024, step: 1 },
  memoryMb: { label: 'Memory', unit: 'MB', min: 8, max: 4096, step: 8 },
  maxSourceBytes: { label: 'Code size', unit: 'bytes', min: 1024, max: 1_048_576, step: 1024 },
  maxResultChars: { label: 'Result size', unit: 'characters', min: 1000, max: 200_000, step: 1000 },
};

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

/** Reads a slider's text box: a positive whole number, or a sentence saying what is wrong. */
export function parseBudget(key: BudgetKey, text: string): { value: number } | { error: string } {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(n) || n <= 0) {
    return { error: `${BUDGET_LABELS[key].label} must be a whole number above 0.` };
  }
  if (key === 'memoryMb' && n > 4096) return { error: 'Memory can be at most 4096 MB.' };
  return { value: n };
}
