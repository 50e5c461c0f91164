import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateConfigValue } from '../../../src-shared/config/validate.ts';
import { defaultConfig, defaultDemoServersDir } from '../../../src-main/engine/config/default-config.ts';
import { ConfigStore } from '../../../src-main/engine/config/store.ts';

let home: string;

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'sb-default-'));
});

afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

interface Server {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

describe('defaultConfig', () => {
  it('passes the schema and offers the demo profiles on both surfaces', () => {
    const result = validateConfigValue(defaultConfig({ home, nodePath: process.execPath }));
    expect(result.ok ? [] : result.problems).toEqual([]);
    if (!result.ok) return;
    expect(Object.keys(result.config.servers).sort()).toEqual(['everything', 'files', 'memory']);
    expect(result.config.profiles.demo).toMatchObject({ surface: 'tools' });
    expect(result.config.profiles['demo-code']).toMatchObject({ surface: 'code' });
    expect(result.config.profiles.demo?.servers.sort()).toEqual(['everything', 'files', 'memory']);
  });

  it('starts every server by absolute path with the given node, never through npx', () => {
    const cfg = defaultConfig({ home, nodePath: process.execPath }) as { servers: Record<string, Server> };
    for (const server of Object.values(cfg.servers)) {
      expect(server.command).toBe(process.execPath);
      expect(path.isAbsolute(server.args[0]!)).toBe(true);
      expect(existsSync(server.args[0]!)).toBe(true);
    }
    expect(JSON.stringify(cfg)).not.toContain('npx');
    expect(cfg.servers.everything?.args[1]).toBe('stdio');
    expect(cfg.servers.memory?.env?.MEMORY_FILE_PATH).toBe(path.join(home, 'demo', 'memory.jsonl'));
    expect(cfg.servers.files?.args[1]).toBe(path.join(home, 'demo', 'files'));
    expect(readFileSync(path.join(home, 'demo', 'files', 'README.txt'), 'utf8')).toContain('Switchboard');
  });

  it('keeps a README the user changed', () => {
    defaultConfig({ home, nodePath: process.execPath });
    const readme = path.join(home, 'demo', 'files', 'README.txt');
    writeFileSync(readme, 'my notes');
    defaultConfig({ home, nodePath: process.execPath });
    expect(readFileSync(readme, 'utf8')).toBe('my notes');
  });

  it('is what a first run writes, and its servers answer MCP', async () => {
    const store = await ConfigStore.open({ file: path.join(home, 'config.json'), stateDir: home, watch: false, createDefault: () => defaultConfig({ home, nodePath: process.execPath }) });
    store.dispose();
    expect(store.status.valid).toBe(true);
    const servers = store.raw.servers as Record<string, Server>;
    await Promise.all(
      Object.entries(servers).map(async ([name, s]) => {
        const client = new Client({ name: 'default-config-test', version: '1.0.0' });
        await client.connect(new StdioClientTransport({ command: s.command, args: s.args, env: s.env, stderr: 'ignore' }));
        try {
          const { tools } = await client.listTools();
          expect(tools.length, name).toBeGreaterThan(0);
        } finally {
          await client.close();
        }
      }),
    );
  }, 30_000);
});

describe('defaultConfig in the packaged app', () => {
  const shim = '/Applications/Switchboard.app/Contents/Resources/bin/switchboard';

  function bundlesIn(names: string[]): string {
    const dir = path.join(home, 'bundles');
    mkdirSync(dir, { recursive: true });
    for (const name of names) writeFileSync(path.join(dir, `${name}.cjs`), '');
    return dir;
  }

  it('runs the bundled servers with the shim binary named by SWITCHBOARD_SHIM_PATH', () => {
    const dir = bundlesIn(['everything', 'memory', 'filesystem']);
    const cfg = defaultConfig({ home, nodePath: '/electron', env: { SWITCHBOARD_SHIM_PATH: shim }, demoServersDir: dir }) as { servers: Record<string, Server> };
    expect(cfg.servers.everything).toEqual({ command: shim, args: ['node', path.join(dir, 'everything.cjs'), 'stdio'] });
    expect(cfg.servers.memory).toEqual({ command: shim, args: ['node', path.join(dir, 'memory.cjs')], env: { MEMORY_FILE_PATH: path.join(home, 'demo', 'memory.jsonl') } });
    expect(cfg.servers.files).toEqual({ command: shim, args: ['node', path.join(dir, 'filesystem.cjs'), path.join(home, 'demo', 'files')] });
    const result = validateConfigValue(cfg);
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it('keeps node and the package for a server whose bundle is missing', () => {
    const dir = bundlesIn(['everything']);
    const cfg = defaultConfig({ home, nodePath: process.execPath, env: { SWITCHBOARD_SHIM_PATH: shim }, demoServersDir: dir }) as { servers: Record<string, Server> };
    expect(cfg.servers.everything?.command).toBe(shim);
    expect(cfg.servers.memory?.command).toBe(process.execPath);
    expect(cfg.servers.memory?.args[0]).toMatch(/server-memory[\\/]dist[\\/]index\.js$/);
  });

  it('ignores the bundles when no shim path is given (a checkout, or the CLI)', () => {
    const dir = bundlesIn(['everything', 'memory', 'filesystem']);
    const cfg = defaultConfig({ home, nodePath: process.execPath, env: {}, demoServersDir: dir }) as { servers: Record<string, Server> };
    for (const server of Object.values(cfg.servers)) expect(server.command).toBe(process.execPath);
  });

  it('looks for the bundles outside app.asar, where the shim binary can read them', () => {
    const resources = path.join(path.sep, 'opt', 'Switchboard', 'resources');
    expect(defaultDemoServersDir(path.join(resources, 'app.asar'))).toBe(path.join(resources, 'app.asar.unpacked', 'out', 'demo-servers'));
    expect(defaultDemoServersDir(path.join(path.sep, 'src', 'switchboard'))).toBe(path.join(path.sep, 'src', 'switchboard', 'out', 'demo-servers'));
  });
});
