// The `takeover` section of `npm run bench`: what a client sees while the engine is replaced
// (`engine --take-over`, docs/updates.md). One client through each shim (the Node shim, and the
// native one when it is built) calls a fixture tool back to back the whole time; an engine takes
// the home over N times. For each take-over, the longest call that overlapped it (from the new
// engine's start to it serving alone) is the pause that client saw; the figures are its p50 and
// p99 over the take-overs, next to the p50 of the calls made while no take-over ran.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface TakeOverDeps {
  root: string;
  quick: boolean;
  record(metric: string, value: number, unit: 'ms' | 'count'): void;
  /** The native shim's binary, when it is built: a second client goes through it. */
  nativeShim?: string;
}

type Call = { start: number; end: number; error?: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function enginePid(home: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(home, 'run', 'engine.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

async function until(fn: () => boolean, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!fn()) {
    if (Date.now() - t0 > ms) throw new Error(`take-over bench: timed out waiting for ${what}`);
    await sleep(10);
  }
}

export async function takeOverSection(deps: TakeOverDeps): Promise<void> {
  const bin = path.join(deps.root, 'bin/switchboard.mjs');
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-takeover-'));
  const basic = { command: process.execPath, args: [path.join(deps.root, 'tests/fixtures/servers/basic.mjs')] };
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ servers: { basic }, profiles: { p: { servers: ['basic'] } } }));
  const engines: ChildProcess[] = [];
  const startEngine = (takeOver: boolean) => {
    const child = spawn(process.execPath, [bin, 'engine', ...(takeOver ? ['--take-over'] : []), '--home', home], { stdio: 'ignore' });
    engines.push(child);
    return child;
  };
  const first = startEngine(false);
  await until(() => enginePid(home) === first.pid, 30_000, 'the first engine');
  const shims: { label: string; command: string; args: string[] }[] = [
    { label: 'Node shim', command: process.execPath, args: [bin, 'shim', '--profile', 'p', '--home', home] },
    ...(deps.nativeShim ? [{ label: 'native shim', command: deps.nativeShim, args: ['shim', '--profile', 'p', '--home', home] }] : []),
  ];
  const clients: { label: string; client: Client; calls: Call[] }[] = [];
  for (const shim of shims) {
    const client = new Client({ name: `bench-takeover-${shim.label}`, version: '1' });
    await client.connect(new StdioClientTransport({ command: shim.command, args: shim.args }));
    clients.push({ label: shim.label, client, calls: [] });
  }
  try {
    for (const { client } of clients) for (let i = 0; i < 20; i++) await client.callTool({ name: 'basic__echo', arguments: { text: 'warm' } });
    let running = true;
    const loops = clients.map(async ({ client, calls }) => {
      while (running) {
        const start = performance.now();
        const r = await client.callTool({ name: 'basic__echo', arguments: { text: 'x' } }, undefined, { timeout: 180_000 }).then(
          (v) => ((v as { isError?: boolean }).isError ? 'tool error' : undefined),
          (e: Error) => e.message,
        );
        calls.push({ start, end: performance.now(), ...(r ? { error: r } : {}) });
      }
    });
    const windows: [number, number][] = [];
    const rounds = deps.quick ? 3 : 10;
    for (let i = 0; i < rounds; i++) {
      await sleep(500);
      const before = enginePid(home);
      const t0 = performance.now();
      const next = startEngine(true);
      const old = engines.find((e) => e.pid === before);
      // Serving alone: the old engine is gone and the new one has its servers back (a call of every client answered after that).
      await until(() => old?.exitCode !== null && enginePid(home) === next.pid, 60_000, 'the take-over');
      const done = performance.now();
      await until(() => clients.every(({ calls }) => calls.some((c) => c.start > done)), 60_000, 'a call on the new engine');
      windows.push([t0, performance.now()]);
    }
    running = false;
    await Promise.all(loops);
    const inWindow = (c: Call) => windows.some(([a, b]) => c.end > a && c.start < b);
    for (const { label, calls } of clients) {
      const pauses = windows.map(([a, b]) => Math.max(...calls.filter((c) => c.end > a && c.start < b).map((c) => c.end - c.start)));
      const normal = calls.filter((c) => !inWindow(c)).map((c) => c.end - c.start);
      const via = label === 'Node shim' ? '' : ` (${label})`;
      deps.record(`take-over: longest pause a client saw, p50 over ${rounds} take-overs (one client calling back to back)${via}`, pct(pauses, 50), 'ms');
      deps.record(`take-over: longest pause a client saw, p99 over ${rounds} take-overs${via}`, pct(pauses, 99), 'ms');
      deps.record(`take-over: a call outside take-overs, p50 (same client)${via}`, pct(normal, 50), 'ms');
      deps.record(`take-over: calls that failed during the take-overs${via}`, calls.filter((c) => c.error).length, 'count');
    }
  } finally {
    for (const { client } of clients) await client.close();
    for (const e of engines) if (e.exitCode === null) e.kill('SIGTERM');
    await sleep(500);
    rmSync(home, { recursive: true, force: true });
  }
}
