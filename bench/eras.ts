// Bench section: the two protocol generations side by side in one engine. The same echo tool
// on a 2025 upstream (v1-SDK fixture) and a 2026-07-28-only upstream (v2-SDK fixture), called
// direct, through the shim by a 2025 client and by a pinned 2026-07-28 client, and from code
// (`execute`). Run alone with `node --import tsx bench/eras.ts [--quick]`; `npm run bench`
// includes it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/switchboard.mjs');
const FIX = path.join(ROOT, 'tests/fixtures/servers');

type Caller = { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>; close(): Promise<void> };
export type Record_ = (metric: string, value: number, unit: 'ms' | 'x') => void;

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function v1(args: string[]): Promise<Caller> {
  const c = new ClientV1({ name: 'bench-2025', version: '1' });
  await c.connect(new StdioV1({ command: process.execPath, args, stderr: 'ignore' }));
  return c;
}

async function v2(args: string[]): Promise<Caller> {
  const c = new ClientV2({ name: 'bench-2026', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(new StdioV2({ command: process.execPath, args, stderr: 'ignore' }));
  return c;
}

/** Times `n` calls of each target, interleaved in rounds so that noise hits all alike. */
async function interleaved(targets: { c: Caller; name: string; args: Record<string, unknown> }[], n: number): Promise<number[][]> {
  for (const t of targets) for (let i = 0; i < 20; i++) await t.c.callTool({ name: t.name, arguments: t.args });
  const out = targets.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    for (const [k, t] of targets.entries()) {
      const t0 = performance.now();
      const r = (await t.c.callTool({ name: t.name, arguments: t.args })) as { isError?: boolean; content?: { text?: string }[] };
      out[k]!.push(performance.now() - t0);
      if (r.isError) throw new Error(`${t.name}: ${r.content?.[0]?.text}`);
    }
  }
  return out;
}

export async function erasSection(record: Record_, quick: boolean): Promise<void> {
  const N = quick ? 100 : 500;
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-eras-'));
  const node = (file: string) => ({ command: process.execPath, args: [path.join(FIX, file)] });
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify({
      servers: { legacy: node('basic.mjs'), modern: node('v2-modern.mjs') },
      profiles: {
        eras: { servers: ['legacy', 'modern'] },
        erascode: { servers: ['legacy', 'modern'], surface: 'code', budgets: { timeoutMs: 60_000, maxToolCalls: 1000 } },
      },
    }),
  );
  const shim = (profile: string) => [BIN, 'shim', '--profile', profile, '--home', home];
  const open: Caller[] = [];
  const keep = <T extends Caller>(c: T) => (open.push(c), c);
  try {
    const s1 = keep(await v1(shim('eras')));
    // Both servers ready before anything is timed.
    for (let i = 0; i < 400; i++) {
      const names = ((await (s1 as unknown as ClientV1).listTools()).tools ?? []).map((t) => t.name);
      if (names.includes('legacy__echo') && names.includes('modern__echo')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const s2 = keep(await v2(shim('eras')));
    const dLegacy = keep(await v1([path.join(FIX, 'basic.mjs')]));
    const dModern = keep(await v2([path.join(FIX, 'v2-modern.mjs')]));
    const [dl, dm, l1, m1, l2, m2] = await interleaved(
      [
        { c: dLegacy, name: 'echo', args: { text: 'hello' } },
        { c: dModern, name: 'echo', args: { text: 'hello' } },
        { c: s1, name: 'legacy__echo', args: { text: 'hello' } },
        { c: s1, name: 'modern__echo', args: { text: 'hello' } },
        { c: s2, name: 'legacy__echo', args: { text: 'hello' } },
        { c: s2, name: 'modern__echo', args: { text: 'hello' } },
      ],
      N,
    );
    record('eras: direct tools/call p50, 2025 server', p50(dl!), 'ms');
    record('eras: direct tools/call p50, 2026-07-28 server', p50(dm!), 'ms');
    record('eras: shim tools/call p50, 2025 client → 2025 upstream', p50(l1!), 'ms');
    record('eras: shim tools/call p50, 2025 client → 2026-07-28 upstream', p50(m1!), 'ms');
    record('eras: shim tools/call p50, 2026-07-28 client → 2025 upstream', p50(l2!), 'ms');
    record('eras: shim tools/call p50, 2026-07-28 client → 2026-07-28 upstream', p50(m2!), 'ms');

    const code = keep(await v1(shim('erascode')));
    const ten = (server: string) => `async () => { for (let i = 0; i < 10; i++) await ${server}.echo({ text: "x" + i }); return 10; }`;
    const one = (server: string) => `async () => (await ${server}.echo({ text: "x" })).length`;
    const [e1l, e1m, e10l, e10m] = await interleaved(
      [
        { c: code, name: 'execute', args: { code: one('legacy') } },
        { c: code, name: 'execute', args: { code: one('modern') } },
        { c: code, name: 'execute', args: { code: ten('legacy') } },
        { c: code, name: 'execute', args: { code: ten('modern') } },
      ],
      quick ? 20 : 60,
    );
    record('eras: execute with 1 call p50, 2025 upstream', p50(e1l!), 'ms');
    record('eras: execute with 1 call p50, 2026-07-28 upstream', p50(e1m!), 'ms');
    record('eras: execute with 10 sequential calls p50, 2025 upstream', p50(e10l!), 'ms');
    record('eras: execute with 10 sequential calls p50, 2026-07-28 upstream', p50(e10m!), 'ms');
  } finally {
    await Promise.all(open.map((c) => c.close().catch(() => {})));
    try {
      const pid = JSON.parse(readFileSync(path.join(home, 'run/engine.json'), 'utf8')).pid as number;
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 100; i++) {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 50));
      }
    } catch {
      // Stopped (or never started).
    }
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const rows: [string, string][] = [];
  await erasSection((metric, value, unit) => rows.push([metric, unit === 'ms' ? `${value.toFixed(2)} ms` : `${value.toFixed(2)}×`]), process.argv.includes('--quick'));
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [m, v] of rows) console.log(`${m.padEnd(w)}  ${v.padStart(10)}`);
}
