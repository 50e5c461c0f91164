// Bench section: tool search on plain-word queries (issue 14, search that understands; the
// queries are tests/fixtures/search-eval). Pure code, in process. Part of `npm run bench`; also
// runs alone: `node --import tsx bench/search.ts`.
import { pathToFileURL } from 'node:url';
import { buildCodeCatalog, type CodeCatalog } from '../src-shared/codemode/catalog.ts';
import { byCatalogMoreSet, byCatalogServers, byCatalogSet, evalServers, evalSet, evaluate, evaluateByKind, heldOutBatches } from '../tests/fixtures/search-eval/evaluate.ts';
import { syntheticServers } from './synthetic-catalog.ts';

type Record = (metric: string, value: number, unit: 'ms' | 'count', target?: { limit: number; text: string }) => void;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const ratio = (x: number): number => Number(x.toFixed(3));

/** Milliseconds of each search, every query `rounds` times. */
function latencies(catalog: CodeCatalog, queries: { query: string }[], rounds: number): number[] {
  const xs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const t0 = performance.now();
      catalog.search(q.query, 10);
      xs.push(performance.now() - t0);
    }
  }
  return xs;
}

export function benchSearch(record: Record, opts: { quick: boolean }): void {
  // Recall over the four real catalogs together (153 tools)…
  const real = evalServers();
  const realTools = real.reduce((n, s) => n + s.tools.length, 0);
  const all = [...evalSet.tune, ...evalSet.heldOut];
  const cat = buildCodeCatalog(real);
  const whole = evaluate(cat, all);
  const held = evaluate(cat, evalSet.heldOut);
  record(`search, ${all.length} plain-word queries, ${realTools} real tools: recall@1`, ratio(whole.recallAt1), 'count');
  record(`search, ${all.length} plain-word queries, ${realTools} real tools: recall@5 (target ≥ 0.95)`, ratio(whole.recallAt5), 'count');
  record(`search, the ${held.queries} held-out of them: recall@1`, ratio(held.recallAt1), 'count');
  record(`search, the ${held.queries} held-out of them: recall@5`, ratio(held.recallAt5), 'count');
  for (const b of heldOutBatches()) {
    const r = evaluate(cat, b.queries);
    record(`search, held-out batch of ${r.queries} ${b.name}: recall@1`, ratio(r.recallAt1), 'count');
    record(`search, held-out batch of ${r.queries} ${b.name}: recall@5`, ratio(r.recallAt5), 'count');
  }
  // Catalogs search was not built on: 14 servers from npm and GitHub's, split by catalog.
  const npm = byCatalogServers();
  const npmTools = npm.reduce((n, s) => n + s.tools.length, 0);
  const npmCat = buildCodeCatalog(npm);
  const byKind = (label: string, r: ReturnType<typeof evaluateByKind>, target: boolean) => {
    for (const kind of ['all', 'direct', 'synonym', 'task'] as const) {
      const aim = target && kind === 'all';
      record(`search by catalog, ${label}, ${r[kind].queries} ${kind === 'all' ? '' : `${kind} `}questions: recall@1${aim ? ' (target ≥ 0.65)' : ''}`, ratio(r[kind].recallAt1), 'count');
      record(`search by catalog, ${label}, ${r[kind].queries} ${kind === 'all' ? '' : `${kind} `}questions: recall@5${aim ? ' (target ≥ 0.90)' : ''}`, ratio(r[kind].recallAt5), 'count');
    }
  };
  byKind(`${byCatalogSet.tuneCatalogs.length} tune catalogs of ${npmTools} tools`, evaluateByKind(npmCat, byCatalogSet.tune), false);
  byKind(`${byCatalogSet.heldOutCatalogs.length} held-out catalogs of ${npmTools} tools`, evaluateByKind(npmCat, byCatalogSet.heldOut), true);
  // The second held-out set: 6 more catalogs captured after the tuning, searched with all the others.
  const more = byCatalogServers(byCatalogMoreSet);
  const moreTools = more.reduce((n, s) => n + s.tools.length, 0);
  byKind(`${byCatalogMoreSet.heldOutCatalogs.length} more held-out catalogs of ${moreTools} tools`, evaluateByKind(buildCodeCatalog(more), byCatalogMoreSet.heldOut), true);
  // …then the same catalogs among synthetic tools up to 1,000, for recall among distractors and latency.
  const big = buildCodeCatalog([...real, ...syntheticServers(1000 - realTools)]);
  record('search, the same queries among 1,000 tools: recall@5', ratio(evaluate(big, all).recallAt5), 'count');
  const xs = latencies(big, all, opts.quick ? 3 : 10);
  record('search, plain-word queries at 1,000 tools (p50)', pct(xs, 50), 'ms', { limit: 2, text: '≤ 2 ms' });
  record('search, plain-word queries at 1,000 tools (p95)', pct(xs, 95), 'ms');
  // The npm catalogs padded to 1,000 tools, with their questions.
  const bigNpm = buildCodeCatalog([...npm, ...syntheticServers(1000 - npmTools)]);
  const asked = [...byCatalogSet.tune, ...byCatalogSet.heldOut];
  const ys = latencies(bigNpm, asked, opts.quick ? 3 : 10);
  record('search by catalog, questions at 1,000 tools (p50)', pct(ys, 50), 'ms', { limit: 2, text: '≤ 2 ms' });
  record('search by catalog, questions at 1,000 tools (p95)', pct(ys, 95), 'ms');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchSearch((metric, value, unit, target) => console.log(`${metric}: ${unit === 'ms' ? `${value.toFixed(2)} ms` : value}${target ? `   target ${target.text} ${value <= target.limit ? 'ok' : 'MISSED'}` : ''}`), {
    quick: process.argv.includes('--quick'),
  });
}
