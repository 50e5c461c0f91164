// Every known client, on a fixture of its own file format: connect writes one entry and nothing
// else, a real MCP client (SDK Client over stdio) started from exactly that entry lists the
// profile's tools through the shim and engine, and disconnect gives back the original bytes.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_SPECS, type ClientSpec } from '../../../src-main/engine/clients/client-specs.ts';
import { defaultShimEntry } from '../../../src-main/engine/clients/shim-entry.ts';
import { cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';
import { FIXTURES, singleInsertion, tempUser, toolsFromEntry } from './helpers.ts';

const u = tempUser();
const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
const shim = defaultShimEntry(home, false, 'demo');

afterAll(async () => {
  await cleanupHomes();
  u.cleanup();
});

/** A fixture holding other servers, comments or odd layout, in the format of the client's file. */
function fixtureFor(spec: ClientSpec): string {
  if (spec.format === 'toml') return 'codex-config.toml';
  if (spec.format === 'yaml') return spec.container[0] === 'extensions' ? 'goose-config.yaml' : 'continue-config.yaml';
  switch (spec.container.join('.')) {
    case 'servers':
      return 'vscode-mcp.json';
    case 'context_servers':
      return 'zed-settings.json';
    case 'amp.mcpServers':
      return 'amp-settings.json';
    case 'mcp':
      return 'opencode.jsonc';
    default:
      return 'several-servers.json';
  }
}

/** How the client turns its entry into a process: opencode keeps the command and args in one array, Goose says cmd/envs. */
function launch(entry: Record<string, unknown>): { command: string; args: string[]; env: Record<string, string> } {
  const cmd = entry.command ?? entry.cmd;
  const env = (entry.env ?? entry.environment ?? entry.envs ?? {}) as Record<string, string>;
  if (Array.isArray(cmd)) return { command: cmd[0] as string, args: cmd.slice(1) as string[], env };
  return { command: cmd as string, args: (entry.args ?? []) as string[], env };
}

describe('the client list', () => {
  it('knows at least 25 clients, each with a source, a next step and a path on every OS', () => {
    expect(CLIENT_SPECS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(CLIENT_SPECS.map((s) => s.id)).size).toBe(CLIENT_SPECS.length);
    for (const s of CLIENT_SPECS) {
      expect(s.source.length, s.id).toBeGreaterThan(10);
      expect(s.nextStep.length, s.id).toBeGreaterThan(10);
      for (const platform of ['darwin', 'win32', 'linux'] as const) {
        const pth = platform === 'win32' ? path.win32 : path.posix;
        const userHome = platform === 'win32' ? 'C:\\Users\\me' : platform === 'darwin' ? '/Users/me' : '/home/me';
        const env = platform === 'win32' ? { USERPROFILE: userHome, APPDATA: 'C:\\Users\\me\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' } : { HOME: userHome };
        const file = s.configPath({ env, platform });
        expect(pth.isAbsolute(file), `${s.id} on ${platform}: ${file}`).toBe(true);
        expect(file.startsWith(userHome), `${s.id} on ${platform}: ${file}`).toBe(true);
      }
    }
  });

  it('puts each client where its docs say, on macOS and Windows too', () => {
    const mac = (id: string) => CLIENT_SPECS.find((s) => s.id === id)!.configPath({ env: { HOME: '/Users/me' }, platform: 'darwin' });
    const win = (id: string) =>
      CLIENT_SPECS.find((s) => s.id === id)!.configPath({ env: { USERPROFILE: 'C:\\Users\\me', APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, platform: 'win32' });
    expect(mac('cline')).toBe('/Users/me/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json');
    expect(win('roo-code')).toBe('C:\\Users\\me\\AppData\\Roaming\\Code\\User\\globalStorage\\rooveterinaryinc.roo-cline\\settings\\mcp_settings.json');
    expect(mac('vscode-insiders')).toBe('/Users/me/Library/Application Support/Code - Insiders/User/mcp.json');
    expect(win('visual-studio')).toBe('C:\\Users\\me\\.mcp.json');
    expect(win('amp')).toBe('C:\\Users\\me\\.config\\amp\\settings.json');
    expect(mac('copilot-cli')).toBe('/Users/me/.copilot/mcp-config.json');
    expect(win('kiro')).toBe('C:\\Users\\me\\.kiro\\settings\\mcp.json');
    expect(mac('amazon-q')).toBe('/Users/me/.aws/amazonq/mcp.json');
    expect(mac('junie')).toBe('/Users/me/.junie/mcp/mcp.json');
    expect(mac('goose')).toBe('/Users/me/.config/goose/config.yaml');
    expect(win('goose')).toBe('C:\\Users\\me\\AppData\\Roaming\\Block\\goose\\config\\config.yaml');
    expect(win('continue')).toBe('C:\\Users\\me\\.continue\\config.yaml');
    const goose = CLIENT_SPECS.find((s) => s.id === 'goose')!;
    expect(goose.configPath({ env: { HOME: '/home/me', GOOSE_PATH_ROOT: '/srv/goose' }, platform: 'linux' })).toBe('/srv/goose/config/config.yaml');
    // Goose ignores a relative GOOSE_PATH_ROOT (paths.rs validated_path_root).
    expect(goose.configPath({ env: { HOME: '/home/me', GOOSE_PATH_ROOT: 'rel' }, platform: 'linux' })).toBe('/home/me/.config/goose/config.yaml');
    expect(CLIENT_SPECS.find((s) => s.id === 'continue')!.configPath({ env: { HOME: '/home/me', CONTINUE_GLOBAL_DIR: '/cfg/c' }, platform: 'linux' })).toBe('/cfg/c/config.yaml');
  });
});

describe.each(CLIENT_SPECS.map((s) => [s.id, s] as const))('%s', (id, spec) => {
  it('connect → a real MCP client from the written entry → disconnect byte-identical', { timeout: 60_000 }, async () => {
    let file = u.place(id, fixtureFor(spec));
    if (spec.container[0] === 'mcp') {
      // opencode prefers opencode.jsonc when it exists: put the commented fixture there.
      const jsonc = path.join(path.dirname(file), 'opencode.jsonc');
      copyFileSync(path.join(FIXTURES, 'opencode.jsonc'), jsonc);
      rmSync(file);
      file = jsonc;
    }
    const c = u.connector(id);
    expect(c.configPath()).toBe(file);
    // Visual Studio is Windows-only: on this Linux host nothing can mark it installed.
    expect(c.installed()).toBe(id !== 'visual-studio');
    const before = readFileSync(file);

    const out = await c.connect('demo', shim);
    expect(out).toMatchObject({ changed: true, replaced: 'none', via: 'file' });
    const after = readFileSync(file, 'utf8');
    // Only our entry was added: every byte of the original is still there, in order.
    expect(singleInsertion(before.toString('utf8'), after), 'one inserted run of text').not.toBeNull();
    const entry = (await c.readServers())['switchboard-demo'] as Record<string, unknown>;
    expect(entry).toEqual(spec.entryFor(shim));

    const { command, args, env } = launch(entry);
    expect(path.isAbsolute(command)).toBe(true);
    expect(await toolsFromEntry({ command, args, env }, u.root, 'basic__echo')).toContain('basic__echo');

    await c.disconnect('demo');
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe('installed detection', () => {
  it('counts a program on PATH even when the client never created its folder (codex)', async () => {
    const bin = path.join(u.root, 'bin');
    mkdirSync(bin, { recursive: true });
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'codex'), 0o755);
    const fresh = tempUser({ PATH: bin });
    try {
      const c = fresh.connector('codex');
      expect(c.installed()).toBe(true);
      const out = await c.connect('demo', shim);
      expect(out.changed).toBe(true);
      expect(readFileSync(c.configPath(), 'utf8')).toContain('[mcp_servers.switchboard-demo]');
      expect(tempUser({ PATH: '' }).connector('codex').installed()).toBe(false);
    } finally {
      fresh.cleanup();
    }
  });
});
