import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateConfigValue } from '../../../src-shared/config/validate.ts';
import { defaultConfig } from '../../../src-main/engine/config/default-config.ts';
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
