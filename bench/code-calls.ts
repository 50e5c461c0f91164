// The `codecalls` section of `npm run bench`: what a tool call costs from code. Through the shim
// clients get, interleaved round by round: ten sequential `tools/call`s on a tools profile (ten
// direct calls), one `execute` making the same ten calls, and a trivial `execute`. With
// --code-before=DIR (a checkout of an older commit with its node_modules) that checkout's
// engine, on a home of its own, takes its turn in the same rounds, for a before/after measured
// side by side. With BENCH_ENGINE_PROF=DIR each engine runs under --cpu-prof (its sandbox
// worker too), the profiles written to DIR when it stops.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BootDeps } from './boot.ts';
import { waitFile } from './processes.ts';
import { threadsCpuNs } from './thread-cpu.ts';
import { ENGINE_NODE_FLAGS, engineEnv } from '../src-main/shim/engine-launch.mjs';

/** The same as the boot section's: the checkout, rounds, the checkout to compare, the native shim. */
export type CodeCallsDeps = BootDeps;

interface Side {
  label: string;
  home: string;
  engine: ChildProcess;
  tools: Client;
  code: Client;
  direct10: number[];
  exec10: number[];
  /** The engine's CPU (all its threads: the sandbox worker too) per batch of ten calls, µs. */
  cpuDirect10: number[];
  cpuExec10: number[];
  trivial: number[];
  ratios: number[];
}

const TEN = 'async () => { for (let i = 0; i < 10; i++) await basic.echo({ text: "x" + i }); return 10; }';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

async function client(command: string, args: string[]): Promise<Client> {
  const c = new Client({ name: 'bench-codecalls', version: '1' });
  await c.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return c;
}

async function startSide(label: string, checkout: string, deps: CodeCallsDeps): Promise<Side> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-codecalls-'));
  const basic = { command: process.execPath, args: [path.join(deps.root, 'tests/fixtures/servers/basic.mjs')] };
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify({ servers: { basic }, profiles: { tools: { servers: ['basic'] }, code: { servers: ['basic'], surface: 'code', budgets: { maxToolCalls: 1000 } } } }),
  );
  // The engine is started here (as `serve`), the same flags as a launched one, so it can be profiled.
  const prof = process.env.BENCH_ENGINE_PROF;
  const flags = [...ENGINE_NODE_FLAGS, ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${path.join(prof, label || 'after')}`] : [])];
  const engine = spawn(process.execPath, [...flags, path.join(checkout, 'bin/switchboard.mjs'), 'serve', '--home', home], {
    stdio: 'ignore',
    env: engineEnv(),
  });
  await waitFile(path.join(home, 'run/engine.json'));
  const shim = (profile: string): [string, string[]] =>
    deps.nativeBinary
      ? [deps.nativeBinary, ['shim', '--profile', profile, '--home', home]]
      : [process.execPath, [path.join(checkout, 'bin/switchboard.mjs'), 'shim', '--profile', profile, '--home', home]];
  const tools = await client(...shim('tools'));
  for (let i = 0; i < 200 && !(await tools.listTools()).tools.some((t) => t.name === 'basic__echo'); i++) await new Promise((r) => setTimeout(r, 50));
  const code = await client(...shim('code'));
  return { label, home, engine, tools, code, direct10: [], exec10: [], cpuDirect10: [], cpuExec10: [], trivial: [], ratios: [] };
}

/** CPU time of a process's threads so far, in µs. */
function cpuUs(pid: number | undefined): number {
  return pid ? (threadsCpuNs(pid) ?? 0) / 1000 : 0;
}

async function ten(c: Client): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < 10; i++) await c.callTool({ name: 'basic__echo', arguments: { text: `x${i}` } });
  return performance.now() - t0;
}

async function exec(c: Client, code: string): Promise<number> {
  const t0 = performance.now();
  const r = (await c.callTool({ name: 'execute', arguments: { code } })) as CallToolResult;
  const took = performance.now() - t0;
  if (r.isError) throw new Error((r.content[0] as { text: string }).text);
  return took;
}

export async function codeCallsSection(deps: CodeCallsDeps): Promise<void> {
  const sides = [await startSide('', deps.root, deps)];
  if (deps.before) sides.push(await startSide('before', path.resolve(deps.before), deps));
  const per = deps.quick ? 15 : 40;
  try {
    // Warm the JIT of client, shim, engine, worker and server on every side first.
    for (const s of sides) {
      for (let i = 0; i < (deps.quick ? 150 : 400); i++) await ten(s.tools);
      for (let i = 0; i < (deps.quick ? 150 : 400); i++) await exec(s.code, TEN);
      for (let i = 0; i < (deps.quick ? 100 : 300); i++) await exec(s.code, 'async () => 1');
    }
    for (let round = 0; round < deps.rounds; round++) {
      for (let k = 0; k < sides.length; k++) {
        const s = sides[(round + k) % sides.length]!;
        const d: number[] = [];
        const e: number[] = [];
        const t: number[] = [];
        // Alternating call by call, so a slow moment falls on both alike.
        let cpuD = 0;
        let cpuE = 0;
        for (let i = 0; i < per; i++) {
          let c0 = cpuUs(s.engine.pid);
          d.push(await ten(s.tools));
          let c1 = cpuUs(s.engine.pid);
          cpuD += c1 - c0;
          c0 = c1;
          e.push(await exec(s.code, TEN));
          c1 = cpuUs(s.engine.pid);
          cpuE += c1 - c0;
          t.push(await exec(s.code, 'async () => 1'));
        }
        s.cpuDirect10.push(cpuD / per);
        s.cpuExec10.push(cpuE / per);
        s.direct10.push(median(d));
        s.exec10.push(median(e));
        s.trivial.push(median(t));
        s.ratios.push(median(e) / median(d));
      }
    }
  } finally {
    for (const s of sides) {
      await s.tools.close().catch(() => undefined);
      await s.code.close().catch(() => undefined);
      s.engine.kill('SIGTERM');
      await new Promise<void>((r) => (s.engine.exitCode !== null ? r() : s.engine.once('exit', () => r())));
      rmSync(s.home, { recursive: true, force: true });
    }
  }
  const shim = deps.nativeBinary ? 'native shim' : 'node shim';
  const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' · ');
  for (const s of sides) {
    const p = s.label ? `${s.label}: ` : '';
    deps.record(`${p}ten sequential tools/call through the ${shim} (median of ${deps.rounds} rounds × ${per})`, median(s.direct10), 'ms');
    deps.record(`${p}execute with the same ten calls`, median(s.exec10), 'ms');
    deps.record(`${p}execute of ten calls / ten direct calls (median of per-round ratios)`, median(s.ratios), 'x', s.label ? undefined : { limit: 1.6, text: '≤ 1.6×' });
    deps.note(`${p}  … per round`, list(s.ratios));
    deps.record(`${p}trivial execute`, median(s.trivial), 'ms');
    deps.note(`${p}engine CPU (all threads) per ten direct calls · per execute of ten calls`, `${median(s.cpuDirect10).toFixed(0)} · ${median(s.cpuExec10).toFixed(0)} µs`);
  }
  if (sides.length === 2) {
    const [a, b] = sides as [Side, Side];
    deps.record('execute of ten calls: after / before (median of per-round ratios)', median(a.exec10.map((x, i) => x / b.exec10[i]!)), 'x');
    deps.record('trivial execute: after / before (median of per-round ratios)', median(a.trivial.map((x, i) => x / b.trivial[i]!)), 'x');
  }
}
