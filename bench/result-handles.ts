// Bench section: reading a kept result back (issue 14, result handles), through a real shim and
// engine. Part of `npm run bench`; also runs alone: `node --import tsx bench/result-handles.ts`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/switchboard.mjs');
const FIX = path.join(ROOT, 'tests/fixtures/servers');

type Record = (metric: string, value: number, unit: 'ms' | 'count') => void;

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function benchResultHandles(record: Record, opts: { quick: boolean }): Promise<void> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-results-'));
  const config = {
    servers: { big: { command: process.execPath, args: [path.join(FIX, 'big-result.mjs')] } },
    profiles: {
      keeps: { servers: ['big'], surface: 'code', codeMode: { results: true } },
      cuts: { servers: ['big'], surface: 'code' },
    },
  };
  writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
  const connect = async (profile: string) => {
    const client = new Client({ name: 'bench-results', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'shim', '--profile', profile, '--home', home], stderr: 'ignore' }));
    return client;
  };
  const c = await connect('keeps');
  const cuts = await connect('cuts');
  const runIn = async (client: Client, code: string) => ((await client.callTool({ name: 'execute', arguments: { code } })) as CallToolResult).content[0] as { text: string };
  const run = (code: string) => runIn(c, code);
  try {
    for (let i = 0; i < 200 && !(await run('async () => typeof big.big')).text.includes('function'); i++) await new Promise((r) => setTimeout(r, 50));
    const make = 'async () => { const t = await big.big({ bytes: 1048576 }); return t.match(/.{1,64}/g).map((s, i) => ({ i, s })); }';
    // Keeping a result costs its JSON and one atomic write: the same run, kept and only cut.
    let made = await run(make);
    await runIn(cuts, make);
    const kept: number[] = [];
    const cut: number[] = [];
    for (let i = 0; i < (opts.quick ? 3 : 7); i++) {
      let s = performance.now();
      made = await run(make);
      kept.push(performance.now() - s);
      s = performance.now();
      await runIn(cuts, make);
      cut.push(performance.now() - s);
    }
    record('execute returning a 1 MB result, cut only (p50, through the shim)', p50(cut), 'ms');
    record('… the same, cut and kept under a result handle (p50)', p50(kept), 'ms');
    const handle = /kept as "(res_[0-9a-f]{24})"/.exec(made.text)?.[1];
    if (!handle) throw new Error(`no handle in: ${made.text.slice(-400)}`);
    const n = opts.quick ? 30 : 100;
    const trivial: number[] = [];
    const pages: number[] = [];
    for (let i = 0; i < 10; i++) await run(`async () => (await results.get("${handle}", { offset: 0, limit: 150 })).next`);
    for (let i = 0; i < n; i++) {
      let s = performance.now();
      await run('async () => 1');
      trivial.push(performance.now() - s);
      s = performance.now();
      await run(`async () => (await results.get("${handle}", { offset: ${(i * 150) % 16_384}, limit: 150 })).items`);
      pages.push(performance.now() - s);
    }
    record('results.get page of 150 items from a kept 1 MB result, execute through the shim (p50)', p50(pages), 'ms');
    record('… the same run minus a trivial execute (p50 difference)', p50(pages) - p50(trivial), 'ms');
  } finally {
    await c.close();
    await cuts.close();
    // The engine the shim started stops when its last client goes; give it a moment, then clean.
    await new Promise((r) => setTimeout(r, 500));
    try {
      const info = JSON.parse((await import('node:fs')).readFileSync(path.join(home, 'run/engine.json'), 'utf8')) as { pid: number };
      process.kill(info.pid, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
    } catch {
      // Already gone.
    }
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchResultHandles((metric, value, unit) => console.log(`${metric}: ${unit === 'ms' ? `${value.toFixed(2)} ms` : value}`), {
    quick: process.argv.includes('--quick'),
  });
}
