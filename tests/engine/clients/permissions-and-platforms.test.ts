import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getConnector } from '../../../src-main/engine/clients/connector.ts';
import { CAN_RUN_AS_NOBODY, runAsNobody } from '../../helpers/as-nobody.ts';
import { FIXTURES, SHIM, tempUser, type TempUser } from './helpers.ts';

let u: TempUser;
beforeEach(() => {
  u = tempUser();
});
afterEach(() => u.cleanup());


describe('no write permission', () => {
  // Root ignores permission bits, so the attempt runs as "nobody" in a child process.
  it.runIf(CAN_RUN_AS_NOBODY)('reports permission denied and writes nothing', async () => {
    const file = u.place('cursor', 'several-servers.json');
    const original = readFileSync(file);
    chmodSync(u.root, 0o755);
    chmodSync(u.userHome, 0o755);
    chmodSync(path.dirname(file), 0o755);
    const sbHome = path.join(u.root, 'nobody-home');
    mkdirSync(sbHome);
    chmodSync(sbHome, 0o777);
    const stdout = runAsNobody(path.join(FIXTURES, 'connect-as-user.ts'), ['cursor', u.userHome, sbHome], { env: { PATH: process.env.PATH, HOME: sbHome } });
    const res = JSON.parse(stdout);
    expect(res).toMatchObject({ ok: false, reason: 'permission-denied', code: 'io-error' });
    expect(res.message).toContain(file);
    expect(readFileSync(file).equals(original)).toBe(true);
  });
});

describe('where each client keeps its file', () => {
  it('Claude Desktop on Linux honours $XDG_CONFIG_HOME, macOS uses Application Support, Windows %APPDATA%', () => {
    const at = (env: NodeJS.ProcessEnv, platform: NodeJS.Platform) => getConnector('claude-desktop', { home: '/sb', env, platform }).configPath();
    expect(at({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config/Claude/claude_desktop_config.json');
    expect(at({ HOME: '/home/a', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/Claude/claude_desktop_config.json');
    expect(at({ HOME: '/Users/a b' }, 'darwin')).toBe('/Users/a b/Library/Application Support/Claude/claude_desktop_config.json');
    expect(at({ USERPROFILE: 'C:\\Users\\A', APPDATA: 'C:\\Users\\A\\AppData\\Roaming', LOCALAPPDATA: 'Z:\\nowhere' }, 'win32')).toBe(
      'C:\\Users\\A\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
  });

  // Detecting the MSIX folder needs real Windows paths to exist.
  it.runIf(process.platform === 'win32')('prefers the MSIX path when the Store package folder exists (runs on Windows only: needs real Windows paths; skipped elsewhere)', () => {
    const local = path.join(u.root, 'Local');
    mkdirSync(path.join(local, 'Packages', 'Claude_pzs8sxrjxfjjc'), { recursive: true });
    const c = getConnector('claude-desktop', { home: u.sbHome, env: { USERPROFILE: u.userHome, LOCALAPPDATA: local }, platform: 'win32' });
    expect(c.configPath()).toBe(path.join(local, 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming', 'Claude', 'claude_desktop_config.json'));
  });

  it('VS Code, Cursor, Claude Code, Windsurf, LM Studio, Gemini, Codex and Zed paths', () => {
    const at = (id: string, platform: NodeJS.Platform = 'linux', env: NodeJS.ProcessEnv = { HOME: '/h' }) => getConnector(id, { home: '/sb', env, platform }).configPath();
    expect(at('vscode')).toBe('/h/.config/Code/User/mcp.json');
    expect(at('vscode', 'darwin')).toBe('/h/Library/Application Support/Code/User/mcp.json');
    expect(at('vscode', 'win32', { USERPROFILE: 'C:\\U', APPDATA: 'C:\\U\\R' })).toBe('C:\\U\\R\\Code\\User\\mcp.json');
    expect(at('cursor', 'win32', { USERPROFILE: 'C:\\U' })).toBe('C:\\U\\.cursor\\mcp.json');
    expect(at('claude-code')).toBe('/h/.claude.json');
    expect(at('windsurf')).toBe('/h/.codeium/windsurf/mcp_config.json');
    expect(at('lmstudio')).toBe('/h/.lmstudio/mcp.json');
    expect(at('gemini-cli')).toBe('/h/.gemini/settings.json');
    expect(at('codex')).toBe('/h/.codex/config.toml');
    expect(at('zed')).toBe('/h/.config/zed/settings.json');
  });
});

describe('Claude Code', () => {
  it('goes through the claude CLI when it is on PATH, with backup and undo', async () => {
    const bin = path.join(u.root, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(FIXTURES, 'fake-claude.mjs')}" "$@"\n`, { mode: 0o755 });
    const log = path.join(u.root, 'claude.log');
    const file = path.join(u.userHome, '.claude.json');
    const original = '{\n  "numStartups": 3,\n  "mcpServers": {}\n}\n';
    writeFileSync(file, original);
    const c = getConnector('claude-code', { home: u.sbHome, env: { ...u.env, PATH: bin, FAKE_CLAUDE_LOG: log }, platform: 'linux' });
    const out = await c.connect('demo', SHIM);
    expect(out.via).toBe('claude-cli');
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls).toEqual([['mcp', 'add-json', '--scope', 'user', 'switchboard-demo', JSON.stringify({ type: 'stdio', command: SHIM.command, args: [...SHIM.args, '--client', 'claude-code'], env: {} })]]);
    expect(await c.status('demo', SHIM)).toMatchObject({ connected: true, matches: true });
    await c.undo();
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('edits ~/.claude.json itself when there is no claude CLI', async () => {
    const file = path.join(u.userHome, '.claude.json');
    writeFileSync(file, '{"numStartups":3,"projects":{}}');
    await getConnector('claude-code', { home: u.sbHome, env: u.env, platform: 'linux' }).connect('demo', SHIM);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ numStartups: 3, projects: {}, mcpServers: { 'switchboard-demo': { type: 'stdio', command: SHIM.command, args: [...SHIM.args, '--client', 'claude-code'], env: {} } } });
  });
});
