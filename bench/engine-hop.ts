// The `hop` section of `npm run bench`: what the engine adds to a plain tool call through the
// native shim, against the same server called directly. Interleaved round by round: a direct
// stdio client of the fixture server, and the native shim to this checkout's engine; with
// --hop-before=DIR (a checkout of an older commit with its node_modules) the native shim to that
// checkout's engine too, each engine on a home of its own, for a before/after measured side by
// side. Each route's CPU per call is read from /proc (schedstat), a figure that holds on a noisy
// machine where wall-clock medians wander. With BENCH_ENGINE_PROF=DIR each engine runs under
// --cpu-prof, the profiles written to DIR when it stops.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { childPid, waitFile } from './processes.ts';
import { threadsCpuNs } from './thread-cpu.ts';
import { ENGINE_NODE_FLAGS } from '../src-main/shim/engine-launch.mjs';

export interface EngineHopDeps {
  root: string;
  quick: boolean;
  rounds: number;
  /** Calls per route in a round. Defaults to 500 (200 with --quick). */
  perRound?: number;
  /** Another checkout to measure in the same rounds, or undefined. */
  before?: string;
  /** The native shim of this checkout, when it built (else the Node shim of each checkout). */
  nativeBinary?: string;
  record(metric: string, value: number, unit: 'ms' | 'µs', target?: { limit: number; text: string }): void;
  note(metric: string, text: string): void;
}

