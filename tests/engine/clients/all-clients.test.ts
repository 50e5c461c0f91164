// Every known client, on a fixture of its own file format: connect writes one entry and nothing
// else, a real MCP client (SDK Client over stdio) started from exactly that entry lists the
// profile's tools through the shim and engine, and disconnect gives back the original bytes.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_SPECS, type ClientSpec } from '../../../src-main/engine/clients/client-specs.ts';
import { defaultShimEntry } from '../../../src-main/engine/platform/shim-entry.ts';
import { cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';
import { FIXTURES, singleInsertion, tempUser, toolsFromEntry } from './helpers.ts';

const u = tempUser();
const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
const shim = defaultShimEntry(home, false, 'demo');

afterAll(async () => {
  await cleanupHomes();
  u.cleanup();
});

/** Each client's own file as its docs show it, where it differs from the shared fixtures below. */
const OWN_FIXTURE: Record<string, string> = {
  crush: 'crush.json',
  'kilo-cli': 'kilo.jsonc',
  anythingllm: 'anythingllm_mcp_servers.json',
  devin: 'devin-config.json',
  warp: 'warp-mcp.json',
  'amazon-q': 'amazonq-default.json',
  'mistral-vibe': 'vibe-config.toml',
  windsurf: 'windsurf-mcp_config.json',
  'windsurf-jetbrains': 'windsurf-mcp_config.json',
};

/** Clients that read `<name>.jsonc` in place of `<name>.json` when it exists: the commented fixture goes there. */
const JSONC_FIRST: Record<string, string> = { opencode: 'opencode.jsonc', 'kilo-cli': 'kilo.jsonc' };

const FILE_SPECS = CLIENT_SPECS.filter((s) => !s.manual);
const PASTE_SPECS = CLIENT_SPECS.filter((s) => s.manual);

/** A fixture holding other servers, comments or odd layout, in the format of the client's file. */
function fixtureFor(spec: ClientSpec): string {
  if (OWN_FIXTURE[spec.id]) return OWN_FIXTURE[spec.id]!;
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
  it('knows at least 36 clients, each with a source, a next step and a path on every OS (or copy-paste steps)', () => {
    expect(CLIENT_SPECS.length).toBeGreaterThanOrEqual(36);
    expect(new Set(CLIENT_SPECS.map((s) => s.id)).size).toBe(CLIENT_SPECS.length);
    for (const s of CLIENT_SPECS) {
      expect(s.source.length, s.id).toBeGreaterThan(10);
      expect(s.nextStep.length, s.id).toBeGreaterThan(10);
      if (s.manual) {
        expect(s.configPath({ env: { HOME: '/home/me' }, platform: 'linux' }), s.id).toBe('');
        continue;
      }
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
    expect(mac('amazon-q')).toBe('/Users/me/.aws/amazonq/default.json');
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

describe('the clients added for issue 24, where their docs and source say', () => {
  const at = (id: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform) => CLIENT_SPECS.find((s) => s.id === id)!.configPath({ env, platform });
  const mac = { HOME: '/Users/me' };
  const win = { USERPROFILE: 'C:\\Users\\me', APPDATA: 'C:\\Users\\me\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' };
  const linux = { HOME: '/home/me' };

  it('puts each new file client at its documented path on macOS, Windows and Linux', () => {
    expect(at('cursor-cli', mac, 'darwin')).toBe(at('cursor', mac, 'darwin'));
    expect(at('cursor-cli', win, 'win32')).toBe('C:\\Users\\me\\.cursor\\mcp.json');
    expect(at('vscode-server', linux, 'linux')).toBe('/home/me/.vscode-server/data/User/mcp.json');
    expect(at('windsurf-jetbrains', mac, 'darwin')).toBe('/Users/me/.codeium/mcp_config.json');
    expect(at('windsurf-jetbrains', win, 'win32')).toBe('C:\\Users\\me\\.codeium\\mcp_config.json');
    expect(at('crush', linux, 'linux')).toBe('/home/me/.config/crush/crush.json');
    expect(at('crush', mac, 'darwin')).toBe('/Users/me/.config/crush/crush.json');
    expect(at('crush', win, 'win32')).toBe('C:\\Users\\me\\AppData\\Local\\crush\\crush.json');
    expect(at('crush', { ...linux, XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/crush/crush.json');
    expect(at('kilo-cli', mac, 'darwin')).toBe('/Users/me/.config/kilo/kilo.json');
    expect(at('kilo-cli', win, 'win32')).toBe('C:\\Users\\me\\.config\\kilo\\kilo.json');
    expect(at('anythingllm', mac, 'darwin')).toBe('/Users/me/Library/Application Support/anythingllm-desktop/storage/plugins/anythingllm_mcp_servers.json');
    expect(at('anythingllm', win, 'win32')).toBe('C:\\Users\\me\\AppData\\Roaming\\anythingllm-desktop\\storage\\plugins\\anythingllm_mcp_servers.json');
    expect(at('anythingllm', linux, 'linux')).toBe('/home/me/.config/anythingllm-desktop/storage/plugins/anythingllm_mcp_servers.json');
    expect(at('devin', linux, 'linux')).toBe('/home/me/.config/devin/config.json');
    expect(at('devin', win, 'win32')).toBe('C:\\Users\\me\\AppData\\Roaming\\devin\\config.json');
    expect(at('warp', win, 'win32')).toBe('C:\\Users\\me\\.warp\\.mcp.json');
    expect(at('warp', mac, 'darwin')).toBe('/Users/me/.warp/.mcp.json');
    expect(at('mistral-vibe', win, 'win32')).toBe('C:\\Users\\me\\.vibe\\config.toml');
    expect(at('mistral-vibe', { ...linux, VIBE_HOME: '/srv/vibe' }, 'linux')).toBe('/srv/vibe/config.toml');
  });

  it('opencode follows $XDG_CONFIG_HOME on every OS, for its file and for "installed"', () => {
    const opencode = CLIENT_SPECS.find((s) => s.id === 'opencode')!;
    for (const [env, platform, want] of [
      [{ ...linux, XDG_CONFIG_HOME: '/xdg' }, 'linux', '/xdg/opencode/opencode.json'],
      [{ ...mac, XDG_CONFIG_HOME: '/Users/me/xdg' }, 'darwin', '/Users/me/xdg/opencode/opencode.json'],
      [{ ...win, XDG_CONFIG_HOME: 'D:\\xdg' }, 'win32', 'D:\\xdg\\opencode\\opencode.json'],
      [mac, 'darwin', '/Users/me/.config/opencode/opencode.json'],
      [win, 'win32', 'C:\\Users\\me\\.config\\opencode\\opencode.json'],
    ] as const) {
      expect(opencode.configPath({ env, platform }), `${platform} ${JSON.stringify(env)}`).toBe(want);
      expect(opencode.installMarkers({ env, platform })[0]).toBe((platform === 'win32' ? path.win32 : path.posix).dirname(want));
    }
  });

  it("detects Kimi Code by its program `kimi` (npm's @moonshot-ai/kimi-code bin)", () => {
    expect(CLIENT_SPECS.find((s) => s.id === 'kimi-code')!.programs).toContain('kimi');
  });

  it("writes Amazon Q's current default.json, never the legacy mcp.json", () => {
    const q = CLIENT_SPECS.find((s) => s.id === 'amazon-q')!;
    expect(q.configPath({ env: mac, platform: 'darwin' })).toBe('/Users/me/.aws/amazonq/default.json');
    expect(q.legacyPaths!({ env: mac, platform: 'darwin' })).toEqual(['/Users/me/.aws/amazonq/mcp.json']);
  });

  it('lists Jan, BoltAI, Trae and Witsy as copy-paste clients whose steps carry the exact shim command and args', () => {
    expect(PASTE_SPECS.map((s) => s.id).sort()).toEqual(['boltai', 'jan', 'trae', 'witsy']);
    for (const s of PASTE_SPECS) {
      const c = u.connector(s.id);
      expect(c.kind).toBe('copy-paste');
      const steps = c.pasteSteps('demo', shim);
      expect(steps.length, s.id).toBeGreaterThanOrEqual(3);
      const text = steps.join('\n');
      expect(text, s.id).toContain(shim.command);
      // The arguments as written, ending with the client id the shim reports.
      for (const a of [...shim.args, '--client', s.id]) expect(text, `${s.id}: ${a}`).toContain(a);
      expect(text).toContain('switchboard-demo');
    }
    // Where a UI takes JSON, the JSON is exactly the entry.
    const bolt = u.connector('boltai').pasteSteps('demo', shim).join('\n');
    const json = JSON.parse(bolt.slice(bolt.indexOf('{'), bolt.lastIndexOf('}') + 1));
    expect(json).toEqual({ mcpServers: { 'switchboard-demo': { command: shim.command, args: [...shim.args, '--client', 'boltai'] } } });
    // Trae rejects a command with spaces (its docs): the steps say so instead of failing silently there.
    const spaced = u.connector('trae').pasteSteps('demo', { command: 'C:\\Program Files\\Switchboard\\switchboard.exe', args: ['shim'] });
    expect(spaced.at(-1)).toMatch(/^Trae refuses a command that contains spaces/);
    expect(u.connector('trae').pasteSteps('demo', shim).join('\n')).not.toContain('refuses');
    // Witsy splits its one arguments field at spaces on macOS and Linux: an argument with one is flagged.
    const witsy = u.connector('witsy').pasteSteps('demo', { command: '/opt/sb/switchboard', args: ['shim', '--home', '/Users/me/Library/Application Support/Switchboard'] });
    expect(witsy.join('\n')).toContain('"/Users/me/Library/Application Support/Switchboard"');
    expect(witsy.join('\n')).toMatch(/An argument above contains a space\. Witsy on macOS and Linux splits the field/);
  });

  it('a copy-paste client has no file to write: connect and undo refuse with a pointer to the steps', async () => {
    const c = u.connector('jan');
    await expect(c.connect('demo', shim)).rejects.toThrow(/keeps its MCP servers in its own settings.*switchboard connect jan/);
    await expect(c.undo()).rejects.toThrow(/own settings/);
    expect(await c.readServers()).toEqual({});
  });
});

describe.each(FILE_SPECS.map((s) => [s.id, s] as const))('%s', (id, spec) => {
  it('connect → a real MCP client from the written entry → disconnect byte-identical', { timeout: 60_000 }, async () => {
    let file = u.place(id, fixtureFor(spec));
    const jsoncFixture = JSONC_FIRST[id];
    if (jsoncFixture) {
      // opencode and Kilo CLI prefer <name>.jsonc when it exists: put the commented fixture there.
      const jsonc = file.replace(/\.json$/, '.jsonc');
      copyFileSync(path.join(FIXTURES, jsoncFixture), jsonc);
      rmSync(file);
      file = jsonc;
    }
    const c = u.connector(id);
    expect(c.configPath()).toBe(file);
    // Visual Studio is Windows-only: on this Linux host nothing can mark it installed. Cursor's
    // CLI reads the editor's file, so that file alone does not mean the CLI is there.
    expect(c.installed()).toBe(id !== 'visual-studio' && id !== 'cursor-cli');
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
