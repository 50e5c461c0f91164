// Prints the hardening report: every case with its category and outcome, and the totals the
// README's reliability section quotes. Use with `vitest run tests/hardening --reporter=default
// --reporter=./tests/hardening/table-reporter.ts`. Also writes the table as JSON to
// $HARDENING_REPORT when set.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import type { HardeningMeta } from './hardening-case.ts';

export interface Row {
  name: string;
  category: string;
  outcome: string;
  tried: number;
  held: number;
  notes: string;
}

export default class HardeningTableReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows: Row[] = [];
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const tag = /^\[(attack|fault|load)\]\s*/.exec(t.name);
        const meta = (t.meta() as HardeningMeta).hardening;
        // A case that never ran its body (a failed beforeAll) has no meta but still counts.
        if (!meta && !tag) continue;
        const state = t.result().state;
        rows.push(tallyRow(t.name.replace(/^\[\w+\]\s*/, ''), meta?.category ?? tag![1]!, state, meta));
      }
    }
    if (!rows.length) return;
    const order = { attack: 0, fault: 1, load: 2 } as Record<string, number>;
    rows.sort((a, b) => (order[a.category] ?? 9) - (order[b.category] ?? 9));
    // Names are never cut: the table goes into README as it is printed.
    const w = Math.max(...rows.map((r) => r.name.length));
    const line = (c: string[]) => `| ${c[0]!.padEnd(w)} | ${c[1]!.padEnd(8)} | ${c[2]!.padEnd(7)} | ${c[3]!.padStart(7)} | ${c[4]!.padStart(7)} | ${c[5]}`;
    const out = ['', 'Hardening report', line(['case', 'category', 'outcome', 'tried', 'held', 'notes'])];
    out.push(line(['-'.repeat(w), '-'.repeat(8), '-'.repeat(7), '-'.repeat(7), '-'.repeat(7), '-----']));
    for (const r of rows) out.push(line([r.name, r.category, r.outcome, String(r.tried), String(r.held), r.notes]));
    const sum = (cat: string, f: (r: Row) => number) => rows.filter((r) => r.category === cat).reduce((s, r) => s + f(r), 0);
    out.push('');
    out.push(`attacks tried ${sum('attack', (r) => r.tried)}, refused ${sum('attack', (r) => r.held)}`);
    out.push(`faults injected ${sum('fault', (r) => r.tried)}, survived ${sum('fault', (r) => r.held)}`);
    out.push(`requests under load ${sum('load', (r) => r.tried)}, lost or crossed ${sum('load', (r) => r.tried - r.held)}`);
    out.push(`cases tried ${rows.length}, held ${rows.filter((r) => r.outcome === 'pass').length}, failed ${rows.filter((r) => r.outcome === 'FAIL').length}`);
    process.stdout.write(out.join('\n') + '\n');
    if (process.env.HARDENING_REPORT) writeFileSync(process.env.HARDENING_REPORT, JSON.stringify(rows, null, 2) + '\n');
  }
}

/**
 * One table row. Tried and held come from the case's own counters, except that a case that did
 * not pass never shows every attempt held: its failure is at least one attempt tried and not
 * held, even when it threw between counting one as tried and counting it as held, or before
 * counting anything.
 */
export function tallyRow(name: string, category: string, state: string, meta: HardeningMeta['hardening'] | undefined): Row {
  const ran = state !== 'skipped' && state !== 'pending';
  const passed = state === 'passed' && meta?.failed !== true;
  let tried = meta?.tally.tried ?? 0;
  const held = Math.min(meta?.tally.held ?? 0, tried);
  if (ran && !passed && held >= tried) tried = held + 1;
  const failures = meta?.failures?.length ? [`not held: ${meta.failures.map((f) => f.split('\n')[0]).join(' | ')}`] : [];
  return {
    name,
    category,
    outcome: passed ? 'pass' : ran ? 'FAIL' : state,
    tried,
    held,
    notes: [...(meta?.tally.notes ?? []), ...failures].join('; '),
  };
}
