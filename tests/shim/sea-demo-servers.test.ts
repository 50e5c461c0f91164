// The demo's reference servers in the packaged app: scripts/build-demo-servers.mjs bundles them and
// scripts/build-shim-sea.mjs builds the real shim binary, both into a temp copy of the installed
// layout; a real MCP client then starts each server as `switchboard node <bundle>` with an empty
// PATH, so no node can be found: the shim binary carries its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildDemoServers } from '../../scripts/build-demo-servers.mjs';
import { buildShimSea } from '../../scripts/build-shim-sea.mjs';
import { validateConfigValue } from '../../src-shared/config/validate.ts';
import { defaultConfig } from '../../src-main/engine/config/default-config.ts';
import { carriedInvocation, carriedRuntime, writeLaunchers } from '../../src-main/engine/upstream/carried-runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

// Same platforms as sea-shim.test.ts: building the SEA is set up on Linux and macOS only.
const canBuild = process.platform === 'linux' || process.platform === 'darwin';
if (!canBuild) console.log(`sea-demo-servers tests skipped: building the packaged shim is not set up on ${process.platform}`);

let app = '';
let shim = '';
let bundlesDir = '';
let work = '';
const clients: Client[] = [];

beforeAll(async () => {
  if (!canBuild) return;
  app = mkdtempSync(path.join(os.tmpdir(), 'sb-sea-demo-app-'));
  work = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sb-sea-demo-work-')));
  const quiet = (): void => undefined;
  const resources = path.join(app, 'resources');
  ({ outDir: bundlesDir } = await buildDemoServers({ outDir: path.join(resources, 'app.asar.unpacked', 'out', 'demo-servers'), log: quiet }));
  ({ binary: shim } = await buildShimSea({ outDir: path.join(resources, 'bin'), log: quiet }));
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const dir of [app, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A real MCP client whose server the shim binary runs, with no node on PATH. */
async function connect(command: string, args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sea-demo-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env: { PATH: '', ...env }, stderr: 'ignore' }));
  clients.push(client);
  return client;
}

function bundle(name: string): string {
  return path.join(bundlesDir, `${name}.cjs`);
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((c) => c.text ?? '').join('\n');
}

describe.skipIf(!canBuild)('the demo servers under the packaged shim', () => {
  it('bundles each server into one file that requires nothing but Node builtins', () => {
    const builtins = new Set(builtinModules);
    for (const name of ['everything', 'memory', 'filesystem']) {
      const source = readFileSync(bundle(name), 'utf8');
      // Calls only: ajv carries require("ajv/…") inside strings of the code it can generate.
      const required = [...source.matchAll(/(?<!['`])\brequire\("([^"]+)"\)/g)].map((m) => m[1]!.replace(/^node:/, ''));
      expect(required.length, name).toBeGreaterThan(0);
      expect(required.filter((r) => !builtins.has(r)), name).toEqual([]);
      expect(source, name).not.toMatch(/^\s*(import|export)\s/m);
    }
  });

  it('runs everything: echo answers, and its instructions are read from the copied docs', async () => {
    const client = await connect(shim, ['node', bundle('everything'), 'stdio']);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'hello from the shim' } }))).toContain('hello from the shim');
    expect(client.getInstructions()).toMatch(/Everything Server/);
  });

  it('runs memory: what it stores lands in MEMORY_FILE_PATH and read_graph returns it', async () => {
    const memoryFile = path.join(work, 'memory.jsonl');
    const client = await connect(shim, ['node', bundle('memory')], { MEMORY_FILE_PATH: memoryFile });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
    await client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'shim', entityType: 'binary', observations: ['runs servers'] }] } });
    expect(text(await client.callTool({ name: 'read_graph', arguments: {} }))).toContain('runs servers');
    expect(readFileSync(memoryFile, 'utf8')).toContain('"shim"');
  });

  it('runs filesystem over the folder it is given', async () => {
    const dir = mkdtempSync(path.join(work, 'files-'));
    const client = await connect(shim, ['node', bundle('filesystem'), dir]);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_allowed_directories');
    expect(text(await client.callTool({ name: 'list_allowed_directories', arguments: {} }))).toContain(dir);
  });

  it('runs an ES module server from disk as node would (server-memory as npm installs it)', async () => {
    const memoryFile = path.join(work, 'esm-memory.jsonl');
    const entry = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
    const client = await connect(shim, ['node', entry], { MEMORY_FILE_PATH: memoryFile });
    await client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'esm', entityType: 'module', observations: ['loaded by the shim'] }] } });
    expect(readFileSync(memoryFile, 'utf8')).toContain('"esm"');
  });

  it("lends the packaged app's Node to an `npx` server on a computer without Node", async () => {
    // The engine in the packaged app: Electron cannot act as node, so the shim is the runtime it lends.
    const rt = carriedRuntime({ execPath: '/opt/App/switchboard-desktop', electron: true, env: { SWITCHBOARD_SHIM_PATH: shim }, appRoot: ROOT })!;
    expect(rt.npmDir).not.toBeNull();
    const lent = carriedInvocation(rt, 'npx', ['--offline', '@modelcontextprotocol/server-memory'])!;
    const launchers = writeLaunchers(mkdtempSync(path.join(work, 'launchers-')), rt);
    // Only a shell (npm runs package bins through `sh`) and the launchers: no node, npx or npm.
    const sysbin = mkdtempSync(path.join(work, 'sysbin-'));
    symlinkSync('/bin/sh', path.join(sysbin, 'sh'));
    const memoryFile = path.join(work, 'npx-memory.jsonl');
    const client = new Client({ name: 'sea-npx-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: lent.command, args: lent.args, cwd: ROOT, stderr: 'ignore',
        env: { PATH: `${sysbin}${path.delimiter}${launchers}`, HOME: work, npm_config_cache: path.join(work, 'npm-cache'), MEMORY_FILE_PATH: memoryFile },
      }),
    );
    clients.push(client);
    await client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'npx', entityType: 'package', observations: ['lent node'] }] } });
    expect(text(await client.callTool({ name: 'read_graph', arguments: {} }))).toContain('lent node');
    expect(readFileSync(memoryFile, 'utf8')).toContain('"npx"');
  }, 60_000);

  it('refuses a Node option or a missing script with a sentence that says why', () => {
    const option = spawnSync(shim, ['node', '--inspect'], { encoding: 'utf8', env: { PATH: '' } });
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(/Node options such as --inspect are not taken here/);
    const missing = spawnSync(shim, ['node', path.join(work, 'missing.cjs')], { encoding: 'utf8', env: { PATH: '' } });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/missing\.cjs does not exist/);
  });

  it('is what the packaged first run configures, and every demo server answers MCP', async () => {
    const home = mkdtempSync(path.join(work, 'home-'));
    const config = defaultConfig({ home, nodePath: '/nonexistent/electron', env: { SWITCHBOARD_SHIM_PATH: shim }, demoServersDir: bundlesDir });
    const result = validateConfigValue(config);
    expect(result.ok ? [] : result.problems).toEqual([]);
    const servers = (config as { servers: Record<string, { command: string; args: string[]; env?: Record<string, string> }> }).servers;
    await Promise.all(
      Object.entries(servers).map(async ([name, s]) => {
        expect(s.command, name).toBe(shim);
        const client = await connect(s.command, s.args, s.env);
        expect((await client.listTools()).tools.length, name).toBeGreaterThan(0);
      }),
    );
  }, 30_000);
});
