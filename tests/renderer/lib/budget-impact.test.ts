// The budget sliders' "live consequences": which past runs a change of budgets would fail or let pass.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS, type ResolvedBudgets } from '../../../src-shared/config/schema.ts';
import type { RunRecord } from '../../../src-shared/records.ts';
import { budgetImpact, budgetText, failuresUnder, parseBudget } from '../../../src-renderer/lib/budget-impact.ts';

const budgets = (over: Partial<ResolvedBudgets> = {}): ResolvedBudgets => ({ ...DEFAULT_BUDGETS, ...over });

function run(over: Partial<RunRecord> = {}): RunRecord {
  return {
    id: 'r1', time: '2026-12-03T00:00:00.000Z', profile: 'p', client: 'c', code: 'async () => 1',
    logs: [], calls: [], durationMs: 10, budgets: budgets(), resultChars: 10, ...over,
  };
}

const call = { server: 's', tool: 't', start: 0, duration: 1, outcome: 'ok' as const };

describe('failuresUnder', () => {
  it('names every budget a run would exceed', () => {
    const r = run({ durationMs: 5000, calls: [call, call, call], code: 'x'.repeat(3000), resultChars: 2000 });
    expect(failuresUnder(r, budgets({ timeoutMs: 1000, maxToolCalls: 2, maxSourceBytes: 2048, maxResultChars: 1000 }))).toEqual([
      'timeoutMs', 'maxToolCalls', 'maxSourceBytes', 'maxResultChars',
    ]);
    expect(failuresUnder(r, budgets())).toEqual([]);
  });

  it('counts source size in UTF-8 bytes, not characters', () => {
    const r = run({ code: '€'.repeat(400) }); // 1,200 bytes
    expect(failuresUnder(r, budgets({ maxSourceBytes: 1024 }))).toEqual(['maxSourceBytes']);
  });
});

describe('budgetImpact', () => {
  it('counts runs that passed and would fail, and budget failures that would pass', () => {
    const runs = [
      run({ id: 'ok-slow', durationMs: 20_000 }),
      run({ id: 'ok-fast', durationMs: 100 }),
      run({ id: 'timed-out', durationMs: 30_001, error: { kind: 'timeout', message: 'timeout' } }),
      run({ id: 'oom', error: { kind: 'memory', message: 'memory' } }),
      run({ id: 'bug', error: { kind: 'runtime', message: 'x' } }),
    ];
    const tighter = budgetImpact(runs, budgets({ timeoutMs: 10_000 }));
    expect(tighter).toMatchObject({ newlyFailing: 1, newlyPassing: 0, total: 5 });
    expect(tighter.byBudget.timeoutMs).toBe(2);
    const looser = budgetImpact(runs, budgets({ timeoutMs: 60_000 }));
    // A memory failure is not known to pass under a larger timeout: only the timed-out run counts.
    expect(looser).toMatchObject({ newlyFailing: 0, newlyPassing: 1 });
  });
});

describe('parseBudget', () => {
  it('reads the box in the unit it shows (seconds, KB) and gives what config.json holds (ms, bytes)', () => {
    expect(parseBudget('timeoutMs', ' 30 ')).toEqual({ value: 30_000 });
    expect(parseBudget('timeoutMs', '1.5')).toEqual({ value: 1500 });
    expect(parseBudget('maxSourceBytes', '64')).toEqual({ value: 65_536 });
    expect(parseBudget('maxToolCalls', '12')).toEqual({ value: 12 });
    expect(budgetText('timeoutMs', 30_000)).toBe('30');
    expect(budgetText('timeoutMs', 1500)).toBe('1.5');
    expect(budgetText('maxSourceBytes', 65_536)).toBe('64');
  });

  it('refuses anything else with a sentence in the same unit', () => {
    for (const bad of ['', '0', '-1', 'ten', '0.0001']) {
      expect(parseBudget('timeoutMs', bad)).toEqual({ error: 'Time limit must be a number of seconds above 0.' });
    }
    for (const bad of ['0', '1.5']) expect(parseBudget('maxToolCalls', bad)).toEqual({ error: 'Tool calls must be a whole number above 0.' });
    expect(parseBudget('memoryMb', '8192')).toEqual({ error: 'Memory can be at most 4096 MB.' });
  });
});
