// Not a test: measures the run store at 100,000 runs of realistic size.
//   node --expose-gc --import tsx tests/engine/records/bench-100k.ts
// Writes the store, then measures in a fresh process so the writer's heap does not skew the reads.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { RunStore } from '../../../src-main/engine/records/run-store.ts';
import type { RunRecord } from '../../../src-shared/records.ts';
import { makeRun, tempDir } from './fixtures.ts';

const N = Number(process.env.RUNS ?? 100_000);
const measureDir = process.argv[2] === '--measure' ? process.argv[3] : undefined;
const { dir, cleanup } = measureDir ? { dir: measureDir, cleanup: () => {} } : tempDir();
const kinds = ['runtime', 'timeout', 'budget'] as const;

function realistic(i: number): RunRecord {
  const base = makeRun(i, i % 10 === 0 ? { kind: kinds[i % 3] } : {});
  return {
    ...base,
    id: `R${String(i).padStart(15, '0')}`,
    profile: `profile-${i % 5}`,
    client: ['claude-desktop', 'cursor', 'vscode', 'claude-code'][i % 4]!,
    code: `async () => {\n  const issues = await github.list_issues({ owner: "acme", repo: "widgets", state: "open", page: ${i} });\n  const open = issues.filter((x) => !x.pull_request);\n  for (const x of open.slice(0, 3)) console.log(x.title);\n  return open.map((x) => ({ n: x.number, t: x.title, labels: x.labels.map((l) => l.name) }));\n}`,
    logs: [0, 1, 2].map((k) => ({ level: 'log' as const, text: `Issue ${i}-${k}: widget fails to render on resize` })),
    result: i % 10 === 0 ? undefined : Array.from({ length: 6 }, (_, k) => ({ n: i * 10 + k, t: `Widget issue number ${k} in batch ${i}`, labels: ['bug', 'ui'] })),
    calls: [0, 1, 2].map((k) => ({ server: 'github', tool: 'list_issues', start: k * 30, duration: 25, outcome: 'ok' as const })),
  };
}

function p50(fn: () => unknown, reps: number): number {
  const t: number[] = [];
  for (let k = 0; k < reps; k++) {
    const s = performance.now();
    fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)]!;
}

if (!measureDir && process.env.KEEP) {
  write(); // leaves the store for other measurements
  console.log(dir);
} else if (!measureDir) {
  try {
    write();
    execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--measure', dir], { stdio: 'inherit' });
  } finally {
    cleanup();
  }
} else {
  measure();
}

function write(): void {
  const s = performance.now();
  const w = RunStore.open(dir);
  for (let i = 0; i < N; i++) w.append(realistic(i));
  w.dispose();
  const writeMs = performance.now() - s;
  const files = readdirSync(dir);
  const bytes = files.reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
  console.log(`wrote ${N} runs, ${(bytes / 1e6).toFixed(1)} MB in ${files.length} files, avg ${Math.round(bytes / N)} B/run, ${((writeMs / N) * 1000).toFixed(1)} µs/append`);
}

function measure(): void {
  let s = 0;
  const opens: number[] = [];
  let store!: RunStore;
  for (let k = 0; k < 5; k++) {
    if (store) store.dispose();
    s = performance.now();
    store = RunStore.open(dir);
    opens.push(performance.now() - s);
  }
  opens.sort((a, b) => a - b);
  console.log(`open (with index files): median ${opens[2]!.toFixed(0)} ms, count ${store.count()}`);
  console.log(`newest page (limit 50): p50 ${p50(() => store.list({ limit: 50 }), 200).toFixed(2)} ms`);
  console.log(`newest page, profile+client filter: p50 ${p50(() => store.list({ profile: 'profile-3', client: 'cursor', limit: 50 }), 200).toFixed(2)} ms`);
  console.log(`outcome=timeout page: p50 ${p50(() => store.list({ outcome: 'timeout', limit: 50 }), 200).toFixed(2)} ms`);
  const mid = `R${String(N / 2).padStart(15, '0')}`;
  console.log(`page before a middle id: p50 ${p50(() => store.list({ before: mid, limit: 50 }), 200).toFixed(2)} ms`);
  console.log(`get by id: p50 ${p50(() => store.get(mid), 500).toFixed(3)} ms`);
  console.log(`text hit (common, limit 50): p50 ${p50(() => store.list({ text: 'batch', limit: 50 }), 50).toFixed(2)} ms`);
  console.log(`text miss (scans all ${N}): p50 ${p50(() => store.list({ text: 'no such text anywhere' }), 3).toFixed(0)} ms`);
  store.dispose();

  for (const f of readdirSync(dir)) if (f.endsWith('.idx.json')) unlinkSync(path.join(dir, f));
  s = performance.now();
  store = RunStore.open(dir);
  console.log(`open without index files (full scan, rewrites them): ${(performance.now() - s).toFixed(0)} ms, count ${store.count()}`);
  store.dispose();
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  store = RunStore.open(dir);
  global.gc?.();
  console.log(`index heap: ~${((process.memoryUsage().heapUsed - before) / 1e6).toFixed(1)} MB`);
  store.dispose();
}
