// `npm run bench`: every speed figure of the README, measured side by side in one run (these
// machines are shared and noisy, so ratios against a baseline measured in the same run matter
// more than absolute numbers). Prints a table and writes bench/results.json.
//
//   npm run bench [-- --quick] [-- --only=SECTION,…] [-- --sdk-path] [-- --memory-rounds=N] [-- --memory-before=DIR]
//                 [-- --boot-rounds=N] [-- --boot-before=DIR] [-- --code-rounds=N] [-- --code-before=DIR]
//                 [-- --hop-rounds=N] [-- --hop-before=DIR]
//
// --sdk-path adds a route to the latency section: the Node shim to a second engine whose plain
// tools/call take the SDK path (SWITCHBOARD_SDK_PATH=1) instead of the fast path
// (gateway/fast-calls.ts), interleaved with the others: the engine hop before and after, in one run.
//
// Sections: cold, latency (direct · Node shim · native shim · a peer gateway, interleaved),
// sporadic (one call every 200 ms), start (warm shim start), code, spin, load, catalog,
// memory (engine RSS idle and after 1,000 code runs, median of N engines, side by side with the
// checkout in DIR when given), catalog1000, handles, search, approvals, eras, boot (two shims started
// together with no engine, known and fresh home, beside a direct server start; bench/boot.ts;
// --boot-before=DIR measures that checkout in the same rounds), codecalls (ten calls from code
// against ten direct calls, on an engine of its own; bench/code-calls.ts; --code-before=DIR
// measures that checkout in the same rounds), hop (what the engine adds to a plain call through
// the native shim, with its CPU per call, on an engine of its own; bench/engine-hop.ts;
// --hop-before=DIR measures that checkout in the same rounds), takeover (the longest pause a
// client calling back to back sees while an engine takes the home over; bench/take-over.ts).
// The native shim is built
// first when cargo is there (scripts/build-native-shim.mjs); the peer gateway is mcp-hub when
// BENCH_MCP_HUB names its dist/cli.js (npm install --prefix /tmp/peer mcp-hub@4.2.1; it needs
// no network once installed), else its rows say why they are missing.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildCodeCatalog } from '../src-shared/codemode/catalog.ts';
import { buildNativeShim, haveCargo } from '../scripts/build-native-shim.mjs';
import { benchResultHandles } from './result-handles.ts';
import { benchSearch } from './search.ts';
import { syntheticServers } from './synthetic-catalog.ts';
import { benchApprovalsSkills } from './approvals-skills.ts';
import { erasSection } from './eras.ts';
import { bootSection } from './boot.ts';
import { codeCallsSection } from './code-calls.ts';
import { engineHopSection } from './engine-hop.ts';
import { childPid } from './processes.ts';
import { threadsCpuNs } from './thread-cpu.ts';
import { takeOverSection } from './take-over.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/switchboard.mjs');
const FIX = path.join(ROOT, 'tests/fixtures/servers');
const GITHUB = path.resolve(ROOT, 'tests/fixtures/catalogs/github.json');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const quick = process.argv.includes('--quick');
const N = quick ? 100 : 500;
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice(7).split(',')) : undefined;
const want = (section: string) => !only || only.has(section);
const sdkPath = process.argv.includes('--sdk-path');
const argValue = (name: string) => process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);

type Row = { metric: string; value: string; target?: string; ok?: boolean };
const rows: Row[] = [];
const results: Record<string, number> = {};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const ms = (x: number) => `${x.toFixed(2)} ms`;
function record(metric: string, value: number, unit: 'ms' | 'MB' | 'bytes' | 'x' | 'KB' | 'count' | 'µs', target?: { limit: number; text: string; atLeast?: boolean }) {
  results[metric] = Number(value.toFixed(3));
  const shown = unit === 'ms' ? ms(value) : unit === 'x' ? `${value.toFixed(2)}×` : unit === 'count' ? String(value) : `${value.toFixed(unit === 'bytes' || unit === 'µs' ? 0 : 1)} ${unit}`;
  rows.push({ metric, value: shown, target: target?.text, ok: target ? (target.atLeast ? value >= target.limit : value <= target.limit) : undefined });
}
/** A row of text only (figures behind a recorded one). */
function note(metric: string, text: string) {
  rows.push({ metric, value: text });
}
/** A row that could not be measured here, with the reason. */
function missing(metric: string, why: string) {
  rows.push({ metric, value: 'n/a', target: why });
}
const median = (xs: number[]) => pct(xs, 50);

function node(file: string, env: Record<string, string> = {}) {
  return { command: process.execPath, args: [path.join(FIX, file)], env };
}

async function stdioClient(command: string, args: string[], name = 'bench'): Promise<Client> {
  const c = new Client({ name, version: '1' });
  await c.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return c;
}

function shimArgs(home: string, profile: string): string[] {
  return [BIN, 'shim', '--profile', profile, '--home', home];
}

