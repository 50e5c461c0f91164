// What the engine does with each client of the catalog (src-shared/client-catalog.ts): the entry
// it writes, how it tells the client is installed, and what the user does next. Where the file is
// and what it looks like come from the catalog; the paths from client-paths.ts.
import { CLIENT_CATALOG, type ClientCatalogEntry, type ConnectableClientId } from '../../../src-shared/client-catalog.ts';
import { appFolders, electronAppDir, folderOf, localAppData, pathsFor, resolvePath, userHome, type ClientEnv } from './client-paths.ts';
import { withClient, type ShimEntry } from '../platform/shim-entry.ts';
import type { YamlShape } from './yaml-entry-edit.ts';

export { userHome, type ClientEnv } from './client-paths.ts';

export interface ClientSpec {
  id: string;
  displayName: string;
  format: 'json' | 'toml' | 'yaml';
  /** Path of the servers object inside the file. */
  container: readonly string[];
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

/** What the engine adds to a catalog client; `file` is the client's config path (or '' for copy-paste clients). */
type ConnectRules = Pick<ClientSpec, 'nextStep' | 'programs' | 'apps' | 'cli' | 'trust' | 'bareUrlTransport' | 'sharesFileWith'> & {
  /** Default: the folder of the client's file. */
  installMarkers?(e: ClientEnv, file: string): string[];
  /** Default: `{command, args}`. */
  entryFor?(shim: ShimEntry): Record<string, unknown>;
  /** For copy-paste clients: the steps `connect` shows. */
  steps?(entry: PasteEntry): string[];
};

const stdioEntry = (s: ShimEntry): Record<string, unknown> => ({ command: s.command, args: [...s.args] });
const typedStdioEntry = (s: ShimEntry): Record<string, unknown> => ({ type: 'stdio', command: s.command, args: [...s.args] });
/** opencode and the Kilo CLI built on it take the command and its arguments as one array and reject unknown keys. */
const localEntry = (s: ShimEntry): Record<string, unknown> => ({ type: 'local', command: [s.command, ...s.args], enabled: true });
const home = (e: ClientEnv, ...rel: string[]): string => pathsFor(e).join(userHome(e), ...rel);
/** `levels` folders up from `file`. */
const up = (e: ClientEnv, file: string, levels: number): string => (levels === 0 ? file : up(e, pathsFor(e).dirname(file), levels - 1));

/** The JSON most MCP settings screens take when they offer "paste JSON". */
export function pasteEntry(name: string, shim: ShimEntry): PasteEntry {
  const json = JSON.stringify({ mcpServers: { [name]: { command: shim.command, args: shim.args } } }, null, 2);
  return { name, command: shim.command, args: [...shim.args], json };
}

/** Each argument on its own line, quoted as JSON so spaces and empty ones stay visible. */
const argLines = (args: readonly string[]): string => args.map((a) => `       ${JSON.stringify(a)}`).join('\n');

/** A VS Code extension that keeps its own server list in VS Code's globalStorage (its folder is two up from the file). */
function vscodeExtension(displayName: string): ConnectRules {
  return {
    installMarkers: (e, file) => [up(e, file, 2)],
    // These extensions watch their settings file: no restart, but the server shows in their MCP view.
    nextStep: `Open ${displayName}'s MCP Servers view in VS Code and check that the entry is enabled (it reloads the file by itself).`,
  };
}

const RULES: { readonly [id in ConnectableClientId]: ConnectRules } = {
  'claude-desktop': {
    apps: (e) => appFolders(e, 'Claude', ['AnthropicClaude']),
    nextStep: 'Quit Claude Desktop completely (from the menu bar or tray, not just the window) and open it again.',
  },
  cursor: {
    programs: ['cursor', 'cursor-agent'],
    apps: (e) => appFolders(e, 'Cursor', ['cursor']),
    nextStep: 'Open Cursor Settings → MCP (Tools & Integrations) and check that the entry is switched on; restart Cursor if it does not show.',
  },
  vscode: {
    programs: ['code'],
    apps: (e) => appFolders(e, 'Visual Studio Code', ['Microsoft VS Code']),
    entryFor: typedStdioEntry,
    nextStep: 'In VS Code run "MCP: List Servers", pick the entry and choose Start (VS Code asks you to trust it the first time); use it from Copilot Chat in Agent mode.',
  },
  'claude-code': {
    installMarkers: (e) => [home(e, '.claude.json'), home(e, '.claude')],
    entryFor: (s) => ({ type: 'stdio', command: s.command, args: [...s.args], env: {} }),
    cli: 'claude',
    nextStep: 'Start a new Claude Code session; /mcp lists the entry.',
  },
  windsurf: {
    apps: (e) => appFolders(e, 'Windsurf', ['Windsurf']),
    programs: ['windsurf'],
    nextStep: 'Open Cascade\'s MCP panel in Windsurf and press Refresh (or restart Windsurf).',
  },
  lmstudio: {
    programs: ['lms'],
    apps: (e) => appFolders(e, 'LM Studio', ['LM Studio']),
    nextStep: 'LM Studio reloads mcp.json by itself; enable the entry under Program → Integrations in a chat.',
  },
  'gemini-cli': {
    programs: ['gemini'],
    nextStep: 'Start a new Gemini CLI session in a folder you trust: Gemini CLI ignores MCP servers in untrusted folders.',
    trust: { file: (e) => home(e, '.gemini', 'trustedFolders.json'), value: 'TRUST_FOLDER' },
    bareUrlTransport: 'sse',
  },
  codex: {
    programs: ['codex'],
    nextStep: 'Start a new Codex session; /mcp lists the entry.',
  },
  zed: {
    programs: ['zed'],
    apps: (e) => appFolders(e, 'Zed', ['Zed']),
    entryFor: (s) => ({ source: 'custom', command: s.command, args: [...s.args], env: {} }),
    nextStep: 'Zed reloads its settings by itself; check the entry\'s dot in the Agent panel\'s settings.',
  },
  'vscode-insiders': {
    programs: ['code-insiders'],
    apps: (e) => appFolders(e, 'Visual Studio Code - Insiders', ['Microsoft VS Code Insiders']),
    entryFor: typedStdioEntry,
    nextStep: 'In VS Code Insiders run "MCP: List Servers", pick the entry and choose Start (it asks you to trust it the first time).',
  },
  cline: vscodeExtension('Cline'),
  'roo-code': vscodeExtension('Roo Code'),
  'kilo-code': vscodeExtension('Kilo Code'),
  'visual-studio': {
    // Visual Studio exists only on Windows; elsewhere the path is shown but never detected as installed.
    installMarkers: (e) =>
      e.platform === 'win32'
        ? [e.env['ProgramFiles'], e.env['ProgramFiles(x86)']].filter((d): d is string => !!d).map((d) => pathsFor(e).join(d, 'Microsoft Visual Studio'))
        : [],
    entryFor: typedStdioEntry,
    nextStep: 'In Visual Studio open Copilot Chat, switch to Agent mode and enable the entry\'s tools in the tools list (17.14 or later).',
  },
  'copilot-cli': {
    programs: ['copilot'],
    // Copilot CLI wants a type and an explicit tool list; "*" lets the profile decide what is offered.
    entryFor: (s) => ({ type: 'local', command: s.command, args: [...s.args], tools: ['*'] }),
    nextStep: 'Start a new copilot session; /mcp show lists the entry.',
  },
  'qwen-code': {
    programs: ['qwen'],
    nextStep: 'Start a new Qwen Code session (qwen); /mcp lists the entry.',
    trust: { file: (e) => home(e, '.qwen', 'trustedFolders.json'), value: 'TRUST_FOLDER' },
  },
  kiro: {
    installMarkers: (e) => [home(e, '.kiro')],
    programs: ['kiro', 'kiro-cli'],
    apps: (e) => appFolders(e, 'Kiro', ['Kiro']),
    nextStep: 'Kiro reloads mcp.json by itself; check the entry in the Kiro panel\'s MCP Servers list (Kiro CLI: start a new chat).',
  },
  'amazon-q': {
    programs: ['q', 'qchat'],
    nextStep: 'Open the Amazon Q chat panel in your IDE and choose the tools icon: the entry is listed under MCP servers (reload the panel if it does not show).',
  },
  amp: {
    programs: ['amp'],
    nextStep: 'Start a new Amp thread (amp in the terminal, or reload the Amp extension).',
  },
  opencode: {
    programs: ['opencode'],
    entryFor: localEntry,
    nextStep: 'Start a new opencode session; "opencode mcp list" shows the entry.',
  },
  antigravity: {
    programs: ['agy', 'antigravity'],
    apps: (e) => appFolders(e, 'Antigravity', ['Antigravity']),
    installMarkers: (e) => [home(e, '.gemini', 'config'), home(e, '.gemini', 'antigravity')],
    nextStep: 'In Antigravity open the agent panel\'s "…" → MCP Servers → Manage MCP Servers and press Refresh.',
  },
  'factory-droid': {
    programs: ['droid'],
    entryFor: typedStdioEntry,
    nextStep: 'Start a new droid session; /mcp lists the entry.',
  },
  'kimi-code': {
    // The npm package @moonshot-ai/kimi-code installs the program `kimi` (npm view … bin).
    programs: ['kimi'],
    nextStep: 'Start a new Kimi Code session; /mcp shows the entry.',
  },
  junie: {
    installMarkers: (e) => [home(e, '.junie')],
    programs: ['junie'],
    nextStep: 'In your JetBrains IDE open Settings → Tools → Junie → MCP Settings and check the entry (Junie CLI: start a new session).',
  },
  auggie: {
    programs: ['auggie'],
    nextStep: 'Start a new auggie session; "auggie mcp list" shows the entry.',
  },
  continue: {
    programs: ['cn'],
    entryFor: typedStdioEntry,
    nextStep: 'In VS Code or JetBrains reload Continue (or its config), switch the chat to Agent mode and check the entry in the MCP servers list; the cn CLI picks it up in a new session.',
  },
  goose: {
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
  },
  'cursor-cli': {
    programs: ['cursor-agent', 'agent'],
    nextStep: 'Start a new Cursor CLI session (cursor-agent); "cursor-agent mcp list" shows the entry.',
    // One file, one entry for both: the entry names Cursor as its client (the editor and the CLI
    // read it alike), so connecting the CLI after the editor finds it already there.
    sharesFileWith: 'cursor',
    // Not ~/.cursor: the editor makes that folder too, so every Cursor user would "have" the CLI
    // (and be offered everything twice). The CLI's own installer folder and settings file are its.
    installMarkers: (e) =>
      e.platform === 'win32'
        ? [pathsFor(e).join(localAppData(e), 'cursor-agent'), home(e, '.cursor', 'cli-config.json')]
        : [home(e, '.local', 'share', 'cursor-agent'), home(e, '.cursor', 'cli-config.json')],
  },
  'vscode-server': {
    installMarkers: (e) => [home(e, '.vscode-server')],
    entryFor: typedStdioEntry,
    nextStep: 'In the VS Code window connected to this machine run "MCP: List Servers", pick the entry and choose Start (it asks you to trust it the first time).',
  },
  'windsurf-jetbrains': {
    nextStep: 'In your JetBrains IDE open Settings → Tools → Windsurf Settings, check the entry under MCP servers and press Refresh.',
  },
  crush: {
    programs: ['crush'],
    entryFor: typedStdioEntry,
    nextStep: 'Start a new Crush session; the entry shows in its MCP list.',
  },
  'kilo-cli': {
    programs: ['kilo', 'kilocode'],
    entryFor: localEntry,
    nextStep: 'Start a new Kilo CLI session (kilo); "kilo mcp list" shows the entry.',
  },
  anythingllm: {
    installMarkers: (e, file) => [up(e, file, 2)],
    apps: (e) => appFolders(e, 'AnythingLLM', ['AnythingLLM']),
    nextStep: 'In AnythingLLM open Agent Skills and press Refresh under MCP Servers; the entry starts when an @agent chat needs it.',
  },
  devin: {
    programs: ['devin'],
    nextStep: 'Start a new Devin CLI session; "devin mcp list" shows the entry.',
  },
  warp: {
    programs: ['warp', 'warp-terminal'],
    apps: (e) => appFolders(e, 'Warp', ['Warp']),
    nextStep: 'In Warp open Settings → MCP Servers: the entry is listed there; start it if it is not running.',
  },
  'mistral-vibe': {
    programs: ['vibe', 'vibe-acp'],
    entryFor: (s) => ({ transport: 'stdio', command: s.command, args: [...s.args] }),
    nextStep: 'Start a new vibe session; the profile\'s tools are listed under the entry\'s name.',
  },
  jan: {
    apps: (e) => appFolders(e, 'Jan', ['Jan']),
    installMarkers: (e) => [electronAppDir(e, 'Jan')],
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
  },
  boltai: {
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
  },
  trae: {
    apps: (e) => appFolders(e, 'Trae', ['Trae']),
    installMarkers: (e) => [electronAppDir(e, 'Trae')],
    steps: (x) => [
      'In Trae click the settings icon (top right) and choose MCP.',
      'Click Add → Add Manually.',
      `Paste this into the box and click Confirm:\n${x.json}`,
      ...(/\s/.test(x.command) ? [`Trae refuses a command that contains spaces; this one does (${x.command}). Install Switchboard in a folder without spaces, then run this connect again.`] : []),
    ],
    nextStep: 'Use the entry from a Builder with MCP chat (@Builder with MCP); its tools are listed under MCP.',
  },
  witsy: {
    apps: (e) => appFolders(e, 'Witsy', ['Witsy']),
    installMarkers: (e) => [electronAppDir(e, 'Witsy')],
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
  },
};

/** The client's spec: the catalog's file joined with the engine's rules. */
function specOf(c: ClientCatalogEntry, rules: ConnectRules): ClientSpec {
  const { installMarkers, entryFor = stdioEntry, steps, ...rest } = rules;
  const file = c.file;
  const configPath = file ? (e: ClientEnv) => resolvePath(file.at, e) : () => '';
  const legacy = file?.legacy;
  return {
    id: c.id,
    displayName: c.name,
    format: file?.format ?? 'json',
    container: file?.container ?? [],
    ...(file?.tomlList ? { tomlList: file.tomlList } : {}),
    ...(file?.yaml ? { yaml: file.yaml } : {}),
    configPath,
    installMarkers: (e) => installMarkers?.(e, configPath(e)) ?? (file ? [folderOf(file.at, e)] : []),
    entryFor,
    source: file?.source ?? c.copyPaste?.source ?? '',
    ...(steps ? { manual: { steps } } : {}),
    ...(legacy ? { legacyPaths: (e: ClientEnv) => legacy.map((r) => resolvePath(r, e)) } : {}),
    ...rest,
  };
}

const connectable = (c: ClientCatalogEntry): c is ClientCatalogEntry & { id: ConnectableClientId } => c.file !== undefined || c.copyPaste !== undefined;

/** Every entry tells its shim which client it serves (`--client ID`, see withClient). */
export const CLIENT_SPECS: readonly ClientSpec[] = (CLIENT_CATALOG as readonly ClientCatalogEntry[]).filter(connectable).map((c) => {
  const s = specOf(c, RULES[c.id]);
  return { ...s, entryFor: (shim: ShimEntry) => s.entryFor(withClient(shim, s.sharesFileWith ?? s.id)), entryWithoutClient: s.entryFor };
});

export const CLIENT_IDS: readonly string[] = CLIENT_SPECS.map((s) => s.id);
