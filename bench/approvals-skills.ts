// Bench section for issue 14 items 1–2, on its own home and engine: what an approval adds to a
// call from code (approved at once by the client's elicitation, or through the control API by a
// program polling approvals.list), and what calling a saved skill costs over the same code
// inline. Run alone with `node --import tsx bench/approvals-skills.ts [--quick]`; bench/index.ts
// runs it as one section.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { homePaths } from '../src-main/engine/platform/home.ts';
import { SocketControlClient } from '../src-main/cli/engine-client.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/switchboard.mjs');
const BASIC = path.join(ROOT, 'tests/fixtures/servers/basic.mjs');

export type Record_ = (metric: string, value: number, unit: 'ms') => void;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function shim(home: string, profile: string, elicitation = false): Promise<Client> {
  const c = new Client({ name: `bench-${profile}`, version: '1' }, { capabilities: elicitation ? { elicitation: {} } : {} });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'shim', '--profile', profile, '--home', home], stderr: 'ignore' }));
  return c;
}

async function exec(c: Client, code: string): Promise<{ ms: number; text: string; runId: string }> {
  const t0 = performance.now();
  const r = (await c.callTool({ name: 'execute', arguments: { code } })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  if (r.isError) throw new Error(text);
  return { ms: performance.now() - t0, text, runId: String(r._meta?.['switchboard/runId']) };
}

async function timed(n: number, once: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < Math.min(10, n); i++) await once();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await once());
  return out;
}

export async function benchApprovalsSkills(record: Record_, quick: boolean): Promise<void> {
  const n = quick ? 30 : 150;
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-approvals-'));
  const basic = { command: process.execPath, args: [BASIC] };
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify({
      servers: { basic },
      profiles: {
        plain: { servers: ['basic'], surface: 'code', codeMode: { skills: true } },
        guarded: { servers: ['basic'], surface: 'code', approvals: { approve: ['basic.add'] } },
      },
    }),
  );
  const clients: Client[] = [];
  let control: SocketControlClient | undefined;
  try {
    const plain = await shim(home, 'plain');
    const asking = await shim(home, 'guarded', true);
    asking.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
    const silent = await shim(home, 'guarded');
    clients.push(plain, asking, silent);
    const code = 'async (input = { a: 1, b: 2 }) => (await basic.add({ a: input.a, b: input.b })).sum';
    for (let i = 0; i < 100; i++) {
      if ((await exec(plain, 'async () => typeof basic.add')).text.includes('function')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    control = (await SocketControlClient.connect(homePaths(home)))!;

    const inline = await timed(n, async () => (await exec(plain, code)).ms);
    const viaClient = await timed(n, async () => (await exec(asking, code)).ms);
    // The app's path: a program polls approvals.list and approves what it finds at once.
    const viaApi = await timed(n, async () => {
      const run = exec(silent, code);
      for (;;) {
        const { pending } = await control!.call('approvals.list', {});
        if (pending[0]) {
          await control!.call('approvals.decide', { id: pending[0].id, approve: true });
          break;
        }
      }
      return (await run).ms;
    });
    record('execute with 1 call, no approval, through the shim (p50)', p50(inline), 'ms');
    record('  + approval answered at once by the client (elicitation), overhead (p50)', p50(viaClient) - p50(inline), 'ms');
    record('  + approval through approvals.list/decide polled at once, overhead (p50)', p50(viaApi) - p50(inline), 'ms');

    const { runId } = await exec(plain, code);
    await control.call('skills.save', { runId, name: 'add', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } });
    for (let i = 0; i < 100; i++) {
      if ((await exec(plain, 'async () => typeof skills.add')).text.includes('function')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const skill = await timed(n, async () => (await exec(plain, 'async () => await skills.add({ a: 1, b: 2 })')).ms);
    record('  skills.add(input) instead of the same code inline, overhead (p50)', p50(skill) - p50(inline), 'ms');
  } finally {
    control?.close();
    for (const c of clients) await c.close().catch(() => {});
    await stopEngine(home);
    rmSync(home, { recursive: true, force: true });
  }
}

async function stopEngine(home: string): Promise<void> {
  const c = await SocketControlClient.connect(homePaths(home));
  if (!c) return;
  await c.call('engine.stop', {}).catch(() => {});
  c.close();
  for (let i = 0; i < 100 && (await SocketControlClient.connect(homePaths(home)).then((x) => (x?.close(), x))); i++) await new Promise((r) => setTimeout(r, 50));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchApprovalsSkills((metric, value) => console.log(`${metric.padEnd(76)} ${value.toFixed(2)} ms`), process.argv.includes('--quick'));
}
