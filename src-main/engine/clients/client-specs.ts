// Where each MCP client keeps its server list and what an entry looks like there. Paths come
// from the passed env and platform only, so tests (and `--home`-style overrides) can point them
// anywhere.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ShimEntry } from './shim-entry.ts';

export interface ClientEnv {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export interface ClientSpec {
  id: string;
  displayName: string;
  format: 'json' | 'toml';
  /** Path of the servers object inside the file. */
  container: string[];
  configPath(e: ClientEnv): string;
  /** Folders (or files) whose existence means the client is installed. */
  installMarkers(e: ClientEnv): string[];
  entryFor(shim: ShimEntry): Record<string, unknown>;
  /** For import: what a bare `url` means in this client when no type is given. */
  bareUrlTransport?: 'http' | 'sse';
  /** Claude Code rewrites its own file constantly; its CLI is the safe writer when present. */
  cli?: 'claude';
}

function p(e: ClientEnv): path.PlatformPath {
  return e.platform === 'win32' ? path.win32 : path.posix;
}

export function userHome(e: ClientEnv): string {
  const h = e.platform === 'win32' ? e.env.USERPROFILE || e.env.HOME : e.env.HOME;
  return h || os.homedir();
}

function appData(e: ClientEnv): string {
  return e.env.APPDATA || p(e).join(userHome(e), 'AppData', 'Roaming');
}

function localAppData(e: ClientEnv): string {
  return e.env.LOCALAPPDATA || p(e).join(userHome(e), 'AppData', 'Local');
}

function xdgConfig(e: ClientEnv): string {
  return e.env.XDG_CONFIG_HOME || p(e).join(userHome(e), '.config');
}

/** The per-user settings folder that Electron apps (Claude, Code) use on each OS. */
function electronAppDir(e: ClientEnv, name: string): string {
  if (e.platform === 'darwin') return p(e).join(userHome(e), 'Library', 'Application Support', name);
  if (e.platform === 'win32') return p(e).join(appData(e), name);
  return p(e).join(xdgConfig(e), name);
}

/** The Microsoft Store (MSIX) build of Claude keeps its files in a virtualised AppData. */
export const CLAUDE_MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';

function claudeDesktopDir(e: ClientEnv): string {
  if (e.platform === 'win32') {
    const pkg = p(e).join(localAppData(e), 'Packages', CLAUDE_MSIX_PACKAGE);
    // The MSIX app reads only its virtualised copy; writing %APPDATA% would go unnoticed.
    if (existsSync(pkg)) return p(e).join(pkg, 'LocalCache', 'Roaming', 'Claude');
  }
  return electronAppDir(e, 'Claude');
}

const stdioEntry = (s: ShimEntry): Record<string, unknown> => ({ command: s.command, args: [...s.args] });

function simple(id: string, displayName: string, rel: (e: ClientEnv) => string[]): ClientSpec {
  return {
    id,
    displayName,
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(userHome(e), ...rel(e)),
    installMarkers: (e) => [p(e).dirname(p(e).join(userHome(e), ...rel(e)))],
    entryFor: stdioEntry,
  };
}

export const CLIENT_SPECS: readonly ClientSpec[] = [
  {
    id: 'claude-desktop',
    displayName: 'Claude Desktop',
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(claudeDesktopDir(e), 'claude_desktop_config.json'),
    installMarkers: (e) => [claudeDesktopDir(e)],
    entryFor: stdioEntry,
  },
  simple('cursor', 'Cursor', () => ['.cursor', 'mcp.json']),
  {
    id: 'vscode',
    displayName: 'VS Code',
    format: 'json',
    container: ['servers'],
    configPath: (e) => p(e).join(electronAppDir(e, 'Code'), 'User', 'mcp.json'),
    installMarkers: (e) => [p(e).join(electronAppDir(e, 'Code'), 'User')],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
  },
  {
    id: 'claude-code',
    displayName: 'Claude Code',
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(userHome(e), '.claude.json'),
    installMarkers: (e) => [p(e).join(userHome(e), '.claude.json'), p(e).join(userHome(e), '.claude')],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args], env: {} }),
    cli: 'claude',
  },
  simple('windsurf', 'Windsurf', () => ['.codeium', 'windsurf', 'mcp_config.json']),
  simple('lmstudio', 'LM Studio', () => ['.lmstudio', 'mcp.json']),
  { ...simple('gemini-cli', 'Gemini CLI', () => ['.gemini', 'settings.json']), bareUrlTransport: 'sse' },
  {
    id: 'codex',
    displayName: 'Codex CLI',
    format: 'toml',
    container: ['mcp_servers'],
    configPath: (e) => p(e).join(e.env.CODEX_HOME || p(e).join(userHome(e), '.codex'), 'config.toml'),
    installMarkers: (e) => [e.env.CODEX_HOME || p(e).join(userHome(e), '.codex')],
    entryFor: stdioEntry,
  },
  {
    id: 'zed',
    displayName: 'Zed',
    format: 'json',
    container: ['context_servers'],
    configPath: (e) => p(e).join(zedDir(e), 'settings.json'),
    installMarkers: (e) => [zedDir(e)],
    entryFor: (s) => ({ source: 'custom', command: s.command, args: [...s.args], env: {} }),
  },
];

function zedDir(e: ClientEnv): string {
  return e.platform === 'win32' ? p(e).join(appData(e), 'Zed') : p(e).join(xdgConfig(e), 'zed');
}

export const CLIENT_IDS: readonly string[] = CLIENT_SPECS.map((s) => s.id);