interface Route {
  label: string;
  client: Client;
  /** The shim (absent for the direct route), the engine, the server. */
  pids: { shim?: number; engine?: number; server?: number };
  home?: string;
  engine?: ChildProcess;
  p50s: number[];
  added: number[];
  /** The engine's CPU per call in each round, µs. */
  engineUs: number[];
  cpu: { shim: number; engine: number; server: number; calls: number };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

const cpuUs = (pid: number | undefined): number => (pid ? (threadsCpuNs(pid) ?? 0) / 1000 : 0);

async function connect(command: string, args: string[]): Promise<{ client: Client; pid?: number }> {
  const client = new Client({ name: 'bench-hop', version: '1' });
  const t = new StdioClientTransport({ command, args, stderr: 'ignore' });
  await client.connect(t);
  return { client, pid: t.pid ?? undefined };
}

const fresh = (): Route['cpu'] => ({ shim: 0, engine: 0, server: 0, calls: 0 });

async function engineRoute(label: string, checkout: string, deps: EngineHopDeps): Promise<Route> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-hop-'));
  const basic = { command: process.execPath, args: [path.join(deps.root, 'tests/fixtures/servers/basic.mjs')] };
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ servers: { basic }, profiles: { tools: { servers: ['basic'] } } }));
  // Started here as `serve`, with the flags a launched engine gets, so that it can be profiled.
  const prof = process.env.BENCH_ENGINE_PROF;
  const flags = [...ENGINE_NODE_FLAGS, ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${path.join(prof, label)}`] : [])];
  const engine = spawn(process.execPath, [...flags, path.join(checkout, 'bin/switchboard.mjs'), 'serve', '--home', home], {
    stdio: 'ignore',
    env: { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072' },
  });
  await waitFile(path.join(home, 'run/engine.json'));
  const shim = deps.nativeBinary
    ? await connect(deps.nativeBinary, ['shim', '--profile', 'tools', '--home', home])
    : await connect(process.execPath, [path.join(checkout, 'bin/switchboard.mjs'), 'shim', '--profile', 'tools', '--home', home]);
  for (let i = 0; i < 200 && !(await shim.client.listTools()).tools.some((t) => t.name === 'basic__echo'); i++) await new Promise((r) => setTimeout(r, 50));
  const server = childPid(engine.pid!, 'basic.mjs');
  return { label, client: shim.client, pids: { shim: shim.pid, engine: engine.pid, server }, home, engine, p50s: [], added: [], engineUs: [], cpu: fresh() };
}

async function batch(r: Route, n: number): Promise<number[]> {
  const tool = r.pids.engine ? 'basic__echo' : 'echo';
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await r.client.callTool({ name: tool, arguments: { text: 'hello' } });
    out.push(performance.now() - t0);
  }
  return out;
}

export async function engineHopSection(deps: EngineHopDeps): Promise<void> {
  const d = await connect(process.execPath, [path.join(deps.root, 'tests/fixtures/servers/basic.mjs')]);
  const direct: Route = { label: 'direct', client: d.client, pids: { server: d.pid }, p50s: [], added: [], engineUs: [], cpu: fresh() };
  const routes = [direct, await engineRoute('after', deps.root, deps)];
  if (deps.before) routes.push(await engineRoute('before', path.resolve(deps.before), deps));
  const per = deps.perRound ?? (deps.quick ? 200 : 500);
  try {
    // Warm the JIT of client, shim, engine and server on every route first.
    for (const r of routes) await batch(r, deps.quick ? 1000 : 3000);
    for (let round = 0; round < deps.rounds; round++) {
      const medians = new Map<Route, number>();
      for (let k = 0; k < routes.length; k++) {
        const r = routes[(round + k) % routes.length]!;
        const c0 = [cpuUs(r.pids.shim), cpuUs(r.pids.engine), cpuUs(r.pids.server)];
        const xs = await batch(r, per);
        r.cpu.shim += cpuUs(r.pids.shim) - c0[0]!;
        r.cpu.engine += cpuUs(r.pids.engine) - c0[1]!;
        r.engineUs.push((cpuUs(r.pids.engine) - c0[1]!) / per);
        r.cpu.server += cpuUs(r.pids.server) - c0[2]!;
        r.cpu.calls += per;
        medians.set(r, median(xs));
        r.p50s.push(median(xs));
      }
      for (const r of routes.slice(1)) r.added.push(medians.get(r)! - medians.get(direct)!);
    }
  } finally {
    for (const r of routes) {
      await r.client.close().catch(() => undefined);
      if (!r.engine) continue;
      r.engine.kill('SIGTERM');
      await new Promise<void>((res) => (r.engine!.exitCode !== null ? res() : r.engine!.once('exit', () => res())));
      rmSync(r.home!, { recursive: true, force: true });
    }
  }
  const shim = deps.nativeBinary ? 'native shim' : 'node shim';
  const us = (r: Route, x: number) => (x / r.cpu.calls).toFixed(0);
  deps.record(`hop: direct p50 (median of ${deps.rounds} rounds × ${per})`, median(direct.p50s), 'ms');
  deps.note('hop: CPU per direct call, µs: server', us(direct, direct.cpu.server));
  for (const r of routes.slice(1)) {
    const p = r.label === 'before' ? 'before: ' : '';
    deps.record(`hop: ${p}${shim} p50`, median(r.p50s), 'ms');
    deps.record(`hop: ${p}${shim} adds per call (median of per-round differences)`, median(r.added), 'ms', p ? undefined : { limit: 0.1, text: '≤ 0.10 ms' });
    deps.note(`hop: ${p}CPU per call via the ${shim}, µs: shim · engine · server`, `${us(r, r.cpu.shim)} · ${us(r, r.cpu.engine)} · ${us(r, r.cpu.server)}`);
    deps.record(`hop: ${p}engine CPU per call`, r.cpu.engine / r.cpu.calls, 'µs');
  }
  if (routes.length === 3) {
    const [, a, b] = routes as [Route, Route, Route];
    deps.note('hop: added per call, after − before (median of per-round differences)', `${median(a.added.map((x, i) => x - b.added[i]!)).toFixed(3)} ms`);
    const ratios = a.engineUs.map((x, i) => x / b.engineUs[i]!);
    deps.note('hop: engine CPU per call, after / before (median of per-round ratios; rounds)', `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
  }
}
