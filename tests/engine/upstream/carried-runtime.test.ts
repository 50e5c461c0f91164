// `npx …` and `node …` servers on a computer without Node on PATH (the classic "spawn npx
// ENOENT"): a real `switchboard serve` whose PATH holds no node, npx or npm runs them with the
// Node and npm the app carries, offline, and they answer calls. uvx names uv as the missing program.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../../src-shared/api.ts';
import { carriedInvocation, carriedRuntime, findNpm, writeLaunchers } from '../../../src-main/engine/upstream/carried-runtime.ts';
import { resolveCommand } from '../../../src-main/engine/upstream/command-resolve.ts';
import { cleanupHomes, FIXTURES, makeHome, ROOT, waitFor } from '../../helpers/home.ts';
import { serve, type Served } from '../../helpers/serve.ts';

let s: Served;
let home: string;
let sysbin: string;

async function status(): Promise<StatusReport> {
  const r = await fetch(`${s.url}/api/status`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: '{}' });
  return ((await r.json()) as { result: StatusReport }).result;
}

beforeAll(async () => {
  home = makeHome({
    servers: {
      'by-node': { command: 'node', args: [path.join(FIXTURES, 'basic.mjs')] },
      // --offline: npm may not reach its registry; the package is in the app's node_modules (cwd).
      'by-npx': { command: 'npx', args: ['--offline', '@modelcontextprotocol/server-memory'], cwd: ROOT, env: { MEMORY_FILE_PATH: '' } },
      'by-uvx': { command: 'uvx', args: ['mcp-server-time'] },
    },
    profiles: { p: { servers: ['by-node', 'by-npx'] } },
  });
  // The config's MEMORY_FILE_PATH is filled here, where the home is known.
  const cfgFile = path.join(home, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
  cfg.servers['by-npx'].env.MEMORY_FILE_PATH = path.join(home, 'memory.jsonl');
  (await import('node:fs')).writeFileSync(cfgFile, JSON.stringify(cfg));
  // A PATH like a computer without Node: only a shell (npm runs package bins through `sh`).
  sysbin = path.join(home, 'sysbin');
  mkdirSync(sysbin);
  symlinkSync('/bin/sh', path.join(sysbin, 'sh'));
  // No SHELL (so no login shell adds its PATH) and a HOME without ~/.nvm, ~/.volta, ~/.asdf.
  s = await serve(home, { PATH: sysbin, HOME: home }, { onlyEnv: true });
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await cleanupHomes();
});

describe.runIf(process.platform !== 'win32')('the runtime Switchboard carries', () => {
  it('the engine in this test really has no node, npx or npm on its PATH', async () => {
    // The engine adds the usual install folders that exist (command-resolve.ts): /usr/local/bin here.
    const searched = [sysbin, '/usr/local/bin', '/opt/homebrew/bin'].join(':');
    for (const c of ['node', 'npx', 'npm']) expect((await resolveCommand(c, { env: { PATH: searched } })).path).toBeNull();
  });

  it('runs a `node SCRIPT` server and an `npx PACKAGE` server (whose bin needs `node` on PATH) to ready, and both answer calls', async () => {
    const st = await waitFor(async () => {
      const r = await status();
      const done = ['by-node', 'by-npx'].every((n) => r.servers[n]?.state === 'ready' || r.servers[n]?.state === 'failed');
      return done ? r : undefined;
    }, 45_000, 'by-node and by-npx to start');
    expect(st.servers['by-node']).toMatchObject({ state: 'ready', lastError: null });
    expect(st.servers['by-npx']).toMatchObject({ state: 'ready', lastError: null });

    const c = new Client({ name: 'carried-runtime-test', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/p`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    try {
      const echo = (await c.callTool({ name: 'by-node__echo', arguments: { text: 'no node on PATH' } })) as CallToolResult;
      expect(echo.content).toEqual([{ type: 'text', text: 'no node on PATH' }]);
      const made = (await c.callTool({
        name: 'by-npx__create_entities',
        arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
      })) as CallToolResult;
      expect(made.isError).toBeFalsy();
      const graph = (await c.callTool({ name: 'by-npx__read_graph', arguments: {} })) as CallToolResult;
      expect(JSON.stringify(graph.content)).toContain('wrote the first program');
    } finally {
      await c.close();
    }
    // The server's log says which Node ran it.
    const log = readFileSync(path.join(home, 'logs', 'by-npx.log'), 'utf8');
    expect(log).toContain('running it with the Node.js that comes with Switchboard');
  });

  it('names uv as what to install when `uvx` is missing, with the folders it looked in', async () => {
    const st = await waitFor(async () => {
      const r = await status();
      return r.servers['by-uvx']?.state === 'failed' ? r : undefined;
    }, 20_000, 'by-uvx to fail');
    expect(st.servers['by-uvx']!.missingProgram).toMatchObject({ program: 'uv', command: 'uvx' });
    expect(st.servers['by-uvx']!.missingProgram!.searched[0]).toBe(sysbin);
    expect(st.servers['by-uvx']!.lastError).toMatch(/^by-uvx: the command "uvx" was not found on PATH \(looked in /);
  });
});

describe('carriedRuntime', () => {
  it('is this node with the npm beside it under plain Node', () => {
    const rt = carriedRuntime({ execPath: '/usr/bin/node', electron: false, env: {}, appRoot: home });
    expect(rt).toMatchObject({ node: '/usr/bin/node', nodeEnv: {} });
    expect(rt!.npmDir).toBe(findNpm(home, '/usr/bin/node'));
    expect(carriedInvocation(rt!, 'node', ['a.js'])).toEqual({ command: '/usr/bin/node', args: ['a.js'] });
  });

  it('runs the Electron binary as node (ELECTRON_RUN_AS_NODE), also in the launchers its servers find on PATH', () => {
    const rt = carriedRuntime({ execPath: '/opt/App/electron', electron: true, env: {}, appRoot: home })!;
    expect(rt.nodeEnv).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
    const dir = writeLaunchers(path.join(home, 'launchers'), { ...rt, npmDir: '/opt/App/npm' }, 'linux');
    expect(readFileSync(path.join(dir, 'node'), 'utf8')).toBe(`#!/bin/sh\nELECTRON_RUN_AS_NODE='1' exec '/opt/App/electron' "$@"\n`);
    expect(readFileSync(path.join(dir, 'npx'), 'utf8')).toContain(`'/opt/App/electron' '/opt/App/npm/bin/npx-cli.js' "$@"`);
  });

  it('is the shim in the packaged app, whose own binary cannot act as node: `switchboard node SCRIPT`, npm from app.asar.unpacked', () => {
    const rt = carriedRuntime({ execPath: '/opt/App/switchboard-desktop', electron: true, env: { SWITCHBOARD_SHIM_PATH: '/opt/App/bin/switchboard' }, appRoot: home })!;
    expect(rt).toMatchObject({ node: '/opt/App/bin/switchboard', nodeArgs: ['node'], nodeEnv: {} });
    expect(carriedInvocation({ ...rt, npmDir: '/opt/App/npm' }, 'npx', ['-y', 'pkg'])).toEqual({ command: '/opt/App/bin/switchboard', args: ['node', '/opt/App/npm/bin/npx-cli.js', '-y', 'pkg'] });
    const dir = writeLaunchers(path.join(home, 'packaged-launchers'), { ...rt, npmDir: '/opt/App/npm' }, 'linux');
    expect(readFileSync(path.join(dir, 'node'), 'utf8')).toBe(`#!/bin/sh\nexec '/opt/App/bin/switchboard' 'node' "$@"\n`);
  });

  it.runIf(process.platform !== 'win32')('replaces a link or a pipe planted under a launcher\'s name, never writing where the link points nor waiting on the pipe', () => {
    const rt = carriedRuntime({ execPath: '/usr/bin/node', electron: false, env: {}, appRoot: home })!;
    const dir = path.join(home, 'planted-launchers');
    mkdirSync(dir, { recursive: true });
    const outside = path.join(home, 'dotfile');
    writeFileSync(outside, 'mine\n');
    symlinkSync(outside, path.join(dir, 'node'));
    execFileSync('mkfifo', [path.join(dir, 'npx')]);
    const t0 = Date.now();
    writeLaunchers(dir, { ...rt, npmDir: '/opt/npm' }, 'linux');
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(readFileSync(outside, 'utf8')).toBe('mine\n');
    for (const name of ['node', 'npx']) {
      expect(lstatSync(path.join(dir, name)).isFile()).toBe(true);
      expect(readFileSync(path.join(dir, name), 'utf8')).toMatch(/^#!\/bin\/sh\n/);
    }
  });
});
