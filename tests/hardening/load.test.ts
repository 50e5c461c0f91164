// Load: many clients through real shims, both surfaces at once, every answer checked
// against its own request; and code mode run back to back with the engine's memory watched.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StatusReport } from '../../src-shared/api.ts';
import { cleanupHomes, fixtureServer, makeHome, shimClient, waitFor } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

const CLIENTS = Number(process.env.HARDENING_CLIENTS ?? 50);
const CALLS = Number(process.env.HARDENING_CALLS ?? 200);
const RUNS = Number(process.env.HARDENING_RUNS ?? 1000);
const WARMUP_RUNS = Number(process.env.HARDENING_WARMUP_RUNS ?? 1500);

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

describe('load', () => {
  hardeningCase('load', `${CLIENTS} concurrent clients × ${CALLS} calls through shims, tools and code surfaces`, async (tally) => {
    const home = makeHome({
      servers: { basic: fixtureServer('basic.mjs') },
      profiles: { tools: { servers: ['basic'] }, code: { servers: ['basic'], surface: 'code' } },
    });
    const engine = await serveEngine(home);
    try {
      await waitFor(async () => (await engine.api<StatusReport>('status')).servers.basic?.state === 'ready', 20_000, 'basic');
      const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => shimClient(home, i % 2 ? 'code' : 'tools', { name: `load-${i}` })));
      const latencies: number[] = [];
      const wrong: string[] = [];
      await Promise.all(
        clients.map(async (client, c) => {
          for (let k = 0; k < CALLS; k++) {
            const token = `c${c}-k${k}-${Math.random().toString(36).slice(2)}`;
            tally.tried++;
            const t0 = performance.now();
            try {
              const r =
                c % 2
                  ? await client.callTool({ name: 'execute', arguments: { code: `return (await basic.echo({ text: ${JSON.stringify(token)} }))` } }, undefined, { timeout: 120_000 })
                  : await client.callTool({ name: 'basic__echo', arguments: { text: token } }, undefined, { timeout: 120_000 });
              latencies.push(performance.now() - t0);
              const got = text(r);
              // Code results carry the value as JSON after "Result:"; either way it must be this call's token alone.
              if (got === token || got.trim().endsWith(JSON.stringify(token))) tally.held++;
              else wrong.push(`${token} → ${got.slice(0, 120)}`);
            } catch (err) {
              wrong.push(`${token} → ${(err as Error).message}`);
            }
          }
        }),
      );
      await Promise.all(clients.map((c) => c.close()));
      latencies.sort((a, b) => a - b);
      tally.notes!.push(`p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(tally.held).toBe(CLIENTS * CALLS);
    } finally {
      await engine.stop();
    }
  }, 600_000);

  hardeningCase('load', `${RUNS} code-mode runs back to back keep the engine's RSS flat`, async (tally) => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { code: { servers: ['basic'], surface: 'code' } } });
    const engine = await serveEngine(home);
    try {
      await waitFor(async () => (await engine.api<StatusReport>('status')).servers.basic?.state === 'ready', 20_000, 'basic');
      const pid = engine.proc.pid!;
      const xs: number[] = [];
      const ys: number[] = [];
      // Warm-up: the engine's and the sandbox worker's V8 heaps grow to a plateau over the first
      // ~1,500 runs (V8 sets an isolate's limit at least 8 MB above its live data at every
      // mark-compact; with --optimize-for-size it steps 2 MB; see README, engine memory). The
      // slope is measured over RUNS runs after that, where a real leak would keep climbing.
      for (let i = 0; i < WARMUP_RUNS; i++) {
        await engine.api('exec', { profile: 'code', code: `const parts = []; for (let j = 0; j < 200; j++) parts.push("x" + j); return (await basic.echo({ text: "warm ${i}" }))` });
      }
      for (let i = 0; i < RUNS; i++) {
        tally.tried++;
        const r = await engine.api<{ text: string; isError: boolean }>('exec', {
          profile: 'code',
          code: `const parts = []; for (let j = 0; j < 200; j++) parts.push("x" + j); console.log(parts.length); return (await basic.echo({ text: "run ${i}" }))`,
        });
        if (!r.isError && r.text.includes(`run ${i}`)) tally.held++;
        if (i % 20 === 0) {
          xs.push(i);
          ys.push(rssKb(pid));
        }
      }
      const kbPerRun = slope(xs, ys);
      tally.notes!.push(`RSS slope ${kbPerRun.toFixed(2)} KB/run (${(ys[0]! / 1024).toFixed(0)} → ${(ys.at(-1)! / 1024).toFixed(0)} MB)`);
      expect(tally.held).toBe(RUNS);
      // Flat: a leak of one run's record, logs or sandbox (tens of KB) per run would show well above this.
      expect(kbPerRun).toBeLessThan(10);
    } finally {
      await engine.stop();
    }
  }, 600_000);
});
