// Where each MCP client keeps its server list and what an entry looks like there. Paths come
// from the passed env and platform only, so tests (and `--home`-style overrides) can point them
// anywhere.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withClient, type ShimEntry } from '../platform/shim-entry.ts';
import type { YamlShape } from './yaml-entry-edit.ts';

export interface ClientEnv {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export interface ClientSpec {
  id: string;
  displayName: string;
  format: 'json' | 'toml' | 'yaml';
  /** Path of the servers object inside the file. */
  container: string[];
  /** For format 'toml': the servers are a `[[container]]` list whose items name themselves in `nameField` (Mistral Vibe). */
  tomlList?: { nameField: string };
  /** For format 'yaml': whether the servers are a map or a list of named items (container[0] is the key). */
  yaml?: Omit<YamlShape, 'container'>;
  configPath(e: ClientEnv): string;
  /** Folders (or files) whose existence means the client is installed. */
  installMarkers(e: ClientEnv): string[];
  entryFor(shim: ShimEntry): Record<string, unknown>;
  /**
   * The entry as connects before `--client ID` existed wrote it. It still works (the engine then
   * knows the client from its clientInfo alone), so it counts as up to date, not as a stale entry.
   */
  entryWithoutClient?(shim: ShimEntry): Record<string, unknown>;
  /** For import: what a bare `url` means in this client when no type is given. */
  bareUrlTransport?: 'http' | 'sse';
  /** Claude Code rewrites its own file constantly; its CLI is the safe writer when present. */
  cli?: 'claude';
  /** Programs whose presence on PATH means the client is installed (CLIs that may not have made their folder yet). */
  programs?: readonly string[];
  /** OS application folders (macOS .app bundles, Windows install folders) that mean installed. */
  apps?(e: ClientEnv): string[];
  /** What the user must do in the client after a connect, in one or two sentences. */
  nextStep: string;
  /** Clients that ignore servers in folders the user has not trusted: their trust list (a JSON object of path → level). */
  trust?: { file(e: ClientEnv): string; value: string };
  /** Where the path and entry shape were checked (docs page or source). */
  source: string;
  /**
   * Clients that keep their server list only in their own settings screen or database: `connect`
   * shows these steps (what to click, what to paste) and writes nothing. configPath is then ''.
   */
  manual?: { steps(entry: PasteEntry): string[] };
  /**
   * This client reads another client's file (Cursor's CLI reads Cursor's ~/.cursor/mcp.json): both
   * share one entry, one write record and one backup, so connecting either never writes twice.
   */
  sharesFileWith?: string;
  /** Older files the client still reads when present (Amazon Q's mcp.json): import reads them too; connect never writes them. */
  legacyPaths?(e: ClientEnv): string[];
}

/** The entry of a copy-paste client, as the steps show it. */
export interface PasteEntry {
  name: string;
  command: string;
  args: string[];
  /** `{"mcpServers": {name: {command, args}}}`, pretty-printed: what a UI that takes JSON wants pasted. */
  json: string;
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

/** $XDG_CONFIG_HOME, else ~/.config: on every OS, as xdg-basedir (opencode, Kilo CLI) and Go's XDG-first lookups do. */
function xdgConfig(e: ClientEnv): string {
  return e.env.XDG_CONFIG_HOME || p(e).join(userHome(e), '.config');
}

/** `<dir>/<base>.jsonc` when that exists (the client then reads it), else `<dir>/<base>.json`. */
function preferJsonc(e: ClientEnv, dir: string, base: string): string {
  const jsonc = p(e).join(dir, `${base}.jsonc`);
  return existsSync(jsonc) ? jsonc : p(e).join(dir, `${base}.json`);
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

type SpecExtras = Partial<Omit<ClientSpec, 'id' | 'displayName' | 'configPath'>> & Pick<ClientSpec, 'source'>;

/** A client with a `mcpServers` JSON file at a fixed place under the user's home. */
function simple(id: string, displayName: string, rel: (e: ClientEnv) => string[], extra: SpecExtras): ClientSpec {
  return {
    id,
    displayName,
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(userHome(e), ...rel(e)),
    installMarkers: (e) => [p(e).dirname(p(e).join(userHome(e), ...rel(e)))],
    entryFor: stdioEntry,
    nextStep: `Restart ${displayName} to pick it up.`,
    ...extra,
  };
}

/** macOS app bundles and Windows per-user/per-machine install folders of a desktop app. */
function appFolders(e: ClientEnv, mac: string, win: string[]): string[] {
  if (e.platform === 'darwin') return [`/Applications/${mac}.app`, p(e).join(userHome(e), 'Applications', `${mac}.app`)];
  if (e.platform === 'win32') {
    return win.flatMap((w) => [p(e).join(localAppData(e), 'Programs', w), ...(e.env.ProgramFiles ? [p(e).join(e.env.ProgramFiles, w)] : [])]);
  }
  return [];
}

/** A VS Code extension that keeps its own server list in VS Code's globalStorage. */
function vscodeExtension(id: string, displayName: string, extensionId: string, file: string, source: string): ClientSpec {
  const dir = (e: ClientEnv) => p(e).join(electronAppDir(e, 'Code'), 'User', 'globalStorage', extensionId);
  return {
    id,
    displayName,
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(dir(e), 'settings', file),
    installMarkers: (e) => [dir(e)],
    entryFor: stdioEntry,
    // These extensions watch their settings file: no restart, but the server shows in their MCP view.
    nextStep: `Open ${displayName}'s MCP Servers view in VS Code and check that the entry is enabled (it reloads the file by itself).`,
    source,
  };
}

/** The JSON most MCP settings screens take when they offer "paste JSON". */
export function pasteEntry(name: string, shim: ShimEntry): PasteEntry {
  const json = JSON.stringify({ mcpServers: { [name]: { command: shim.command, args: shim.args } } }, null, 2);
  return { name, command: shim.command, args: [...shim.args], json };
}

/** A client whose list lives in its own UI or database: no file, copy-paste steps instead. */
function copyPaste(
  id: string,
  displayName: string,
  extra: Pick<ClientSpec, 'source' | 'nextStep' | 'programs' | 'apps'> & { markers?: (e: ClientEnv) => string[]; steps(entry: PasteEntry): string[] },
): ClientSpec {
  const { markers, steps, ...rest } = extra;
  return {
    id,
    displayName,
    format: 'json',
    container: [],
    configPath: () => '',
    installMarkers: (e) => markers?.(e) ?? [],
    entryFor: stdioEntry,
    manual: { steps },
    ...rest,
  };
}

/** Each argument on its own line, quoted as JSON so spaces and empty ones stay visible. */
const argLines = (args: readonly string[]): string => args.map((a) => `       ${JSON.stringify(a)}`).join('\n');

// Where each entry below was checked. Paths are the user-level (global) file of each client.
const SPECS: readonly ClientSpec[] = [
  {
    id: 'claude-desktop',
    displayName: 'Claude Desktop',
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(claudeDesktopDir(e), 'claude_desktop_config.json'),
    installMarkers: (e) => [claudeDesktopDir(e)],
    apps: (e) => appFolders(e, 'Claude', ['AnthropicClaude']),
    entryFor: stdioEntry,
    nextStep: 'Quit Claude Desktop completely (from the menu bar or tray, not just the window) and open it again.',
    source: 'modelcontextprotocol.io/quickstart/user; MSIX path: the app\'s own LocalCache redirection',
  },
  simple('cursor', 'Cursor', () => ['.cursor', 'mcp.json'], {
    programs: ['cursor', 'cursor-agent'],
    apps: (e) => appFolders(e, 'Cursor', ['cursor']),
    nextStep: 'Open Cursor Settings → MCP (Tools & Integrations) and check that the entry is switched on; restart Cursor if it does not show.',
    source: 'docs.cursor.com/context/mcp (global ~/.cursor/mcp.json)',
  }),
  {
    id: 'vscode',
    displayName: 'VS Code',
    format: 'json',
    container: ['servers'],
    configPath: (e) => p(e).join(electronAppDir(e, 'Code'), 'User', 'mcp.json'),
    installMarkers: (e) => [p(e).join(electronAppDir(e, 'Code'), 'User')],
    programs: ['code'],
    apps: (e) => appFolders(e, 'Visual Studio Code', ['Microsoft VS Code']),
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'In VS Code run "MCP: List Servers", pick the entry and choose Start (VS Code asks you to trust it the first time); use it from Copilot Chat in Agent mode.',
    source: 'code.visualstudio.com/docs/copilot/customization/mcp-servers (user mcp.json, "servers")',
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
    nextStep: 'Start a new Claude Code session; /mcp lists the entry.',
    source: 'docs.anthropic.com/en/docs/claude-code/mcp (user scope in ~/.claude.json; claude mcp add-json)',
  },
  simple('windsurf', 'Windsurf', () => ['.codeium', 'windsurf', 'mcp_config.json'], {
    apps: (e) => appFolders(e, 'Windsurf', ['Windsurf']),
    programs: ['windsurf'],
    nextStep: 'Open Cascade\'s MCP panel in Windsurf and press Refresh (or restart Windsurf).',
    source: 'docs.windsurf.com/windsurf/cascade/mcp (~/.codeium/windsurf/mcp_config.json)',
  }),
  simple('lmstudio', 'LM Studio', () => ['.lmstudio', 'mcp.json'], {
    programs: ['lms'],
    apps: (e) => appFolders(e, 'LM Studio', ['LM Studio']),
    nextStep: 'LM Studio reloads mcp.json by itself; enable the entry under Program → Integrations in a chat.',
    source: 'lmstudio.ai/docs/app/plugins/mcp (~/.lmstudio/mcp.json)',
  }),
  {
    ...simple('gemini-cli', 'Gemini CLI', () => ['.gemini', 'settings.json'], {
      programs: ['gemini'],
      nextStep: 'Start a new Gemini CLI session in a folder you trust: Gemini CLI ignores MCP servers in untrusted folders.',
      source: 'github.com/google-gemini/gemini-cli docs/tools/mcp-server.md and docs/cli/trusted-folders.md',
      trust: { file: (e) => p(e).join(userHome(e), '.gemini', 'trustedFolders.json'), value: 'TRUST_FOLDER' },
    }),
    bareUrlTransport: 'sse',
  },
  {
    id: 'codex',
    displayName: 'Codex CLI',
    format: 'toml',
    container: ['mcp_servers'],
    configPath: (e) => p(e).join(codexHome(e), 'config.toml'),
    installMarkers: (e) => [codexHome(e)],
    programs: ['codex'],
    entryFor: stdioEntry,
    nextStep: 'Start a new Codex session; /mcp lists the entry.',
    source: 'github.com/openai/codex docs/config.md ([mcp_servers.NAME] in $CODEX_HOME/config.toml)',
  },
  {
    id: 'zed',
    displayName: 'Zed',
    format: 'json',
    container: ['context_servers'],
    configPath: (e) => p(e).join(zedDir(e), 'settings.json'),
    installMarkers: (e) => [zedDir(e)],
    programs: ['zed'],
    apps: (e) => appFolders(e, 'Zed', ['Zed']),
    entryFor: (s) => ({ source: 'custom', command: s.command, args: [...s.args], env: {} }),
    nextStep: 'Zed reloads its settings by itself; check the entry\'s dot in the Agent panel\'s settings.',
    source: 'zed.dev/docs/ai/mcp ("context_servers" in settings.json)',
  },
  {
    id: 'vscode-insiders',
    displayName: 'VS Code Insiders',
    format: 'json',
    container: ['servers'],
    configPath: (e) => p(e).join(electronAppDir(e, 'Code - Insiders'), 'User', 'mcp.json'),
    installMarkers: (e) => [p(e).join(electronAppDir(e, 'Code - Insiders'), 'User')],
    programs: ['code-insiders'],
    apps: (e) => appFolders(e, 'Visual Studio Code - Insiders', ['Microsoft VS Code Insiders']),
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'In VS Code Insiders run "MCP: List Servers", pick the entry and choose Start (it asks you to trust it the first time).',
    source: 'code.visualstudio.com MCP docs; the Insiders build keeps its user folder under "Code - Insiders"',
  },
  vscodeExtension('cline', 'Cline', 'saoudrizwan.claude-dev', 'cline_mcp_settings.json', 'docs.cline.bot/mcp/configuring-mcp-servers (globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json)'),
  vscodeExtension('roo-code', 'Roo Code', 'rooveterinaryinc.roo-cline', 'mcp_settings.json', 'docs.roocode.com/features/mcp/using-mcp-in-roo (global mcp_settings.json in globalStorage/rooveterinaryinc.roo-cline/settings)'),
  vscodeExtension('kilo-code', 'Kilo Code', 'kilocode.kilo-code', 'mcp_settings.json', 'kilo.ai/docs/automate/mcp/using-in-kilo-code (global mcp_settings.json in VS Code globalStorage)'),
  {
    id: 'visual-studio',
    displayName: 'Visual Studio',
    format: 'json',
    container: ['servers'],
    // Visual Studio exists only on Windows; elsewhere the path is shown but never detected as installed.
    configPath: (e) => p(e).join(userHome(e), '.mcp.json'),
    installMarkers: (e) =>
      e.platform === 'win32'
        ? [e.env['ProgramFiles'], e.env['ProgramFiles(x86)']].filter((d): d is string => !!d).map((d) => p(e).join(d, 'Microsoft Visual Studio'))
        : [],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'In Visual Studio open Copilot Chat, switch to Agent mode and enable the entry\'s tools in the tools list (17.14 or later).',
    source: 'learn.microsoft.com/visualstudio/ide/mcp-servers (%USERPROFILE%\\.mcp.json, "servers")',
  },
  {
    id: 'copilot-cli',
    displayName: 'GitHub Copilot CLI',
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(e.env.COPILOT_HOME || p(e).join(userHome(e), '.copilot'), 'mcp-config.json'),
    installMarkers: (e) => [e.env.COPILOT_HOME || p(e).join(userHome(e), '.copilot')],
    programs: ['copilot'],
    // Copilot CLI wants a type and an explicit tool list; "*" lets the profile decide what is offered.
    entryFor: (s) => ({ type: 'local', command: s.command, args: [...s.args], tools: ['*'] }),
    nextStep: 'Start a new copilot session; /mcp show lists the entry.',
    source: 'docs.github.com/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers (~/.copilot/mcp-config.json, COPILOT_HOME)',
  },
  simple('qwen-code', 'Qwen Code', () => ['.qwen', 'settings.json'], {
    programs: ['qwen'],
    nextStep: 'Start a new Qwen Code session (qwen); /mcp lists the entry.',
    source: 'qwenlm.github.io/qwen-code-docs/en/users/features/mcp (user scope ~/.qwen/settings.json, "mcpServers"); trust list ~/.qwen/trustedFolders.json as Gemini CLI',
    trust: { file: (e) => p(e).join(userHome(e), '.qwen', 'trustedFolders.json'), value: 'TRUST_FOLDER' },
  }),
  simple('kiro', 'Kiro', () => ['.kiro', 'settings', 'mcp.json'], {
    installMarkers: (e) => [p(e).join(userHome(e), '.kiro')],
    programs: ['kiro', 'kiro-cli'],
    apps: (e) => appFolders(e, 'Kiro', ['Kiro']),
    nextStep: 'Kiro reloads mcp.json by itself; check the entry in the Kiro panel\'s MCP Servers list (Kiro CLI: start a new chat).',
    source: 'kiro.dev/docs/mcp/configuration and kiro.dev/docs/cli/chat/configuration (~/.kiro/settings/mcp.json)',
  }),
  simple('amazon-q', 'Amazon Q Developer', () => ['.aws', 'amazonq', 'default.json'], {
    programs: ['q', 'qchat'],
    // default.json is the file Q's own MCP screen writes; mcp.json is read only while default.json's
    // useLegacyMcpJson is on, so it is kept for import and never written.
    legacyPaths: (e) => [p(e).join(userHome(e), '.aws', 'amazonq', 'mcp.json')],
    nextStep: 'Open the Amazon Q chat panel in your IDE and choose the tools icon: the entry is listed under MCP servers (reload the panel if it does not show).',
    source:
      'docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/mcp-ide.html (global ~/.aws/amazonq/default.json, "mcpServers"; ~/.aws/amazonq/mcp.json is legacy, read while useLegacyMcpJson is true)',
  }),
  {
    ...simple('amp', 'Amp', () => ['.config', 'amp', 'settings.json'], {
      programs: ['amp'],
      nextStep: 'Start a new Amp thread (amp in the terminal, or reload the Amp extension).',
      source: 'ampcode.com/manual ("amp.mcpServers" in ~/.config/amp/settings.json, %USERPROFILE%\\.config\\amp on Windows)',
    }),
    // Amp keeps settings as flat dotted keys: the servers object is the top-level key "amp.mcpServers".
    container: ['amp.mcpServers'],
  },
  {
    id: 'opencode',
    displayName: 'opencode',
    format: 'json',
    container: ['mcp'],
    configPath: (e) => preferJsonc(e, p(e).join(xdgConfig(e), 'opencode'), 'opencode'),
    installMarkers: (e) => [p(e).join(xdgConfig(e), 'opencode')],
    programs: ['opencode'],
    // opencode takes the command and its arguments as one array and rejects unknown keys.
    entryFor: (s) => ({ type: 'local', command: [s.command, ...s.args], enabled: true }),
    nextStep: 'Start a new opencode session; "opencode mcp list" shows the entry.',
    source:
      'opencode.ai/docs/config and opencode.ai/docs/mcp-servers (~/.config/opencode/opencode.json, "mcp", type "local"); $XDG_CONFIG_HOME on every OS from sst/opencode packages/opencode/src/global (xdg-basedir)',
  },
  {
    ...simple('antigravity', 'Antigravity', () => ['.gemini', 'config', 'mcp_config.json'], {
      programs: ['agy', 'antigravity'],
      apps: (e) => appFolders(e, 'Antigravity', ['Antigravity']),
      nextStep: 'In Antigravity open the agent panel\'s "…" → MCP Servers → Manage MCP Servers and press Refresh.',
      source: 'antigravity.google/docs (Antigravity 2.0: ~/.gemini/config/mcp_config.json; 1.x: ~/.gemini/antigravity/mcp_config.json)',
    }),
    // Antigravity 1.x read ~/.gemini/antigravity; 2.0 moved to ~/.gemini/config. Use the one in use.
    configPath: (e) => {
      const legacy = p(e).join(userHome(e), '.gemini', 'antigravity', 'mcp_config.json');
      const current = p(e).join(userHome(e), '.gemini', 'config', 'mcp_config.json');
      return !existsSync(current) && existsSync(legacy) ? legacy : current;
    },
    installMarkers: (e) => [p(e).join(userHome(e), '.gemini', 'config'), p(e).join(userHome(e), '.gemini', 'antigravity')],
  },
  simple('factory-droid', 'Factory Droid', () => ['.factory', 'mcp.json'], {
    programs: ['droid'],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'Start a new droid session; /mcp lists the entry.',
    source: 'docs.factory.ai/cli/configuration/mcp (user ~/.factory/mcp.json, "mcpServers", type stdio)',
  }),
  {
    ...simple('kimi-code', 'Kimi Code CLI', () => ['.kimi-code', 'mcp.json'], {
      // The npm package @moonshot-ai/kimi-code installs the program `kimi` (npm view … bin).
      programs: ['kimi'],
      nextStep: 'Start a new Kimi Code session; /mcp shows the entry.',
      source:
        'moonshotai.github.io/kimi-code/zh/customization/mcp (~/.kimi-code/mcp.json or $KIMI_CODE_HOME/mcp.json); npm @moonshot-ai/kimi-code 2.1.0: bin `kimi`, dist/main.mjs reads <KIMI_CODE_HOME>/mcp.json',
    }),
    configPath: (e) => p(e).join(e.env.KIMI_CODE_HOME || p(e).join(userHome(e), '.kimi-code'), 'mcp.json'),
    installMarkers: (e) => [e.env.KIMI_CODE_HOME || p(e).join(userHome(e), '.kimi-code')],
  },
  simple('junie', 'JetBrains Junie', () => ['.junie', 'mcp', 'mcp.json'], {
    installMarkers: (e) => [p(e).join(userHome(e), '.junie')],
    programs: ['junie'],
    nextStep: 'In your JetBrains IDE open Settings → Tools → Junie → MCP Settings and check the entry (Junie CLI: start a new session).',
    source: 'junie.jetbrains.com/docs/junie-cli-mcp-configuration.html (user ~/.junie/mcp/mcp.json, "mcpServers")',
  }),
  simple('auggie', 'Augment Auggie CLI', () => ['.augment', 'settings.json'], {
    programs: ['auggie'],
    nextStep: 'Start a new auggie session; "auggie mcp list" shows the entry.',
    source: 'augmentcode.com/changelog/auggie-cli-0-5-4-release-notes and docs.augmentcode.com/cli/integrations (~/.augment/settings.json, "mcpServers")',
  }),
  {
    id: 'continue',
    displayName: 'Continue',
    format: 'yaml',
    container: ['mcpServers'],
    // Continue's config.yaml needs a name and version; a file Switchboard creates starts with them.
    yaml: { style: 'list', nameField: 'name', newFileHeader: 'name: Local Config\nversion: 1.0.0\nschema: v1\n' },
    configPath: (e) => p(e).join(continueHome(e), 'config.yaml'),
    installMarkers: (e) => [continueHome(e)],
    programs: ['cn'],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'In VS Code or JetBrains reload Continue (or its config), switch the chat to Agent mode and check the entry in the MCP servers list; the cn CLI picks it up in a new session.',
    source:
      'docs.continue.dev/customize/deep-dives/mcp and docs.continue.dev/reference ("mcpServers" list in ~/.continue/config.yaml); CONTINUE_GLOBAL_DIR override from continuedev/continue core/util/paths.ts',
  },
  {
    id: 'goose',
    displayName: 'Goose',
    format: 'yaml',
    container: ['extensions'],
    yaml: { style: 'map', nameField: 'name' },
    configPath: (e) => p(e).join(gooseConfigDir(e), 'config.yaml'),
    installMarkers: (e) => [gooseConfigDir(e)],
    programs: ['goose'],
    apps: (e) => appFolders(e, 'Goose', ['Goose']),
    // Goose's ExtensionEntry: `enabled` plus the tagged ExtensionConfig::Stdio fields (timeout in seconds), all of
    // them as Goose itself writes them back (serde keeps empty lists and null options): when Goose
    // rewrites config.yaml, the entry still reads as the one Switchboard wrote.
    entryFor: (s) => ({
      enabled: true,
      type: 'stdio',
      description: 'Switchboard profile',
      cmd: s.command,
      args: [...s.args],
      envs: {},
      env_keys: [],
      timeout: 300,
      bundled: null,
      available_tools: [],
    }),
    nextStep: 'Start a new Goose session (goose session, or a new chat in Goose Desktop); the entry is listed and enabled under Extensions.',
    source:
      'block.github.io/goose/docs/guides/config-files (~/.config/goose/config.yaml, %APPDATA%\\Block\\goose\\config\\config.yaml); entry shape from block/goose crates/goose/src/config/extensions.rs (ExtensionEntry) and agents/extension.rs (ExtensionConfig::Stdio); GOOSE_PATH_ROOT from config/paths.rs',
  },
  {
    ...simple('cursor-cli', 'Cursor CLI', () => ['.cursor', 'mcp.json'], {
      programs: ['cursor-agent', 'agent'],
      nextStep: 'Start a new Cursor CLI session (cursor-agent); "cursor-agent mcp list" shows the entry.',
      source: 'cursor.com/docs/cli/mcp ("MCP in the CLI uses the same configuration as the editor": ~/.cursor/mcp.json)',
    }),
    // One file, one entry for both: the entry names Cursor as its client (the editor and the CLI
    // read it alike), so connecting the CLI after the editor finds it already there.
    sharesFileWith: 'cursor',
    // Not ~/.cursor: the editor makes that folder too, so every Cursor user would "have" the CLI
    // (and be offered everything twice). The CLI's own installer folder and settings file are its.
    installMarkers: (e) =>
      e.platform === 'win32'
        ? [p(e).join(localAppData(e), 'cursor-agent'), p(e).join(userHome(e), '.cursor', 'cli-config.json')]
        : [p(e).join(userHome(e), '.local', 'share', 'cursor-agent'), p(e).join(userHome(e), '.cursor', 'cli-config.json')],
  },
  {
    id: 'vscode-server',
    displayName: 'VS Code Server (remote)',
    format: 'json',
    container: ['servers'],
    configPath: (e) => p(e).join(userHome(e), '.vscode-server', 'data', 'User', 'mcp.json'),
    installMarkers: (e) => [p(e).join(userHome(e), '.vscode-server')],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'In the VS Code window connected to this machine run "MCP: List Servers", pick the entry and choose Start (it asks you to trust it the first time).',
    source: 'code.visualstudio.com/docs/copilot/customization/mcp-servers (remote user mcp.json) and code.visualstudio.com/docs/remote (server data in ~/.vscode-server/data)',
  },
  simple('windsurf-jetbrains', 'Windsurf for JetBrains', () => ['.codeium', 'mcp_config.json'], {
    // ~/.codeium is shared with the Windsurf editor (which keeps its own file one folder down).
    nextStep: 'In your JetBrains IDE open Settings → Tools → Windsurf Settings, check the entry under MCP servers and press Refresh.',
    source: 'docs.windsurf.com/plugins/cascade/mcp (~/.codeium/mcp_config.json, "mcpServers")',
  }),
  {
    id: 'crush',
    displayName: 'Crush',
    format: 'json',
    container: ['mcp'],
    configPath: (e) => p(e).join(crushConfigDir(e), 'crush.json'),
    installMarkers: (e) => [crushConfigDir(e)],
    programs: ['crush'],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'Start a new Crush session; the entry shows in its MCP list.',
    source:
      'github.com/charmbracelet/crush README and internal/config/load.go globalConfig() ($XDG_CONFIG_HOME/crush/crush.json, %LOCALAPPDATA%\\crush\\crush.json on Windows, else ~/.config/crush/crush.json; "mcp", type "stdio")',
  },
  {
    id: 'kilo-cli',
    displayName: 'Kilo CLI',
    format: 'json',
    container: ['mcp'],
    configPath: (e) => preferJsonc(e, p(e).join(xdgConfig(e), 'kilo'), 'kilo'),
    installMarkers: (e) => [p(e).join(xdgConfig(e), 'kilo')],
    programs: ['kilo', 'kilocode'],
    // The Kilo CLI is built on opencode: the same "mcp" map with the command and args in one array.
    entryFor: (s) => ({ type: 'local', command: [s.command, ...s.args], enabled: true }),
    nextStep: 'Start a new Kilo CLI session (kilo); "kilo mcp list" shows the entry.',
    source: 'kilo.ai/docs/automate/mcp/using-in-cli (global ~/.config/kilo/kilo.json or kilo.jsonc, "mcp", type "local"); npm @kilocode/cli 7.8.1 bin kilo',
  },
  {
    id: 'anythingllm',
    displayName: 'AnythingLLM',
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(electronAppDir(e, 'anythingllm-desktop'), 'storage', 'plugins', 'anythingllm_mcp_servers.json'),
    installMarkers: (e) => [p(e).join(electronAppDir(e, 'anythingllm-desktop'), 'storage')],
    apps: (e) => appFolders(e, 'AnythingLLM', ['AnythingLLM']),
    entryFor: stdioEntry,
    nextStep: 'In AnythingLLM open Agent Skills and press Refresh under MCP Servers; the entry starts when an @agent chat needs it.',
    source:
      'docs.anythingllm.com/mcp-compatibility/overview and /mcp-compatibility/desktop (storage/plugins/anythingllm_mcp_servers.json, "mcpServers"); storage folder per docs.anythingllm.com/installation-desktop/storage',
  },
  {
    id: 'devin',
    displayName: 'Devin',
    format: 'json',
    container: ['mcpServers'],
    configPath: (e) => p(e).join(e.platform === 'win32' ? p(e).join(appData(e), 'devin') : p(e).join(xdgConfig(e), 'devin'), 'config.json'),
    installMarkers: (e) => [e.platform === 'win32' ? p(e).join(appData(e), 'devin') : p(e).join(xdgConfig(e), 'devin')],
    programs: ['devin'],
    entryFor: stdioEntry,
    nextStep: 'Start a new Devin CLI session; "devin mcp list" shows the entry.',
    source: 'docs.devin.ai/cli/extensibility/mcp/configuration and /cli/reference/configuration/config-file (user scope ~/.config/devin/config.json, %APPDATA%\\devin\\config.json on Windows, "mcpServers")',
  },
  {
    ...simple('warp', 'Warp', () => ['.warp', '.mcp.json'], {
      programs: ['warp', 'warp-terminal'],
      apps: (e) => appFolders(e, 'Warp', ['Warp']),
      nextStep: 'In Warp open Settings → MCP Servers: the entry is listed there; start it if it is not running.',
      source: 'github.com/warpdotdev/warp agent-add-mcp skill (global ~/.warp/.mcp.json on every OS, "mcpServers"); docs.warp.dev/knowledge-and-collaboration/mcp',
    }),
  },
  {
    id: 'mistral-vibe',
    displayName: 'Mistral Vibe',
    format: 'toml',
    container: ['mcp_servers'],
    tomlList: { nameField: 'name' },
    configPath: (e) => p(e).join(vibeHome(e), 'config.toml'),
    installMarkers: (e) => [vibeHome(e)],
    programs: ['vibe', 'vibe-acp'],
    entryFor: (s) => ({ transport: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'Start a new vibe session; the profile\'s tools are listed under the entry\'s name.',
    source:
      'docs.mistral.ai/vibe/code/cli/mcp-servers and docs.mistral.ai/mistral-vibe/terminal/configuration ([[mcp_servers]] with name, transport "stdio", command, args in ~/.vibe/config.toml; $VIBE_HOME moves it)',
  },
  copyPaste('jan', 'Jan', {
    apps: (e) => appFolders(e, 'Jan', ['Jan']),
    markers: (e) => [electronAppDir(e, 'Jan')],
    steps: (x) => [
      'Open Jan and go to Settings → MCP Servers.',
      'Click "+ Add MCP Server" (top right).',
      `Server name: ${x.name}`,
      'Transport: STDIO',
      `Command: ${x.command}`,
      `Arguments, one per field, in this order:\n${argLines(x.args)}`,
      'Save, then switch the server on: it shows a green dot when it runs.',
    ],
    nextStep: 'In a new Jan chat, the profile\'s tools are offered once the server is switched on.',
    source: 'jan.ai/docs/desktop/integrations/mcp-servers (servers added in Settings → MCP Servers only)',
  }),
  copyPaste('boltai', 'BoltAI', {
    apps: (e) => appFolders(e, 'BoltAI', []),
    // The labels below could not be checked against BoltAI's docs, so they name the section, not exact buttons.
    steps: (x) => [
      "Open BoltAI's Settings and go to its MCP servers section.",
      'Add a server; where it offers to paste JSON (or to import a Claude Desktop style config), paste this:',
      x.json,
      `If it asks for the fields one by one instead: name ${x.name}, command ${x.command}, and the arguments in this order:\n${argLines(x.args)}`,
      `Save, and switch "${x.name}" on for the chats that should use it.`,
    ],
    nextStep: 'Start a new BoltAI chat with the MCP server switched on.',
    source: "boltai.com (macOS app; its MCP list lives in the app's own settings; no BoltAI MCP page was found in the search corpus on 2026-12-04, so the steps name the section rather than exact buttons)",
  }),
  copyPaste('trae', 'Trae', {
    apps: (e) => appFolders(e, 'Trae', ['Trae']),
    markers: (e) => [electronAppDir(e, 'Trae')],
    steps: (x) => [
      'In Trae click the settings icon (top right) and choose MCP.',
      'Click Add → Add Manually.',
      `Paste this into the box and click Confirm:\n${x.json}`,
      ...(/\s/.test(x.command) ? [`Trae refuses a command that contains spaces; this one does (${x.command}). Install Switchboard in a folder without spaces, then run this connect again.`] : []),
    ],
    nextStep: 'Use the entry from a Builder with MCP chat (@Builder with MCP); its tools are listed under MCP.',
    source:
      'docs.trae.ai / volcengine.com/docs/86677/2137601 (TRAE: Settings → MCP → Add → Add Manually takes the JSON; its own mcp.json file has no documented path, so nothing is written)',
  }),
  copyPaste('witsy', 'Witsy', {
    apps: (e) => appFolders(e, 'Witsy', ['Witsy']),
    markers: (e) => [electronAppDir(e, 'Witsy')],
    steps: (x) => [
      'Open Witsy and go to Settings → MCP Servers.',
      'Click "+" and choose a custom server of type stdio.',
      `Command: ${x.command}`,
      `Arguments, in one field separated by spaces:\n       ${x.args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`,
      // Witsy's stdio transport splits that field at every space on macOS and Linux (src/main/mcp.ts), quotes or not.
      ...(x.args.some((a) => /\s/.test(a))
        ? ['An argument above contains a space. Witsy on macOS and Linux splits the field at every space, so it would break there (on Windows the quotes keep it whole): use a Switchboard folder whose path has no spaces, then run this connect again.']
        : []),
      `Label: ${x.name}`,
      'Save, and check the server shows as running.',
    ],
    nextStep: 'Start a new Witsy chat; the profile\'s tools are offered to models that use tools.',
    source:
      'github.com/nbonamy/witsy src/main/mcp.ts and src/components/McpServerEditor.vue (servers kept in the app\'s settings, config.mcp.servers; stdio args as one string split at spaces, through cmd /C on Windows)',
  }),
];

/** Crush's global folder: $XDG_CONFIG_HOME/crush, %LOCALAPPDATA%\\crush on Windows, else ~/.config/crush (internal/config/load.go). */
function crushConfigDir(e: ClientEnv): string {
  if (e.env.XDG_CONFIG_HOME) return p(e).join(e.env.XDG_CONFIG_HOME, 'crush');
  if (e.platform === 'win32') return p(e).join(localAppData(e), 'crush');
  return p(e).join(userHome(e), '.config', 'crush');
}

function vibeHome(e: ClientEnv): string {
  return e.env.VIBE_HOME || p(e).join(userHome(e), '.vibe');
}

function continueHome(e: ClientEnv): string {
  return e.env.CONTINUE_GLOBAL_DIR || p(e).join(userHome(e), '.continue');
}

/** Goose's config folder: $GOOSE_PATH_ROOT/config, else etcetera's app strategy (XDG on macOS and Linux, %APPDATA%\Block\goose\config on Windows). */
function gooseConfigDir(e: ClientEnv): string {
  const root = e.env.GOOSE_PATH_ROOT;
  if (root && p(e).isAbsolute(root)) return p(e).join(root, 'config');
  if (e.platform === 'win32') return p(e).join(appData(e), 'Block', 'goose', 'config');
  const xdg = e.env.XDG_CONFIG_HOME;
  return p(e).join(xdg && p(e).isAbsolute(xdg) ? xdg : p(e).join(userHome(e), '.config'), 'goose');
}

function codexHome(e: ClientEnv): string {
  return e.env.CODEX_HOME || p(e).join(userHome(e), '.codex');
}

function zedDir(e: ClientEnv): string {
  return e.platform === 'win32' ? p(e).join(appData(e), 'Zed') : p(e).join(xdgConfig(e), 'zed');
}

/** Every entry tells its shim which client it serves (`--client ID`, see withClient). */
export const CLIENT_SPECS: readonly ClientSpec[] = SPECS.map((s) => ({
  ...s,
  entryFor: (shim: ShimEntry) => s.entryFor(withClient(shim, s.sharesFileWith ?? s.id)),
  entryWithoutClient: s.entryFor,
}));

export const CLIENT_IDS: readonly string[] = CLIENT_SPECS.map((s) => s.id);
