// The native shim (native/shim) as MCP clients run it: an absolute command with an empty PATH.
// What it shares with the Node shim (relaying, reconnecting, one engine for many shims) runs
// against both in tests/engine/gateway/tools-surface.test.ts; this file covers what only a
// binary does: how it starts an engine (a checkout build's engine-command.json, the installed
// app's layout, SWITCHBOARD_ENGINE_COMMAND) and `switchboard node` in the installed app.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ENGINE_MALLOC_TUNABLES, ENGINE_NODE_FLAGS } from '../../src-main/shim/engine-launch.mjs';
import { BIN, NATIVE_SHIM_UNAVAILABLE, ROOT, cleanupHomes, enginePid, writeStandInApp, fixtureServer, makeHome, nativeShim, waitFor } from '../helpers/home.ts';

const CONFIG = { servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } };

let checkoutShim = '';
let app = '';
let installedShim = '';
const clients: Client[] = [];

beforeAll(() => {
  if (NATIVE_SHIM_UNAVAILABLE) return;
  checkoutShim = nativeShim();
  // The installed layout: <app>/resources/bin/switchboard, with no engine-command.json.
  app = mkdtempSync(path.join(os.tmpdir(), 'sb-native-app-'));
  const bin = path.join(app, 'resources', 'bin');
  mkdirSync(bin, { recursive: true });
  installedShim = path.join(bin, 'switchboard');
  copyFileSync(checkoutShim, installedShim);
  chmodSync(installedShim, 0o755);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await cleanupHomes();
  if (app) rmSync(app, { recursive: true, force: true });
});

async function client(shim: string, home: string, env: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'native-test', version: '1.0.0' }, { capabilities: {} });
  await c.connect(new StdioClientTransport({ command: shim, args: ['shim', '--profile', 'p', '--home', home], env: { PATH: '', ...env }, stderr: 'pipe' }));
  clients.push(c);
  return c;
}

/** How a shim whose stdin stays open (as a waiting client's does) ended, and what it said. */
async function exitOf(child: ChildProcess): Promise<{ status: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { status, stderr };
}

async function toolNames(c: Client): Promise<string[]> {
  return waitFor(async () => {
    const names = (await c.listTools()).tools.map((t) => t.name);
    return names.includes('basic__echo') ? names : undefined;
  }, 20_000, 'basic to be ready');
}

