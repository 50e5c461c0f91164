// Real client CLIs from npm, installed at test time into a cache folder outside the checkout:
// `switchboard connect` writes the entry into a temp user's files (Claude Code's through its own
// `claude mcp add-json`), runs the client's own listing (`claude mcp list`, `gemini mcp list`,
// `qwen mcp list`, `codex mcp list`, `opencode mcp list`) and reports that the client sees the
// entry; the listing is then run again here, by the test, to read it first-hand.
// Claude Code 2.1 and Qwen Code 0.24 say they need Node 22, but their listings run on Node 20:
// Claude Code is a native program (its postinstall copies the platform binary in place; run here
// as opencode's is), and Qwen Code's `mcp list` needs nothing newer. Installing the five takes
// ~60 s and ~1.4 GB on a cold npm cache; the cache folder is kept.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';

const run = promisify(execFile);

/** Pinned versions: the ones issue 24 was tried with. */
const CLIS = [
  { id: 'claude-code', pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude', setup: (u: string) => mkdirSync(path.join(u, '.claude'), { recursive: true }) },
  { id: 'qwen-code', pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen', setup: (u: string) => mkdirSync(path.join(u, '.qwen'), { recursive: true }) },
  { id: 'gemini-cli', pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', setup: (u: string) => mkdirSync(path.join(u, '.gemini'), { recursive: true }) },
  { id: 'codex', pkg: '@openai/codex', version: '0.171.0', bin: 'codex', setup: (u: string) => mkdirSync(path.join(u, '.codex'), { recursive: true }) },
  { id: 'opencode', pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode', setup: (u: string) => mkdirSync(path.join(u, '.config', 'opencode'), { recursive: true }) },
] as const;

const cacheDir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'switchboard', 'real-clients', CLIS.map((c) => `${c.pkg.replace('/', '+')}@${c.version}`).join(','));
const binDir = path.join(cacheDir, 'node_modules', '.bin');
let installError: string | undefined;

beforeAll(async () => {
  if (CLIS.every((c) => existsSync(path.join(binDir, c.bin)))) return;
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(path.join(cacheDir, 'package.json'), '{ "name": "switchboard-real-clients", "private": true }\n');
  try {
    // One npm call for all of them; outside the checkout, so its .npmrc does not apply. No install scripts are needed.
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', cacheDir, ...CLIS.map((c) => `${c.pkg}@${c.version}`)], { cwd: cacheDir, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
    // The install scripts needed: opencode-ai's links its platform binary, Claude Code's copies its
    // native program over the placeholder.
    await run(process.execPath, ['postinstall.mjs'], { cwd: path.join(cacheDir, 'node_modules', 'opencode-ai'), timeout: 60_000 });
    await run(process.execPath, ['install.cjs'], { cwd: path.join(cacheDir, 'node_modules', '@anthropic-ai', 'claude-code'), timeout: 60_000 });
  } catch (e) {
    installError = String((e as Error).message).split('\n').slice(0, 3).join(' ');
  }
}, 380_000);

const root = mkdtempSync(path.join(os.tmpdir(), 'sb-real-cli-'));
afterAll(async () => {
  await cleanupHomes();
  rmSync(root, { recursive: true, force: true });
});

describe('real client CLIs list the entry connect wrote', () => {
  it.each(CLIS)('$id: its own listing sees the entry, and connect says so', { timeout: 120_000 }, async (cli) => {
    const program = path.join(binDir, cli.bin);
    if (!existsSync(program)) {
      console.log(`skipped "${cli.id}: its own listing sees the entry": ${cli.pkg}@${cli.version} could not be installed (${installError ?? 'no binary after install'})`);
      return;
    }
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const user = mkdtempSync(path.join(root, `${cli.id}-`));
    const work = path.join(user, 'work');
    mkdirSync(work);
    cli.setup(user);
    const env = { PATH: `${binDir}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`, HOME: user, XDG_CONFIG_HOME: path.join(user, '.config') };
    const trust = cli.id === 'gemini-cli' || cli.id === 'qwen-code' ? ['--trust-folder', work] : [];
    const { stdout } = await run(process.execPath, [BIN, 'connect', cli.id, '--profile', 'demo', '--home', home, ...trust], { env, cwd: work, timeout: 90_000 });
    expect(stdout).toMatch(new RegExp(`^Checked: .* lists "switchboard-demo" (and connected to it|\\(")`, 'm'));
    // Codex's listing does not start servers; the others connected to the profile through the shim.
    if (cli.id !== 'codex') expect(stdout).toContain('lists "switchboard-demo" and connected to it');

    const listed = await run(program, ['mcp', 'list'], { env, cwd: work, timeout: 90_000 });
    const line = `${listed.stdout}\n${listed.stderr}`.split('\n').find((l) => /switchboard-demo\b/.test(l));
    expect(line, listed.stdout).toBeDefined();
    expect(line).not.toMatch(/failed|disconnected|disabled/i);
  });
});

// A fake model API on 127.0.0.1: it records every request Claude Code sends and answers each
// message with "done", so `claude -p` ends at once. What the model is told is what a user's
// session would be given: the profile's tools, by the names Claude Code calls them.
async function fakeModelApi(): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      bodies.push(body);
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(req.url?.includes('count_tokens') ? 200 : 404, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
        return;
      }
      const asked = JSON.parse(body) as { model?: string; stream?: boolean };
      const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: asked.model ?? 'fake', content: [] as unknown[], stop_reason: null as string | null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
      if (!asked.stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...message, content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (type: string, data: object): boolean => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event('message_start', { message });
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'done' } });
      event('content_block_stop', { index: 0 });
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } });
      event('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('Claude Code tells its model the tools of the profile it was connected to', () => {
  const profiles = [
    { surface: 'tools', want: ['mcp__switchboard-demo__basic__echo', 'mcp__switchboard-demo__basic__add'], not: ['mcp__switchboard-demo__execute'] },
    // A small code profile: its declarations fit in execute's description, so execute alone.
    { surface: 'code', want: ['mcp__switchboard-demo__execute'], not: ['mcp__switchboard-demo__basic__echo', 'mcp__switchboard-demo__search_tools'] },
  ] as const;
  it.each(profiles)('a $surface profile: its tools are in the request `claude -p` sends', { timeout: 120_000 }, async ({ surface, want, not }) => {
    const program = path.join(binDir, 'claude');
    if (!existsSync(program)) {
      console.log(`skipped "Claude Code tells its model the tools (${surface})": Claude Code could not be installed (${installError ?? 'no binary after install'})`);
      return;
    }
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'], surface } } });
    const user = mkdtempSync(path.join(root, `claude-model-${surface}-`));
    const work = path.join(user, 'work');
    mkdirSync(work);
    mkdirSync(path.join(user, '.claude'));
    const api = await fakeModelApi();
    try {
      const env = { PATH: `${binDir}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`, HOME: user };
      await run(process.execPath, [BIN, 'connect', 'claude-code', '--profile', 'demo', '--home', home], { env, cwd: work, timeout: 90_000 });
      const modelEnv = { ...env, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-fake-for-tests', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' };
      const { stdout } = await run(program, ['-p', 'hello'], { env: modelEnv, cwd: work, timeout: 90_000 });
      expect(stdout).toContain('done');
      const sent = api.bodies.filter((b) => b.includes('"messages"'));
      expect(sent.length).toBeGreaterThan(0);
      // Claude Code defers MCP tools: their names go in the request, their schemas on demand.
      for (const name of want) expect(sent.some((b) => b.includes(name)), `${name} in what Claude Code sent`).toBe(true);
      // Nothing of the other surface leaks into this one.
      for (const name of not) expect(sent.some((b) => b.includes(name)), `${name} in what Claude Code sent`).toBe(false);
    } finally {
      await api.close();
    }
  });
});
