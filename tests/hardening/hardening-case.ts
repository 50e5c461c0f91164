// One hardening case: a vitest test tagged with its category, plus the counts the report table
// shows (attacks tried/refused, faults injected/survived, requests sent/lost).
//
// Tried and held are counted apart: `tried` goes up before an attempt and `held` only after it
// ended as it must, so an attempt that throws leaves the case with fewer held than tried. A
// case that fails is marked failed in its meta, and the reporter never counts it as held.
import { it, type TestContext } from 'vitest';

export type Category = 'attack' | 'fault' | 'load';

export interface CaseTally {
  /** Attempts made: attacks tried, faults injected, requests sent. */
  tried: number;
  /** Attempts that ended as they must: refused, survived, answered correctly. */
  held: number;
  /** Free-form figures for the report (p99, RSS slope). */
  notes?: string[];
}

/** The tally a case gets. */
export interface Tally extends CaseTally {
  /**
   * Runs one attempt: counts it tried, then held only if `fn` does not throw. A failed attempt
   * is remembered and the others still run; the case then fails naming every failed attempt.
   */
  attempt(label: string, fn: () => Promise<void> | void): Promise<void>;
}

export interface HardeningMeta {
  hardening?: {
    category: Category;
    tally: CaseTally;
    /** Set when the case failed: its attempts are not all held, whatever the counters say. */
    failed?: boolean;
    /** Labels of the attempts that did not hold, and why. */
    failures?: string[];
  };
}

/** Declares a case; `fn` fills in the tally as it goes, and the reporter prints it. */
export function hardeningCase(category: Category, name: string, fn: (tally: Tally, ctx: TestContext) => Promise<void> | void, timeoutMs?: number): void {
  it(`[${category}] ${name}`, async (ctx) => {
    const failures: string[] = [];
    const tally = newTally(failures);
    const meta: NonNullable<HardeningMeta['hardening']> = { category, tally, failures };
    (ctx.task.meta as HardeningMeta).hardening = meta;
    try {
      await fn(tally, ctx);
    } catch (err) {
      meta.failed = true;
      throw err;
    }
    if (failures.length > 0) {
      meta.failed = true;
      throw new Error(`${failures.length} of ${tally.tried} attempts did not hold:\n- ${failures.join('\n- ')}`);
    }
  }, timeoutMs);
}

/**
 * A fresh tally whose `attempt` records failures in `failures`. `attempt` is not enumerable, so
 * the tally stays plain data when vitest hands the test's meta to the reporter.
 */
export function newTally(failures: string[]): Tally {
  const tally = { tried: 0, held: 0, notes: [] } as unknown as Tally;
  Object.defineProperty(tally, 'attempt', {
    enumerable: false,
    value: async (label: string, fn: () => Promise<void> | void) => {
      tally.tried++;
      try {
        await fn();
        tally.held++;
      } catch (err) {
        failures.push(`${label}: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  });
  return tally;
}
