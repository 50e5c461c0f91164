// One hardening case: a vitest test tagged with its category, plus the counts the report table
// shows (attacks tried/refused, faults injected/survived, requests sent/lost).
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

export interface HardeningMeta {
  hardening?: { category: Category; tally: CaseTally };
}

/** Declares a case; `fn` fills in the tally as it goes, and the reporter prints it. */
export function hardeningCase(category: Category, name: string, fn: (tally: CaseTally, ctx: TestContext) => Promise<void> | void, timeoutMs?: number): void {
  it(`[${category}] ${name}`, async (ctx) => {
    const tally: CaseTally = { tried: 0, held: 0, notes: [] };
    (ctx.task.meta as HardeningMeta).hardening = { category, tally };
    await fn(tally, ctx);
  }, timeoutMs);
}