/** The native shim, built (offline) into a bench folder of cargo's target, or why not. */
const native: { binary?: string; why?: string } = (() => {
  if (!haveCargo()) return { why: 'cargo is not installed' };
  try {
    return { binary: buildNativeShim({ outDir: path.join(ROOT, 'native/shim/target/bench-shim'), log: () => undefined }).binary };
  } catch (err) {
    return { why: `the native shim did not build: ${(err as Error).message}` };
  }
})();

type ShimKind = 'node shim' | 'native shim';
function shimCmd(kind: ShimKind, home: string, profile: string): { command: string; args: string[] } {
  return kind === 'native shim' ? { command: native.binary!, args: shimArgs(home, profile).slice(1) } : { command: process.execPath, args: shimArgs(home, profile) };
}
const SHIMS: ShimKind[] = native.binary ? ['node shim', 'native shim'] : ['node shim'];

// ---- Process accounting from /proc (Linux): CPU time and resident memory of one process.
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
/**
 * CPU time of a process in ms: the sum over its threads of /proc/PID/task/TID/schedstat (time on
 * a CPU, in ns), since /proc/PID/stat's utime + stime count 10 ms clock ticks, too coarse for a
 * few thousand calls of tens of µs. Threads that exited meanwhile would drop out of the sum, so
 * the larger of the two is used (stat includes them).
 */
function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  let statMs = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    statMs = ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
  } catch {
    return 0;
  }
  const ns = threadsCpuNs(pid);
  if (ns === undefined) return statMs;
  // Rounded down to ticks, stat lags the precise figure by up to a tick per thread.
  return statMs > ns / 1e6 + 10 ? statMs : ns / 1e6;
}
/** One way to reach the same tool: its client, the tool's name there, and the processes on the way. */
interface Route {
  name: string;
  client: Client;
  tool: string;
  args: Record<string, unknown>;
  /** The process between client and engine (a shim, or a peer gateway), the engine, the server. */
  pids: { hop?: number; engine?: number; server?: number };
}

async function stdioRoute(name: string, command: string, args: string[], tool: string, callArgs: Record<string, unknown>, env?: Record<string, string>): Promise<Route> {
  const c = new Client({ name: `bench-${name}`, version: '1' });
  const t = new StdioClientTransport({ command, args, stderr: 'ignore', ...(env ? { env: { ...getDefaultEnvironment(), ...env } } : {}) });
  await c.connect(t);
  return { name, client: c, tool, args: callArgs, pids: { hop: t.pid ?? undefined } };
}

