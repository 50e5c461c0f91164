// The packaged shim end to end: scripts/build-shim-sea.mjs builds the real single-executable
// binary into a temp copy of the installed layout (<app>/resources/bin/switchboard), and a real
// MCP client runs it with an empty PATH, so no node can be found: the binary carries its own.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, ROOT, cleanupHomes, enginePid, writeStandInApp, fixtureServer, makeHome, waitFor } from '../helpers/home.ts';

// The SEA fuse and postject's injection are exercised on Linux and macOS here; Windows builds
// need signtool-free runs of an unsigned copy, which CI covers separately.
const canBuild = process.platform === 'linux' || process.platform === 'darwin';
if (!canBuild) console.log(`sea-shim tests skipped: building the packaged shim is not set up on ${process.platform}`);

const CONFIG = { servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } };

let app = '';
let shim = '';
const clients: Client[] = [];

beforeAll(() => {
  if (!canBuild) return;
  app = mkdtempSync(path.join(os.tmpdir(), 'sb-sea-app-'));
  const bin = path.join(app, 'resources', 'bin');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-shim-sea.mjs'), '--out', bin], { stdio: 'pipe', timeout: 120_000 });
  shim = path.join(bin, 'switchboard');
}, 150_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await cleanupHomes();
  if (app) rmSync(app, { recursive: true, force: true });
});

/** A real MCP client whose server is the packaged shim, started with no node on PATH. */
async function seaClient(home: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sea-test', version: '1.0.0' }, { capabilities: {} });
  const transport = new StdioClientTransport({ command: shim, args: ['shim', '--profile', 'p', '--home', home], env: { PATH: '', ...env }, stderr: 'pipe' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function toolNames(client: Client): Promise<string[]> {
  return waitFor(async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    return names.includes('basic__echo') ? names : undefined;
  }, 20_000, 'basic to be ready');
}

describe.skipIf(!canBuild)('the packaged shim (single executable)', () => {
  it('needs no node on PATH: the PATH the tests give it is empty', () => {
    // The client's command is absolute and its env PATH is ''; node is not reachable by name.
    expect(spawnSync('node', ['--version'], { env: { PATH: '' } }).error).toBeDefined();
    expect(existsSync(shim)).toBe(true);
  });

  it('prints its version and refuses commands other than shim with a clear message', () => {
    const v = spawnSync(shim, ['--version'], { encoding: 'utf8', env: { PATH: '' } });
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^switchboard shim \d+\.\d+\.\d+ \(node v\d+/);
    const other = spawnSync(shim, ['status'], { encoding: 'utf8', env: { PATH: '' } });
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/switchboard shim --profile NAME.*\n.*in the Switchboard app/);
  });

  it('relays a real MCP client to a running engine', async () => {
    const home = makeHome(CONFIG);
    const engine = spawn(process.execPath, [BIN, 'engine', '--home', home], { stdio: 'ignore', detached: true });
    engine.unref();
    await waitFor(() => existsSync(path.join(home, 'run', 'engine.sock')) && enginePid(home), 30_000, 'the engine to listen');
    const client = await seaClient(home);
    const names = await toolNames(client);
    expect(names).toEqual(expect.arrayContaining(['basic__echo', 'basic__add']));
    expect(enginePid(home)).toBe(engine.pid);
  });

  it('starts the engine named by SWITCHBOARD_ENGINE_COMMAND when none runs', async () => {
    const home = makeHome(CONFIG);
    const client = await seaClient(home, { SWITCHBOARD_ENGINE_COMMAND: JSON.stringify([process.execPath, BIN, 'engine']) });
    expect(await toolNames(client)).toContain('basic__add');
    expect(enginePid(home)).toBeGreaterThan(0);
  });

  it('starts the desktop app hidden from the installed layout when none runs', async () => {
    const home = makeHome(CONFIG);
    const argsFile = writeStandInApp(app, home);
    const client = await seaClient(home);
    expect(await toolNames(client)).toContain('basic__echo');
    expect(JSON.parse(readFileSync(argsFile, 'utf8'))).toEqual(['--hidden', '--home', home]);
  });
});
