// Prints the hardening report: every case with its category and outcome, and the totals the
// README's reliability section quotes. Use with `vitest run tests/hardening --reporter=default
// --reporter=./tests/hardening/table-reporter.ts`. Also writes the table as JSON to
// $HARDENING_REPORT when set.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import type { HardeningMeta } from './hardening-case.ts';

interface Row {
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
        const meta = (t.meta() as HardeningMeta).hardening;
        if (!meta) continue;
        const state = t.result().state;
        rows.push({
          name: t.name.replace(/^\[\w+\]\s*/, ''),
          category: meta.category,
          outcome: state === 'passed' ? 'pass' : state === 'failed' ? 'FAIL' : state,
          tried: meta.tally.tried,
          held: meta.tally.held,
          notes: (meta.tally.notes ?? []).join('; '),
        });
      }
    }
    if (!rows.length) return;
    const order = { attack: 0, fault: 1, load: 2 } as Record<string, number>;
    rows.sort((a, b) => (order[a.category] ?? 9) - (order[b.category] ?? 9));
    const w = Math.min(90, Math.max(...rows.map((r) => r.name.length)));
    const line = (c: string[]) => `| ${c[0]!.padEnd(w)} | ${c[1]!.padEnd(8)} | ${c[2]!.padEnd(7)} | ${c[3]!.padStart(7)} | ${c[4]!.padStart(7)} | ${c[5]}`;
    const out = ['', 'Hardening report', line(['case', 'category', 'outcome', 'tried', 'held', 'notes'])];
    out.push(line(['-'.repeat(w), '-'.repeat(8), '-'.repeat(7), '-'.repeat(7), '-'.repeat(7), '-----']));
    for (const r of rows) out.push(line([r.name.slice(0, w), r.category, r.outcome, String(r.tried), String(r.held), r.notes]));
    const sum = (cat: string, f: (r: Row) => number) => rows.filter((r) => r.category === cat).reduce((s, r) => s + f(r), 0);
    out.push('');
    out.push(`attacks tried ${sum('attack', (r) => r.tried)}, refused ${sum('attack', (r) => r.held)}`);
    out.push(`faults injected ${sum('fault', (r) => r.tried)}, survived ${sum('fault', (r) => r.held)}`);
    out.push(`requests under load ${sum('load', (r) => r.tried)}, lost or crossed ${sum('load', (r) => r.tried - r.held)}`);
    out.push(`cases ${rows.length}: ${rows.filter((r) => r.outcome === 'pass').length} passed, ${rows.filter((r) => r.outcome === 'FAIL').length} failed`);
    process.stdout.write(out.join('\n') + '\n');
    if (process.env.HARDENING_REPORT) writeFileSync(process.env.HARDENING_REPORT, JSON.stringify(rows, null, 2) + '\n');
  }
}