async function callBatch(r: Route, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await r.client.callTool({ name: r.tool, arguments: r.args });
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Warm-up until the JIT no longer moves the figure: batches of 200 calls until two successive
 * batch medians agree within 5 %, at least 1,000 calls (V8 tiers hot functions up from the
 * interpreter through Sparkplug and Maglev to TurboFan over the first few hundred to few
 * thousand invocations, in the client, shim, engine and server alike), at most 6,000.
 */
async function warmUp(r: Route): Promise<{ calls: number; first: number; settled: number }> {
  const MIN = quick ? 400 : 1000;
  const MAX = quick ? 1200 : 6000;
  let calls = 0;
  let prev = Infinity;
  let first = 0;
  for (;;) {
    const p50 = median(await callBatch(r, 200));
    calls += 200;
    if (!first) first = p50;
    if (calls >= MIN && Math.abs(p50 - prev) / p50 < 0.05) return { calls, first, settled: p50 };
    if (calls >= MAX) return { calls, first, settled: p50 };
    prev = p50;
  }
}

/**
 * Interleaved rounds: each round runs a batch on every route, in an order rotated per round,
 * so that a slow moment of the shared machine falls on all routes alike. Each route's figure
 * is the median of its per-round medians; each ratio is the median of per-round ratios to
 * the first route (direct), with the added milliseconds beside it.
 */
async function interleaved(label: string, routes: Route[], opts: { rounds: number; perRound: number; target?: number }) {
  for (const r of routes) {
    const w = await warmUp(r);
    record(`${label}: warm-up of ${r.name} (calls until two 200-call medians agree within 5 %; first → settled p50)`, w.calls, 'count');
    rows[rows.length - 1]!.value = `${w.calls} (${w.first.toFixed(2)} → ${w.settled.toFixed(2)} ms)`;
  }
  const per = new Map<string, number[]>(routes.map((r) => [r.name, []]));
  const all = new Map<string, number[]>(routes.map((r) => [r.name, []]));
  const cpu = new Map<string, { hop: number; engine: number; server: number; calls: number }>(routes.map((r) => [r.name, { hop: 0, engine: 0, server: 0, calls: 0 }]));
  for (let round = 0; round < opts.rounds; round++) {
    for (let k = 0; k < routes.length; k++) {
      const r = routes[(round + k) % routes.length]!;
      const before = [cpuMs(r.pids.hop), cpuMs(r.pids.engine), cpuMs(r.pids.server)];
      const xs = await callBatch(r, opts.perRound);
      const c = cpu.get(r.name)!;
      c.hop += cpuMs(r.pids.hop) - before[0]!;
      c.engine += cpuMs(r.pids.engine) - before[1]!;
      c.server += cpuMs(r.pids.server) - before[2]!;
      c.calls += xs.length;
      per.get(r.name)!.push(median(xs));
      all.get(r.name)!.push(...xs);
    }
  }
  const base = routes[0]!;
  for (const r of routes) {
    record(`${label}: ${r.name} p50 (median of ${opts.rounds} rounds × ${opts.perRound})`, median(per.get(r.name)!), 'ms');
    record(`${label}: ${r.name} p99 (all calls)`, pct(all.get(r.name)!, 99), 'ms');
  }
  for (const r of routes.slice(1)) {
    const ratios = per.get(r.name)!.map((x, i) => x / per.get(base.name)![i]!);
    const added = per.get(r.name)!.map((x, i) => x - per.get(base.name)![i]!);
    const isShim = r.name.endsWith('shim');
    record(`${label}: ${r.name} / ${base.name} (median of per-round ratios; rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`, median(ratios), 'x', isShim && opts.target ? { limit: opts.target, text: `≤ ${opts.target}×` } : undefined);
    // The native shim is the product's shim: what it adds over a direct call has a target of its own.
    record(`${label}: ${r.name} adds per call (median of per-round differences)`, median(added), 'ms', r.name === 'native shim' ? { limit: 0.1, text: '≤ 0.10 ms' } : undefined);
  }
  for (const r of routes) {
    const c = cpu.get(r.name)!;
    const us = (x: number) => (x * 1000) / c.calls;
    const parts = [r.pids.hop && r.name !== base.name ? `${r.name} ${us(c.hop).toFixed(0)}` : '', r.pids.engine ? `engine ${us(c.engine).toFixed(0)}` : '', `server ${us(c.server).toFixed(0)}`].filter(Boolean);
    record(`${label}: CPU per call via ${r.name}, µs (/proc: schedstat over ${c.calls} calls)`, us(c.hop + c.engine + c.server), 'µs');
    rows[rows.length - 1]!.value = parts.join(' · ');
    if (r.name !== base.name) results[`${label}: CPU per call via ${r.name}: hop µs`] = Number(us(c.hop).toFixed(1));
    if (r.pids.engine) results[`${label}: CPU per call via ${r.name}: engine µs`] = Number(us(c.engine).toFixed(1));
    results[`${label}: CPU per call via ${r.name}: server µs`] = Number(us(c.server).toFixed(1));
  }
  return { p50: (name: string) => median(per.get(name)!) };
}

/** mcp-hub (a peer gateway) over its SSE endpoint, with the same fixture server, or why not. */
async function peerRoute(): Promise<{ route?: Route; stop: () => void; why?: string }> {
  const cli = process.env.BENCH_MCP_HUB;
  if (!cli || !existsSync(cli)) return { stop: () => undefined, why: 'set BENCH_MCP_HUB to mcp-hub\'s dist/cli.js to compare (not a dependency of this project)' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-peer-'));
  const config = path.join(dir, 'mcp-hub.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { basic: { command: process.execPath, args: [path.join(FIX, 'basic.mjs')] } } }));
  const port = 38000 + (process.pid % 1000);
  const hub = spawn(process.execPath, [cli, '--port', String(port), '--config', config], { stdio: 'ignore' });
  const stop = () => {
    hub.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    try {
      const c = new Client({ name: 'bench-peer', version: '1' });
      await c.connect(new SSEClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      for (let k = 0; k < 100 && !(await c.listTools()).tools.some((t) => t.name === 'basic__echo'); k++) await new Promise((r) => setTimeout(r, 50));
      return { route: { name: 'mcp-hub', client: c, tool: 'basic__echo', args: { text: 'hello' }, pids: { hop: hub.pid, server: childPid(hub.pid!, 'basic.mjs') } }, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  stop();
  return { stop: () => undefined, why: 'mcp-hub did not come up' };
}

async function waitEngine(home: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    try {
      return JSON.parse(readFileSync(path.join(home, 'run/engine.json'), 'utf8')).pid;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('engine did not start');
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Resident memory of a process and its anonymous part, in MB (/proc/PID/smaps_rollup). */
function rssParts(pid: number): { rss: number; anon: number } {
  const t = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(t)![1]);
  return { rss: kb('Rss') / 1024, anon: kb('Anonymous') / 1024 };
}

interface MemoryRound {
  idle: { rss: number; anon: number };
  busy: number;
  settled: { rss: number; anon: number };
  p50: number;
  afterIdle: number;
}

/**
 * One engine on a fresh first-run home, started by `bin`'s shim: RSS once settled after one
 * run, right after `runs` more, and settled again; then how long the next run takes (the sandbox
 * pool stops its warm worker after 20 s without runs, so that run starts one). Idle means settled: V8's memory reducer
 * shrinks the heaps some time after activity stops (its first look is 8 s after the last major
 * GC), so each figure is taken 30 s after the last call.
 */
async function memoryRound(bin: string, runs: number): Promise<MemoryRound> {
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-rss-'));
  const settle = () => new Promise((r) => setTimeout(r, quick ? 10_000 : 30_000));
  try {
    const c = await stdioClient(process.execPath, [bin, 'shim', '--profile', 'demo-code', '--home', fresh]);
    await c.callTool({ name: 'execute', arguments: { code: 'async () => typeof everything' } });
    const epid = await waitEngine(fresh);
    await settle();
    const idle = rssParts(epid);
    // Runs that touch the sandbox the way models do: a tool call, a result, some garbage.
    const src = 'async () => { const r = await everything.echo({ message: "m" }); return JSON.stringify(r).length + [1, 2, 3].map((x) => x * 2).join().length; }';
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await c.callTool({ name: 'execute', arguments: { code: src } });
      times.push(performance.now() - t0);
      if ((r as CallToolResult).isError) throw new Error(runText(r));
    }
    const busy = rssMb(epid);
    await settle();
    const settled = rssParts(epid);
    // The first run after the quiet spell: it starts a worker when the pool rested meanwhile.
    const t0 = performance.now();
    await c.callTool({ name: 'execute', arguments: { code: src } });
    const afterIdle = performance.now() - t0;
    await c.close();
    process.kill(epid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    return { idle, busy, settled, p50: pct(times, 50), afterIdle };
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

function runText(r: unknown): string {
  return ((r as CallToolResult).content[0] as { text: string }).text;
}

async function main() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-'));
  const catalog1000 = path.join(home, 'catalog1000.json');
  const config = {
    servers: {
      basic: node('basic.mjs'),
      slow: node('slow.mjs'),
      github: node('catalog.mjs', { CATALOG_FILE: GITHUB }),
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    },
    profiles: {
      tools: { servers: ['basic'] },
      ref: { servers: ['everything'], tools: { everything: { allow: ['echo'] } } },
      other: { servers: ['basic'] },
      code: { servers: ['basic', 'slow'], surface: 'code', budgets: { timeoutMs: 60_000, maxToolCalls: 1000 } },
      spin: { servers: ['basic'], surface: 'code', budgets: { timeoutMs: 4000 } },
      ghtools: { servers: ['github'] },
      ghcode: { servers: ['github'], surface: 'code' },
    },
  };
  writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
  void catalog1000;

  // The sections below share one engine; a run of only other sections starts none.
  if (['cold', 'latency', 'sporadic', 'start', 'code', 'spin', 'load', 'catalog'].some(want)) try {
    // 1. Cold start: no engine runs; the shim starts one. Always run: it starts the engine.
    {
      const t0 = performance.now();
      const c = await stdioClient(process.execPath, shimArgs(home, 'tools'));
      await c.listTools();
      const cold = performance.now() - t0;
      await c.close();
      if (want('cold')) record('shim start → first tools/list, engine cold', cold, 'ms');
    }
    const pid = await waitEngine(home);
    // Let every server come up before timing anything.
    {
      for (const [profile, n] of [['ghtools', 117], ['ref', 1]] as const) {
        const c = await stdioClient(process.execPath, shimArgs(home, profile));
        for (let i = 0; i < 200; i++) {
          if ((await c.listTools()).tools.length >= n) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await c.close();
      }
    }
    if (!native.binary) missing('native shim', native.why!);

    // 2. Direct vs through each shim (and a peer gateway), same server, same calls, interleaved.
    // The shim that client configs get (native when built) is what later sections compare to.
    const mainShim: ShimKind = SHIMS[SHIMS.length - 1]!;
    let dp50 = 0;
    let sp50 = 0;
    if (want('latency')) {
      const routes: Route[] = [await stdioRoute('direct', process.execPath, [path.join(FIX, 'basic.mjs')], 'echo', { text: 'hello' })];
      for (const kind of SHIMS) {
        const { command, args } = shimCmd(kind, home, 'tools');
        const r = await stdioRoute(kind, command, args, 'basic__echo', { text: 'hello' });
        routes.push({ ...r, pids: { hop: r.pids.hop, engine: pid, server: childPid(pid, 'basic.mjs') } });
      }
      routes[0]!.pids = { server: routes[0]!.pids.hop };
      // The same Node shim to an engine of its own whose calls take the SDK path.
      const sdkHome = sdkPath ? mkdtempSync(path.join(os.tmpdir(), 'sb-bench-sdk-')) : undefined;
      if (sdkHome) {
        writeFileSync(path.join(sdkHome, 'config.json'), JSON.stringify({ servers: { basic: config.servers.basic }, profiles: { tools: { servers: ['basic'] } } }));
        const r = await stdioRoute('SDK-path node shim', process.execPath, shimArgs(sdkHome, 'tools'), 'basic__echo', { text: 'hello' }, { SWITCHBOARD_SDK_PATH: '1' });
        const spid = await waitEngine(sdkHome);
        // Its server must be up before its pid can be read.
        for (let i = 0; i < 200 && !(await r.client.listTools()).tools.some((t) => t.name === 'basic__echo'); i++) await new Promise((res) => setTimeout(res, 50));
        routes.push({ ...r, pids: { hop: r.pids.hop, engine: spid, server: childPid(spid, 'basic.mjs') } });
      }
      const peer = await peerRoute();
      if (peer.route) routes.push(peer.route);
      try {
        const res = await interleaved('fixture echo', routes, { rounds: quick ? 4 : 12, perRound: quick ? 150 : 300, target: 2 });
        dp50 = res.p50('direct');
        sp50 = res.p50(mainShim);
        if (sdkHome) record('fast path saves per call: SDK-path node shim p50 − node shim p50', res.p50('SDK-path node shim') - res.p50('node shim'), 'ms');
        if (peer.route) {
          for (const kind of SHIMS) record(`mcp-hub p50 / ${kind} p50`, res.p50('mcp-hub') / res.p50(kind), 'x', { limit: 2.5, text: '≥ 2.5×', atLeast: true });
        } else missing('mcp-hub (peer gateway)', peer.why!);
        for (const r of routes) {
          if (r.name.endsWith('shim')) record(`${r.name} RSS after the rounds`, rssMb(r.pids.hop!), 'MB', { limit: 10, text: '≤ 10 MB' });
        }
      } finally {
        for (const r of routes) await r.client.close().catch(() => undefined);
        peer.stop();
        if (sdkHome) {
          try {
            process.kill(await waitEngine(sdkHome), 'SIGTERM');
            await new Promise((r) => setTimeout(r, 1000));
          } catch {
            // Gone already.
          }
          rmSync(sdkHome, { recursive: true, force: true });
        }
      }

      // The same against the reference server (server-everything's echo), whose own work per
      // call is closer to a real server's.
      const ref: Route[] = [await stdioRoute('direct', process.execPath, [EVERYTHING, 'stdio'], 'echo', { message: 'hello' })];
      ref[0]!.pids = { server: ref[0]!.pids.hop };
      for (const kind of SHIMS) {
        const { command, args } = shimCmd(kind, home, 'ref');
        const r = await stdioRoute(kind, command, args, 'everything__echo', { message: 'hello' });
        ref.push({ ...r, pids: { hop: r.pids.hop, engine: pid, server: childPid(pid, EVERYTHING) } });
      }
      try {
        await interleaved('reference echo', ref, { rounds: quick ? 3 : 8, perRound: quick ? 100 : 250, target: 2 });
      } finally {
        for (const r of ref) await r.client.close().catch(() => undefined);
      }
    }
    if (!dp50) {
      // Later targets need a direct and a shim round trip even when this section is skipped.
      const d = await stdioRoute('direct', process.execPath, [path.join(FIX, 'basic.mjs')], 'echo', { text: 'hello' });
      const { command, args } = shimCmd(mainShim, home, 'tools');
      const sh = await stdioRoute(mainShim, command, args, 'basic__echo', { text: 'hello' });
      await callBatch(d, 1000);
      await callBatch(sh, 1000);
      dp50 = median(await callBatch(d, 500));
      sp50 = median(await callBatch(sh, 500));
      await d.client.close();
      await sh.client.close();
    }

    // 2b. Sporadic calls, as a model makes them: one call every 200 ms, the routes taking
    // turns, so that every process sleeps between calls (CPU caches, branch predictors and
    // frequency scaling go cold; the JIT stays warm from section 2).
    if (want('sporadic')) {
      const routes: Route[] = [await stdioRoute('direct', process.execPath, [path.join(FIX, 'basic.mjs')], 'echo', { text: 'hello' })];
      for (const kind of SHIMS) {
        const { command, args } = shimCmd(kind, home, 'tools');
        routes.push(await stdioRoute(kind, command, args, 'basic__echo', { text: 'hello' }));
      }
      const per = quick ? 10 : 40;
      const xs = new Map<string, number[]>(routes.map((r) => [r.name, []]));
      try {
        for (const r of routes) await callBatch(r, 1000);
        for (let i = 0; i < per * routes.length; i++) {
          await new Promise((res) => setTimeout(res, 200));
          const r = routes[i % routes.length]!;
          xs.get(r.name)!.push(...(await callBatch(r, 1)));
        }
      } finally {
        for (const r of routes) await r.client.close().catch(() => undefined);
      }
      const d = median(xs.get('direct')!);
      record(`sporadic (1 call / 200 ms, ${per} per route): direct p50`, d, 'ms');
      for (const kind of SHIMS) {
        const v = median(xs.get(kind)!);
        record(`sporadic: ${kind} p50`, v, 'ms');
        record(`sporadic: ${kind} / direct (adds ${(v - d).toFixed(2)} ms)`, v / d, 'x', { limit: 2, text: '≤ 2×' });
      }
    }

    // 3. Shim start → first tools/list with the engine running: spawn, initialize and its
    // answer, notifications/initialized, tools/list and its answer, through a real SDK client.
    if (want('start')) {
      const xs = new Map<ShimKind, number[]>(SHIMS.map((k) => [k, []]));
      for (let i = 0; i < (quick ? 5 : 15); i++) {
        for (const kind of SHIMS) {
          const { command, args } = shimCmd(kind, home, 'tools');
          const t0 = performance.now();
          const c = await stdioClient(command, args);
          await c.listTools();
          xs.get(kind)!.push(performance.now() - t0);
          await c.close();
        }
      }
      for (const kind of SHIMS) {
        record(`${kind} start → first tools/list, engine warm (p50)`, pct(xs.get(kind)!, 50), 'ms', { limit: 20, text: '≤ 20 ms' });
      }
    }

    // 4. Code mode, through the shim clients get.
    if (want('code')) {
    const cc = shimCmd(mainShim, home, 'code');
    const code = await stdioClient(cc.command, cc.args);
    const execTimes: number[] = [];
    const inEngine: number[] = [];
    // A long-lived engine runs warm: let the JIT of the engine and the sandbox worker settle first.
    for (let i = 0; i < (quick ? 50 : 300); i++) {
      await code.callTool({ name: 'execute', arguments: { code: 'async () => { await basic.echo({ text: "warm" }); return 1; }' } });
    }
    for (let i = 0; i < (quick ? 50 : 200); i++) {
      const t0 = performance.now();
      const r = await code.callTool({ name: 'execute', arguments: { code: 'async () => 1' } });
      execTimes.push(performance.now() - t0);
      const meta = (r as { _meta?: Record<string, unknown> })._meta;
      void meta;
    }
    const runs = JSON.parse(execFileSync(process.execPath, [BIN, 'runs', '--json', '--limit', String(quick ? 50 : 200), '--profile', 'code', '--home', home], { encoding: 'utf8' })) as { durationMs: number; runEngineMs?: number }[];
    for (const r of runs) inEngine.push(r.durationMs);
    record('execute trivial code, in the engine (p50)', pct(inEngine, 50), 'ms', { limit: 1, text: '≤ 1 ms' });
    record(`execute trivial code, through the ${mainShim} (p50)`, pct(execTimes, 50), 'ms', { limit: sp50 + 0.6, text: `≤ shim p50 + 0.6 ms (${ms(sp50 + 0.6)})` });

    {
      const xs: number[] = [];
      const src = 'async () => { for (let i = 0; i < 10; i++) await basic.echo({ text: "x" + i }); return 10; }';
      for (let i = 0; i < (quick ? 10 : 100); i++) await code.callTool({ name: 'execute', arguments: { code: src } });
      for (let i = 0; i < (quick ? 20 : 60); i++) {
        const t0 = performance.now();
        const r = await code.callTool({ name: 'execute', arguments: { code: src } });
        if ((r as CallToolResult).isError) throw new Error(runText(r));
        xs.push(performance.now() - t0);
      }
      record(`execute with 10 sequential calls, through the ${mainShim} (p50)`, pct(xs, 50), 'ms', {
        limit: 10 * dp50 + 1.5,
        text: `≤ 10 × direct p50 + 1.5 ms (${ms(10 * dp50 + 1.5)})`,
      });
    }
    {
      const xs: number[] = [];
      const src = 'async () => (await Promise.all(Array.from({ length: 50 }, () => slow.wait({ ms: 50 })))).length';
      for (let i = 0; i < (quick ? 3 : 10); i++) {
        const t0 = performance.now();
        const r = await code.callTool({ name: 'execute', arguments: { code: src } });
        if ((r as CallToolResult).isError) throw new Error(runText(r));
        xs.push(performance.now() - t0);
      }
      record('Promise.all of 50 calls × 50 ms (p50)', pct(xs, 50), 'ms', { limit: 150, text: '≤ 150 ms' });
    }
    await code.close();
    }

    // 5. A spinning run must not slow other clients.
    for (const spinners of want('spin') ? [1, 2] : []) {
      const other = await stdioClient(process.execPath, shimArgs(home, 'other'));
      const spinClients = await Promise.all(Array.from({ length: spinners }, () => stdioClient(process.execPath, shimArgs(home, 'spin'))));
      const spinning = spinClients.map((c) => c.callTool({ name: 'execute', arguments: { code: 'async () => { while (true) {} }' } }, undefined, { timeout: 30_000 }));
      await new Promise((r) => setTimeout(r, 200));
      const xs: number[] = [];
      const until = performance.now() + 3000;
      while (performance.now() < until) {
        const t0 = performance.now();
        await other.callTool({ name: 'basic__echo', arguments: { text: 'x' } });
        xs.push(performance.now() - t0);
      }
      await Promise.all(spinning);
      record(`plain calls p99 while ${spinners} run${spinners > 1 ? 's' : ''} spin${spinners > 1 ? '' : 's'} (${xs.length} calls)`, pct(xs, 99), 'ms', {
        limit: 10,
        text: '≤ 10 ms',
      });
      await other.close();
      for (const c of spinClients) await c.close();
    }

    // Load: 50 clients at once through their own shims, half on the tools surface and half
    // running code, each call echoing a unique token (checked: none lost, duplicated or crossed).
    if (want('load')) {
      const CLIENTS = 50;
      const CALLS = quick ? 10 : 40;
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, (_, i) => stdioClient(process.execPath, shimArgs(home, i % 2 ? 'code' : 'tools'), `load-${i}`)),
      );
      const lat: number[] = [];
      let wrong = 0;
      await Promise.all(
        clients.map(async (c, i) => {
          for (let k = 0; k < CALLS; k++) {
            const token = `c${i}-k${k}`;
            const t0 = performance.now();
            const r =
              i % 2
                ? await c.callTool({ name: 'execute', arguments: { code: `async () => await basic.echo({ text: ${JSON.stringify(token)} })` } })
                : await c.callTool({ name: 'basic__echo', arguments: { text: token } });
            lat.push(performance.now() - t0);
            if (!runText(r).includes(token)) wrong++;
          }
        }),
      );
      record(`load: ${CLIENTS} clients × ${CALLS} calls through shims, mixed surfaces, p50`, pct(lat, 50), 'ms');
      record(`load: p99`, pct(lat, 99), 'ms');
      record(`load: lost, duplicated or crossed responses`, wrong, 'count', { limit: 0, text: '0' });
      for (const c of clients) await c.close();
    }

    // 6. Catalog sizes: the GitHub catalog in each surface.
    if (want('catalog')) {
      const t = await stdioClient(process.execPath, shimArgs(home, 'ghtools'));
      const c = await stdioClient(process.execPath, shimArgs(home, 'ghcode'));
      const tl = JSON.stringify((await t.listTools()).tools).length;
      const cl = JSON.stringify((await c.listTools()).tools).length;
      record('tools/list of the GitHub catalog (117 tools), tools surface', tl, 'bytes');
      record('tools/list of the GitHub catalog, code surface', cl, 'bytes');
      record('code surface size / tools surface size', cl / tl, 'x');
      await t.close();
      await c.close();
    }

    void pid;
  } finally {
    try {
      execFileSync(process.execPath, [BIN, 'status', '--json', '--home', home], { encoding: 'utf8' });
      const pid = JSON.parse(readFileSync(path.join(home, 'run/engine.json'), 'utf8')).pid;
      process.kill(pid, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
    } catch {
      // No engine left.
    }
    rmSync(home, { recursive: true, force: true });
  }

  // 7. Engine RSS with 3 servers: the first-run home (everything, memory, files; a tools and a
  // code profile), idle after a client listed tools and ran code once, then after 1,000 runs.
  // Memory varies from engine to engine by several MB (when V8 and malloc happen to give pages
  // back), so each figure is the median of several engines, each on a fresh home; with
  // --memory-before=DIR another checkout (e.g. `git archive` of an older commit, with its
  // node_modules) is measured in the same rounds, taking turns, for a side-by-side figure.
  if (want('memory')) {
    const rounds = quick ? 1 : Number(argValue('--memory-rounds') ?? 3);
    const runs = quick ? 300 : 1000;
    const beforeDir = argValue('--memory-before');
    const trees = [{ label: '', bin: BIN }, ...(beforeDir ? [{ label: 'before: ', bin: path.resolve(beforeDir, 'bin/switchboard.mjs') }] : [])];
    const got = new Map<string, MemoryRound[]>(trees.map((t) => [t.label, []]));
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < trees.length; k++) {
        const t = trees[(r + k) % trees.length]!;
        got.get(t.label)!.push(await memoryRound(t.bin, runs));
      }
    }
    for (const t of trees) {
      const xs = got.get(t.label)!;
      const list = (f: (m: MemoryRound) => number) => `${xs.length} engines: ${xs.map((m) => f(m).toFixed(1)).join(' · ')}`;
      const idle = median(xs.map((m) => m.idle.rss));
      const settled = median(xs.map((m) => m.settled.rss));
      const mine = t.label === '';
      record(`${t.label}engine RSS idle, 3 servers (first-run home)`, idle, 'MB', mine ? { limit: 80, text: '≤ 80 MB' } : undefined);
      note(`${t.label}  … idle, each engine (MB)`, list((m) => m.idle.rss));
      note(`${t.label}  … idle, file-backed (node binary, shared) · anonymous, median (MB)`, `${median(xs.map((m) => m.idle.rss - m.idle.anon)).toFixed(1)} · ${median(xs.map((m) => m.idle.anon)).toFixed(1)}`);
      record(`${t.label}engine RSS after ${runs} code runs, settled`, settled, 'MB', mine ? { limit: 100, text: '≤ 100 MB' } : undefined);
      note(`${t.label}  … settled, each engine (MB)`, list((m) => m.settled.rss));
      record(`${t.label}engine RSS right after ${runs} code runs`, median(xs.map((m) => m.busy)), 'MB', mine ? { limit: 80, text: '≤ 80 MB' } : undefined);
      note(`${t.label}  … right after the runs, each engine (MB)`, list((m) => m.busy));
      record(`${t.label}execute p50 during those runs (median of engines)`, median(xs.map((m) => m.p50)), 'ms');
      record(`${t.label}execute after that idle spell (median of engines)`, median(xs.map((m) => m.afterIdle)), 'ms');
    }
  }

  // 8. Declarations and search for a 1,000-tool profile (in-process, pure code).
  if (want('catalog1000')) {
    const servers = syntheticServers(1000);
    for (let i = 0; i < 3; i++) buildCodeCatalog(servers);
    const builds: number[] = [];
    let cat = buildCodeCatalog(servers);
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      cat = buildCodeCatalog(servers);
      builds.push(performance.now() - t0);
    }
    record('1,000-tool profile: build names, declarations and index (p50)', pct(builds, 50), 'ms', { limit: 50, text: '≤ 50 ms' });
    const queries = ['create issue', 'list files', 'delete user', 'update build', 'tickets project', 'open labels'];
    for (const q of queries) cat.search(q, 10);
    const xs: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      cat.search(queries[i % queries.length]!, 10);
      xs.push(performance.now() - t0);
    }
    record('1,000-tool profile: search_tools (p50)', pct(xs, 50), 'ms', { limit: 2, text: '≤ 2 ms' });
  }

  // 9. Result handles: keeping a cut result, and reading a page of it back (its own home).
  if (want('handles')) await benchResultHandles(record, { quick });

  // 10. Search on plain-word queries: recall, and latency at 1,000 tools (pure code).
  if (want('search')) benchSearch(record, { quick });

  // Ten calls from code against ten direct calls, on engines of their own (bench/code-calls.ts).
  if (want('codecalls')) {
    await codeCallsSection({
      root: ROOT, quick, rounds: Number(argValue('--code-rounds') ?? (quick ? 4 : 8)), before: argValue('--code-before'), nativeBinary: native.binary,
      record, note,
    });
  }

  // The engine's hop on a plain call through the native shim, before and after (bench/engine-hop.ts).
  if (want('hop')) {
    await engineHopSection({
      root: ROOT, quick, rounds: Number(argValue('--hop-rounds') ?? (quick ? 4 : 10)), before: argValue('--hop-before'), nativeBinary: native.binary,
      record, note,
    });
  }

  // Approvals and skills, on a home and engine of their own.
  if (want('approvals')) await benchApprovalsSkills((metric, value) => record(metric, value, 'ms'), quick);

  // Both protocol generations side by side, in an engine of their own (bench/eras.ts).
  if (want('eras')) await erasSection((metric, value, unit) => record(metric, value, unit), quick);

  // The engine replaced under a client that keeps calling (bench/take-over.ts).
  if (want('takeover')) await takeOverSection({ root: ROOT, quick, record, nativeShim: native.binary });

  // A computer's start: shims started together with no engine running (bench/boot.ts), last:
  // it starts and stops many engines.
  if (want('boot')) {
    await bootSection({
      root: ROOT, quick, rounds: Number(argValue('--boot-rounds') ?? (quick ? 2 : 5)), before: argValue('--boot-before'), nativeBinary: native.binary,
      record, note,
    });
  }

  const w = Math.max(...rows.map((r) => r.metric.length));
  console.log(`\nSwitchboard benchmark (${new Date().toISOString()}, ${os.cpus().length} cores, node ${process.version}${quick ? ', quick' : ''})\n`);
  for (const r of rows) {
    console.log(`${r.metric.padEnd(w)}  ${r.value.padStart(12)}${r.target ? `   target ${r.target} ${r.ok ? 'ok' : 'MISSED'}` : ''}`);
  }
  // A run of some sections updates their figures and keeps the others'.
  const file = path.join(ROOT, 'bench/results.json');
  let kept: Record<string, number> = {};
  if (only && existsSync(file)) kept = (JSON.parse(readFileSync(file, 'utf8')) as { results: Record<string, number> }).results;
  writeFileSync(file, JSON.stringify({ time: new Date().toISOString(), ...(only && { sections: [...only] }), results: { ...kept, ...results } }, null, 2) + '\n');
}

void spawn;
await main();
// A peer gateway's SSE client can leave a socket open; the figures are written, so end here.
process.exit(0);