describe.skipIf(NATIVE_SHIM_UNAVAILABLE)('the native shim', () => {
  it('is built with no crates: Cargo.toml has no dependencies and Cargo.lock names only the shim', () => {
    const manifest = readFileSync(path.join(ROOT, 'native/shim/Cargo.toml'), 'utf8');
    expect(manifest).toMatch(/\[dependencies\]\s*\n(\s*\n|\[)/);
    const lock = readFileSync(path.join(ROOT, 'native/shim/Cargo.lock'), 'utf8');
    expect([...lock.matchAll(/^name = "(.*)"$/gm)].map((m) => m[1])).toEqual(['switchboard-shim']);
  });

  it('prints the version of package.json and refuses other commands, as the Node shim does', () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const v = spawnSync(checkoutShim, ['--version'], { encoding: 'utf8', env: { PATH: '' } });
    expect(v.status).toBe(0);
    expect(v.stdout).toBe(`switchboard shim ${version} (native)\n`);
    const other = spawnSync(checkoutShim, ['status'], { encoding: 'utf8', env: { PATH: '' } });
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/switchboard shim --profile NAME.*\n.*in the Switchboard app/);
    const noProfile = spawnSync(checkoutShim, ['shim', '--home', '/tmp'], { encoding: 'utf8', env: { PATH: '' } });
    expect(noProfile.status).toBe(2);
    expect(noProfile.stderr).toBe('switchboard shim: missing --profile NAME (the Switchboard profile this client uses)\n');
  });

  it('relays a real MCP client to a running engine, with no PATH', async () => {
    const home = makeHome(CONFIG);
    const engine = spawn(process.execPath, [BIN, 'engine', '--home', home], { stdio: 'ignore', detached: true });
    engine.unref();
    await waitFor(() => existsSync(path.join(home, 'run', 'engine.sock')) && enginePid(home), 30_000, 'the engine to listen');
    const c = await client(checkoutShim, home);
    expect(await toolNames(c)).toEqual(expect.arrayContaining(['basic__echo', 'basic__add']));
    expect(enginePid(home)).toBe(engine.pid);
  });

  it('in a checkout, starts the engine with the node its build recorded, into the home log', async () => {
    const sidecar = JSON.parse(readFileSync(path.join(path.dirname(checkoutShim), 'engine-command.json'), 'utf8'));
    expect(sidecar).toEqual([process.execPath, ...ENGINE_NODE_FLAGS, BIN, 'engine']);
    const home = makeHome(CONFIG);
    const c = await client(checkoutShim, home);
    expect(await toolNames(c)).toContain('basic__add');
    expect(enginePid(home)).toBeGreaterThan(0);
    expect(existsSync(path.join(home, 'logs', 'engine.out.log'))).toBe(true);
    // The engine runs with the node flags that bound its memory.
    expect(readFileSync(`/proc/${enginePid(home)}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([...ENGINE_NODE_FLAGS]));
    // glibc parses GLIBC_TUNABLES in place, turning its ':' into NULs in the environment block.
    expect(readFileSync(`/proc/${enginePid(home)}/environ`, 'utf8').replaceAll('\0', ':')).toContain(`GLIBC_TUNABLES=${ENGINE_MALLOC_TUNABLES}`);
  });

  it('starts the engine named by SWITCHBOARD_ENGINE_COMMAND, and refuses one that is not a JSON array', async () => {
    const home = makeHome(CONFIG);
    const c = await client(installedShim, home, { SWITCHBOARD_ENGINE_COMMAND: JSON.stringify([process.execPath, BIN, 'engine']) });
    expect(await toolNames(c)).toContain('basic__echo');
    const bad = await exitOf(spawn(installedShim, ['shim', '--profile', 'p', '--home', makeHome(CONFIG)], { env: { PATH: '', SWITCHBOARD_ENGINE_COMMAND: 'node engine' }, stdio: ['pipe', 'ignore', 'pipe'] }));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/SWITCHBOARD_ENGINE_COMMAND must be a JSON array of strings, the command first/);
  });

  it('starts the desktop app hidden from the installed layout when none runs', async () => {
    const home = makeHome(CONFIG);
    const argsFile = writeStandInApp(app, home);
    const c = await client(installedShim, home);
    expect(await toolNames(c)).toContain('basic__echo');
    expect(JSON.parse(readFileSync(argsFile, 'utf8'))).toEqual(['--hidden', '--home', home]);
  });

  it('says which log to read when no engine comes up', async () => {
    // The installed layout with no app beside it: nothing to start.
    const lone = mkdtempSync(path.join(os.tmpdir(), 'sb-native-lone-'));
    try {
      const shim = path.join(lone, 'switchboard');
      copyFileSync(checkoutShim, shim);
      chmodSync(shim, 0o755);
      const home = makeHome(CONFIG);
      // stdin stays open, as a client's does while it waits.
      const { status, stderr } = await exitOf(spawn(shim, ['shim', '--profile', 'p', '--home', home], { env: { PATH: '' }, stdio: ['pipe', 'ignore', 'pipe'] }));
      expect(status).toBe(2);
      expect(stderr).toMatch(/could not start the engine with .*switchboard-desktop/);
      expect(stderr).toContain(`could not reach the Switchboard engine for ${home}`);
      expect(stderr).toContain(path.join(home, 'logs', 'engine.out.log'));
    } finally {
      rmSync(lone, { recursive: true, force: true });
    }
  }, 45_000);

  it('runs `switchboard node SCRIPT` with switchboard-node beside it, and says so when that is missing', () => {
    const missing = spawnSync(installedShim, ['node', '/x/server.cjs'], { encoding: 'utf8', env: { PATH: '' } });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/switchboard-node beside it, which is missing; reinstall Switchboard/);
    // A stand-in for the Node single-executable shim: prints what it was given.
    const runner = path.join(path.dirname(installedShim), 'switchboard-node');
    writeFileSync(runner, `#!${process.execPath}\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)));\nprocess.exitCode = 3;\n`);
    chmodSync(runner, 0o755);
    try {
      const r = spawnSync(installedShim, ['node', '/x/server.cjs', 'stdio'], { encoding: 'utf8', env: { PATH: '' } });
      expect(r.status).toBe(3);
      expect(JSON.parse(r.stdout)).toEqual(['node', '/x/server.cjs', 'stdio']);
    } finally {
      rmSync(runner);
    }
  });

  it('npm run build:native-shim says what to install when cargo is missing, and that the Node shim still works', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-native-shim.mjs'), '--out', path.join(app, 'never')], { encoding: 'utf8', env: { PATH: '' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cargo was not found on PATH\. The native shim is built with Rust \(https:\/\/rustup\.rs.*no crates are downloaded\)\. Without it, client configs use the Node shim/);
    expect(existsSync(path.join(app, 'never'))).toBe(false);
  });

  it('ends when the client closes stdin before any engine answers', () => {
    const home = makeHome(CONFIG);
    const r = spawnSync(checkoutShim, ['shim', '--profile', 'p', '--home', home], { input: '', env: { PATH: '', SWITCHBOARD_ENGINE_COMMAND: JSON.stringify(['/bin/true']) }, timeout: 10_000 });
    expect(r.status).toBe(0);
  });
});
