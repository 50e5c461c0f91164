// Every MCP client Switchboard knows, once: its connector id (what `connect`, `--client` and a
// profile's `clients` key say), the name people know it by, what it takes from one server entry
// (tool count, tool-name length with its own prefix) and where its server list lives on each OS.
// The engine adds what only it can do (entry shapes, install detection, next steps:
// engine/clients/client-specs.ts); names, limits and records read this. Pure data.
// docs/clients.md lists the clients for people.

/**
 * A folder every OS names its own way, resolved by the engine from the environment:
 * - home: $HOME (%USERPROFILE% on Windows)
 * - appData / localAppData: %APPDATA% / %LOCALAPPDATA%, else <home>\AppData\Roaming / Local
 * - xdgConfig: $XDG_CONFIG_HOME, else <home>/.config, on every OS (xdg-basedir, Go's XDG-first lookups)
 * - appSettings: the per-user settings folder of Electron apps: ~/Library/Application Support
 *   on macOS, %APPDATA% on Windows, xdgConfig elsewhere
 */
export type BaseFolder = 'home' | 'appData' | 'localAppData' | 'xdgConfig' | 'appSettings';

/** How a client finds a file or folder; evaluated by engine/clients/client-paths.ts. */
export type PathRule =
  /** `path` inside a base folder or inside another rule's result. */
  | { readonly in: BaseFolder | PathRule; readonly path?: readonly string[] }
  /** `path` inside $env when it is set (and absolute, with absoluteOnly: the client ignores a relative one), else `else`. */
  | { readonly env: string; readonly absoluteOnly?: boolean; readonly path?: readonly string[]; readonly else: PathRule }
  /** One rule on Windows, another elsewhere. */
  | { readonly win32: PathRule; readonly else: PathRule }
  /** `then` (default: the probed path itself) when `ifExists` exists on disk, else `else`. */
  | { readonly ifExists: PathRule; readonly then?: PathRule; readonly else: PathRule };

/** The file a client keeps its server list in, and where in it. */
export interface ClientConfigFile {
  at: PathRule;
  format: 'json' | 'toml' | 'yaml';
  /** Path of the servers object inside the file. */
  container: readonly string[];
  /** For format 'toml': the servers are a `[[container]]` list whose items name themselves in `nameField` (Mistral Vibe). */
  tomlList?: { readonly nameField: string };
  /** For format 'yaml': whether the servers are a map or a list of named items (container[0] is the key). */
  yaml?: { readonly style: 'map' | 'list'; readonly nameField?: string; readonly newFileHeader?: string };
  /** Older files the client still reads when present: import reads them too; connect never writes them. */
  legacy?: readonly PathRule[];
  /** Where the path and entry shape were checked (docs page or source). */
  source: string;
}

/** How a client composes the tool name its model sees from its entry name and ours. */
export type ToolNameTemplate = '{tool}' | '{entry}_{tool}' | '{entry}-{tool}' | 'mcp_{entry}_{tool}' | 'mcp__{entry}__{tool}';

/** What a client takes from one server entry; past it, it drops tools or refuses the server, silently. */
export interface ClientLimitFigures {
  /** Tools the client uses from all its servers together; past it, some are left out. Absent: no known cap. */
  maxTools?: number;
  /** Longest tool name the client (or the model API behind it) accepts, counted on the name as it composes it. */
  maxNameChars: number;
  toolName: ToolNameTemplate;
  /** Where the figures were checked. */
  source: string;
}

export interface ClientCatalogEntry {
  id: string;
  /** The client's name as its makers write it. */
  name: string;
  /** Its server file; absent for clients without one Switchboard may write. */
  file?: ClientConfigFile;
  /** The client keeps its list in its own settings screen or database: `connect` shows steps to paste. */
  copyPaste?: { source: string };
  limits?: ClientLimitFigures;
}

const home = (...path: string[]): PathRule => ({ in: 'home', path });
const appSettings = (...path: string[]): PathRule => ({ in: 'appSettings', path });
const inside = (dir: PathRule, ...path: string[]): PathRule => ({ in: dir, path });
/** `$name`, else `fallback`. */
const envOr = (name: string, fallback: PathRule): PathRule => ({ env: name, else: fallback });
/** `<dir>/<base>.jsonc` when that exists (the client then reads it), else `<dir>/<base>.json`. */
const jsoncFirst = (dir: PathRule, base: string): PathRule => ({ ifExists: inside(dir, `${base}.jsonc`), else: inside(dir, `${base}.json`) });
const servers = (at: PathRule, source: string, container: readonly string[] = ['mcpServers']): ClientConfigFile => ({ at, format: 'json', container, source });
/** A VS Code extension that keeps its own server list in VS Code's globalStorage. */
const vscodeExtension = (extensionId: string, file: string, source: string): ClientConfigFile =>
  servers(appSettings('Code', 'User', 'globalStorage', extensionId, 'settings', file), source);

const ANTHROPIC_NAMES = 'Anthropic Messages API tool name ^[a-zA-Z0-9_-]{1,64}$';
const vscodeLimits: ClientLimitFigures = {
  maxTools: 128,
  maxNameChars: 64,
  toolName: 'mcp_{entry}_{tool}',
  source: 'code.visualstudio.com/docs/copilot/customization/mcp-servers (128 tools per request; tools named mcp_<server>_<tool>, 64 characters)',
};

/** The Microsoft Store (MSIX) build of Claude keeps its files in a virtualised AppData. */
export const CLAUDE_MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';
const claudeMsix: PathRule = { in: 'localAppData', path: ['Packages', CLAUDE_MSIX_PACKAGE] };
// The MSIX app reads only its virtualised copy; writing %APPDATA% would go unnoticed.
const claudeDesktopDir: PathRule = { win32: { ifExists: claudeMsix, then: inside(claudeMsix, 'LocalCache', 'Roaming', 'Claude'), else: appSettings('Claude') }, else: appSettings('Claude') };
const codexHome = envOr('CODEX_HOME', home('.codex'));
const zedDir: PathRule = { win32: { in: 'appData', path: ['Zed'] }, else: { in: 'xdgConfig', path: ['zed'] } };
const antigravityCurrent = home('.gemini', 'config', 'mcp_config.json');
/** Goose's config folder: $GOOSE_PATH_ROOT/config, else etcetera's app strategy (XDG on macOS and Linux, %APPDATA%\Block\goose\config on Windows). */
const gooseConfigDir: PathRule = {
  env: 'GOOSE_PATH_ROOT',
  absoluteOnly: true,
  path: ['config'],
  else: { win32: { in: 'appData', path: ['Block', 'goose', 'config'] }, else: { env: 'XDG_CONFIG_HOME', absoluteOnly: true, path: ['goose'], else: home('.config', 'goose') } },
};
/** Crush's global folder: $XDG_CONFIG_HOME/crush, %LOCALAPPDATA%\crush on Windows, else ~/.config/crush (internal/config/load.go). */
const crushConfigDir: PathRule = { env: 'XDG_CONFIG_HOME', path: ['crush'], else: { win32: { in: 'localAppData', path: ['crush'] }, else: home('.config', 'crush') } };
const devinDir: PathRule = { win32: { in: 'appData', path: ['devin'] }, else: { in: 'xdgConfig', path: ['devin'] } };

// Paths are the user-level (global) file of each client. The order is the order clients are listed in.
export const CLIENT_CATALOG = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    file: servers(inside(claudeDesktopDir, 'claude_desktop_config.json'), "modelcontextprotocol.io/quickstart/user; MSIX path: the app's own LocalCache redirection"),
    // Claude Desktop sends the server's own tool name to the same API (no prefix of its own).
    limits: { maxNameChars: 64, toolName: '{tool}', source: `${ANTHROPIC_NAMES}; Desktop takes names Claude Code rejects with its prefix (anthropics/claude-code#2445)` },
  },
  {
    id: 'cursor',
    name: 'Cursor',
    file: servers(home('.cursor', 'mcp.json'), 'docs.cursor.com/context/mcp (global ~/.cursor/mcp.json)'),
    // Cursor warns past 40 tools and limits server name + tool name to 60 characters.
    limits: { maxTools: 40, maxNameChars: 60, toolName: '{entry}_{tool}', source: 'docs.cursor.com/context/mcp (40 tools; 60 characters for server + tool name)' },
  },
  {
    id: 'vscode',
    name: 'VS Code',
    file: servers(appSettings('Code', 'User', 'mcp.json'), 'code.visualstudio.com/docs/copilot/customization/mcp-servers (user mcp.json, "servers")', ['servers']),
    limits: vscodeLimits,
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    file: servers(home('.claude.json'), 'docs.anthropic.com/en/docs/claude-code/mcp (user scope in ~/.claude.json; claude mcp add-json)'),
    // Anthropic's API refuses a tool name over 64 characters ("tools.N.custom.name: String should
    // have at most 64 characters") and Claude Code sends mcp__<entry>__<tool>.
    limits: { maxNameChars: 64, toolName: 'mcp__{entry}__{tool}', source: `${ANTHROPIC_NAMES}; Claude Code names MCP tools mcp__<server>__<tool> (anthropics/claude-code#2536)` },
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    file: servers(home('.codeium', 'windsurf', 'mcp_config.json'), 'docs.windsurf.com/windsurf/cascade/mcp (~/.codeium/windsurf/mcp_config.json)'),
    // Windsurf (Cascade) takes at most 50 tools here; names go to models that accept 64.
    limits: { maxTools: 50, maxNameChars: 64, toolName: '{entry}_{tool}', source: 'docs.windsurf.com/windsurf/cascade/mcp (tool cap); model APIs take 64-character names' },
  },
  { id: 'lmstudio', name: 'LM Studio', file: servers(home('.lmstudio', 'mcp.json'), 'lmstudio.ai/docs/app/plugins/mcp (~/.lmstudio/mcp.json)') },
  {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    file: servers(home('.gemini', 'settings.json'), 'github.com/google-gemini/gemini-cli docs/tools/mcp-server.md and docs/cli/trusted-folders.md'),
    // Gemini CLI 0.61: mcp_<server>_<tool>, [A-Za-z0-9_.:-], past 63 it keeps 30 + "..." + 30.
    limits: {
      maxTools: 128,
      maxNameChars: 63,
      toolName: 'mcp_{entry}_{tool}',
      source: '@google/gemini-cli 0.61.0 bundle, generateValidName (mcp_ prefix, MAX_FUNCTION_NAME_LENGTH 64 minus 1); Gemini API 128 function declarations',
    },
  },
  {
    id: 'codex',
    name: 'Codex CLI',
    file: { at: inside(codexHome, 'config.toml'), format: 'toml', container: ['mcp_servers'], source: 'github.com/openai/codex docs/config.md ([mcp_servers.NAME] in $CODEX_HOME/config.toml)' },
    // Codex: OpenAI's ^[a-zA-Z0-9_-]+$ and 64; past it Codex cuts the name and adds a SHA-1 suffix.
    limits: {
      maxTools: 128,
      maxNameChars: 64,
      toolName: 'mcp__{entry}__{tool}',
      source: 'openai/codex codex-rs mcp tool naming (mcp__<server>__<tool>, MAX_TOOL_NAME_LENGTH 64, ^[a-zA-Z0-9_-]+$); OpenAI API 128 tools',
    },
  },
  { id: 'zed', name: 'Zed', file: servers(inside(zedDir, 'settings.json'), 'zed.dev/docs/ai/mcp ("context_servers" in settings.json)', ['context_servers']) },
  {
    id: 'vscode-insiders',
    name: 'VS Code Insiders',
    file: servers(appSettings('Code - Insiders', 'User', 'mcp.json'), 'code.visualstudio.com MCP docs; the Insiders build keeps its user folder under "Code - Insiders"', ['servers']),
    limits: vscodeLimits,
  },
  {
    id: 'cline',
    name: 'Cline',
    file: vscodeExtension('saoudrizwan.claude-dev', 'cline_mcp_settings.json', 'docs.cline.bot/mcp/configuring-mcp-servers (globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json)'),
  },
  {
    id: 'roo-code',
    name: 'Roo Code',
    file: vscodeExtension('rooveterinaryinc.roo-cline', 'mcp_settings.json', 'docs.roocode.com/features/mcp/using-mcp-in-roo (global mcp_settings.json in globalStorage/rooveterinaryinc.roo-cline/settings)'),
  },
  {
    id: 'kilo-code',
    name: 'Kilo Code',
    file: vscodeExtension('kilocode.kilo-code', 'mcp_settings.json', 'kilo.ai/docs/automate/mcp/using-in-kilo-code (global mcp_settings.json in VS Code globalStorage)'),
  },
  {
    id: 'visual-studio',
    name: 'Visual Studio',
    // Visual Studio exists only on Windows; elsewhere the path is shown but never detected as installed.
    file: servers(home('.mcp.json'), 'learn.microsoft.com/visualstudio/ide/mcp-servers (%USERPROFILE%\\.mcp.json, "servers")', ['servers']),
  },
  {
    id: 'copilot-cli',
    name: 'GitHub Copilot CLI',
    file: servers(
      inside(envOr('COPILOT_HOME', home('.copilot')), 'mcp-config.json'),
      'docs.github.com/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers (~/.copilot/mcp-config.json, COPILOT_HOME)',
    ),
    // Copilot CLI: <server>-<tool>; the model APIs behind it (OpenAI, Bedrock) refuse past 64.
    limits: {
      maxTools: 128,
      maxNameChars: 64,
      toolName: '{entry}-{tool}',
      source: 'microsoft/copilot-cli#74 and microsoft/mcp#842 (names <server>-<tool>, "Member must have length less than or equal to 64")',
    },
  },
  {
    id: 'qwen-code',
    name: 'Qwen Code',
    file: servers(
      home('.qwen', 'settings.json'),
      'qwenlm.github.io/qwen-code-docs/en/users/features/mcp (user scope ~/.qwen/settings.json, "mcpServers"); trust list ~/.qwen/trustedFolders.json as Gemini CLI',
    ),
    // Qwen Code 0.24: mcp__<server>__<tool>, [A-Za-z0-9_-], past 63 it cuts and adds a hash.
    limits: { maxTools: 128, maxNameChars: 63, toolName: 'mcp__{entry}__{tool}', source: '@qwen-code/qwen-code 0.24.4 bundle, normalizeToolNameForProvider (MAX_TOOL_NAME_LENGTH 63)' },
  },
  { id: 'kiro', name: 'Kiro', file: servers(home('.kiro', 'settings', 'mcp.json'), 'kiro.dev/docs/mcp/configuration and kiro.dev/docs/cli/chat/configuration (~/.kiro/settings/mcp.json)') },
  {
    id: 'amazon-q',
    name: 'Amazon Q Developer',
    file: {
      ...servers(
        home('.aws', 'amazonq', 'default.json'),
        'docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/mcp-ide.html (global ~/.aws/amazonq/default.json, "mcpServers"; ~/.aws/amazonq/mcp.json is legacy, read while useLegacyMcpJson is true)',
      ),
      // default.json is the file Q's own MCP screen writes; mcp.json is read only while default.json's
      // useLegacyMcpJson is on, so it is kept for import and never written.
      legacy: [home('.aws', 'amazonq', 'mcp.json')],
    },
  },
  {
    id: 'amp',
    name: 'Amp',
    // Amp keeps settings as flat dotted keys: the servers object is the top-level key "amp.mcpServers".
    file: servers(home('.config', 'amp', 'settings.json'), 'ampcode.com/manual ("amp.mcpServers" in ~/.config/amp/settings.json, %USERPROFILE%\\.config\\amp on Windows)', ['amp.mcpServers']),
  },
  {
    id: 'opencode',
    name: 'opencode',
    file: servers(
      jsoncFirst({ in: 'xdgConfig', path: ['opencode'] }, 'opencode'),
      'opencode.ai/docs/config and opencode.ai/docs/mcp-servers (~/.config/opencode/opencode.json, "mcp", type "local"); $XDG_CONFIG_HOME on every OS from sst/opencode packages/opencode/src/global (xdg-basedir)',
      ['mcp'],
    ),
    // opencode: <server>_<tool> sent to the model provider; OpenAI and Anthropic both stop at 64.
    limits: {
      maxTools: 128,
      maxNameChars: 64,
      toolName: '{entry}_{tool}',
      source: 'sst/opencode packages/opencode/src/mcp (tools keyed <server>_<tool>, sanitised to [a-zA-Z0-9_-]); provider limit 64',
    },
  },
  {
    id: 'antigravity',
    name: 'Antigravity',
    // Antigravity 1.x read ~/.gemini/antigravity; 2.0 moved to ~/.gemini/config. Use the one in use.
    file: servers(
      { ifExists: antigravityCurrent, else: { ifExists: home('.gemini', 'antigravity', 'mcp_config.json'), else: antigravityCurrent } },
      'antigravity.google/docs (Antigravity 2.0: ~/.gemini/config/mcp_config.json; 1.x: ~/.gemini/antigravity/mcp_config.json)',
    ),
  },
  { id: 'factory-droid', name: 'Factory Droid', file: servers(home('.factory', 'mcp.json'), 'docs.factory.ai/cli/configuration/mcp (user ~/.factory/mcp.json, "mcpServers", type stdio)') },
  {
    id: 'kimi-code',
    name: 'Kimi Code CLI',
    file: servers(
      inside(envOr('KIMI_CODE_HOME', home('.kimi-code')), 'mcp.json'),
      'moonshotai.github.io/kimi-code/zh/customization/mcp (~/.kimi-code/mcp.json or $KIMI_CODE_HOME/mcp.json); npm @moonshot-ai/kimi-code 2.1.0: bin `kimi`, dist/main.mjs reads <KIMI_CODE_HOME>/mcp.json',
    ),
    // Kimi Code: mcp__<server>__<tool>, renamed by the client itself past 64 characters.
    limits: {
      maxNameChars: 64,
      toolName: 'mcp__{entry}__{tool}',
      source: '@moonshot-ai/kimi-code 2.1.0 bundle, tool_naming (MCP_NAME_PREFIX "mcp__", separator "__", MAX_QUALIFIED_LENGTH 64)',
    },
  },
  {
    id: 'junie',
    name: 'JetBrains Junie',
    file: servers(home('.junie', 'mcp', 'mcp.json'), 'junie.jetbrains.com/docs/junie-cli-mcp-configuration.html (user ~/.junie/mcp/mcp.json, "mcpServers")'),
  },
  {
    id: 'auggie',
    name: 'Augment Auggie CLI',
    file: servers(
      home('.augment', 'settings.json'),
      'augmentcode.com/changelog/auggie-cli-0-5-4-release-notes and docs.augmentcode.com/cli/integrations (~/.augment/settings.json, "mcpServers")',
    ),
  },
  {
    id: 'continue',
    name: 'Continue',
    file: {
      at: inside(envOr('CONTINUE_GLOBAL_DIR', home('.continue')), 'config.yaml'),
      format: 'yaml',
      container: ['mcpServers'],
      // Continue's config.yaml needs a name and version; a file Switchboard creates starts with them.
      yaml: { style: 'list', nameField: 'name', newFileHeader: 'name: Local Config\nversion: 1.0.0\nschema: v1\n' },
      source:
        'docs.continue.dev/customize/deep-dives/mcp and docs.continue.dev/reference ("mcpServers" list in ~/.continue/config.yaml); CONTINUE_GLOBAL_DIR override from continuedev/continue core/util/paths.ts',
    },
  },
  {
    id: 'goose',
    name: 'Goose',
    file: {
      at: inside(gooseConfigDir, 'config.yaml'),
      format: 'yaml',
      container: ['extensions'],
      yaml: { style: 'map', nameField: 'name' },
      source:
        'block.github.io/goose/docs/guides/config-files (~/.config/goose/config.yaml, %APPDATA%\\Block\\goose\\config\\config.yaml); entry shape from block/goose crates/goose/src/config/extensions.rs (ExtensionEntry) and agents/extension.rs (ExtensionConfig::Stdio); GOOSE_PATH_ROOT from config/paths.rs',
    },
  },
  {
    id: 'cursor-cli',
    name: 'Cursor CLI',
    file: servers(home('.cursor', 'mcp.json'), 'cursor.com/docs/cli/mcp ("MCP in the CLI uses the same configuration as the editor": ~/.cursor/mcp.json)'),
  },
  {
    id: 'vscode-server',
    name: 'VS Code Server (remote)',
    file: servers(
      home('.vscode-server', 'data', 'User', 'mcp.json'),
      'code.visualstudio.com/docs/copilot/customization/mcp-servers (remote user mcp.json) and code.visualstudio.com/docs/remote (server data in ~/.vscode-server/data)',
      ['servers'],
    ),
  },
  {
    id: 'windsurf-jetbrains',
    name: 'Windsurf for JetBrains',
    // ~/.codeium is shared with the Windsurf editor (which keeps its own file one folder down).
    file: servers(home('.codeium', 'mcp_config.json'), 'docs.windsurf.com/plugins/cascade/mcp (~/.codeium/mcp_config.json, "mcpServers")'),
  },
  {
    id: 'crush',
    name: 'Crush',
    file: servers(
      inside(crushConfigDir, 'crush.json'),
      'github.com/charmbracelet/crush README and internal/config/load.go globalConfig() ($XDG_CONFIG_HOME/crush/crush.json, %LOCALAPPDATA%\\crush\\crush.json on Windows, else ~/.config/crush/crush.json; "mcp", type "stdio")',
      ['mcp'],
    ),
  },
  {
    id: 'kilo-cli',
    name: 'Kilo CLI',
    file: servers(
      jsoncFirst({ in: 'xdgConfig', path: ['kilo'] }, 'kilo'),
      'kilo.ai/docs/automate/mcp/using-in-cli (global ~/.config/kilo/kilo.json or kilo.jsonc, "mcp", type "local"); npm @kilocode/cli 7.8.1 bin kilo',
      ['mcp'],
    ),
    // Kilo CLI is built on opencode: the same <server>_<tool> names, sent to providers that stop at
    // 64 (a 66-character name reached the model through Kilo CLI 7.7.7 before it was listed here).
    limits: { maxTools: 128, maxNameChars: 64, toolName: '{entry}_{tool}', source: '@kilocode/cli 7.7.7 (opencode-based: tools keyed <server>_<tool>); provider limit 64' },
  },
  {
    id: 'anythingllm',
    name: 'AnythingLLM',
    file: servers(
      appSettings('anythingllm-desktop', 'storage', 'plugins', 'anythingllm_mcp_servers.json'),
      'docs.anythingllm.com/mcp-compatibility/overview and /mcp-compatibility/desktop (storage/plugins/anythingllm_mcp_servers.json, "mcpServers"); storage folder per docs.anythingllm.com/installation-desktop/storage',
    ),
  },
  {
    id: 'devin',
    name: 'Devin',
    file: servers(
      inside(devinDir, 'config.json'),
      'docs.devin.ai/cli/extensibility/mcp/configuration and /cli/reference/configuration/config-file (user scope ~/.config/devin/config.json, %APPDATA%\\devin\\config.json on Windows, "mcpServers")',
    ),
  },
  {
    id: 'warp',
    name: 'Warp',
    file: servers(
      home('.warp', '.mcp.json'),
      'github.com/warpdotdev/warp agent-add-mcp skill (global ~/.warp/.mcp.json on every OS, "mcpServers"); docs.warp.dev/knowledge-and-collaboration/mcp',
    ),
  },
  {
    id: 'mistral-vibe',
    name: 'Mistral Vibe',
    file: {
      at: inside(envOr('VIBE_HOME', home('.vibe')), 'config.toml'),
      format: 'toml',
      container: ['mcp_servers'],
      tomlList: { nameField: 'name' },
      source:
        'docs.mistral.ai/vibe/code/cli/mcp-servers and docs.mistral.ai/mistral-vibe/terminal/configuration ([[mcp_servers]] with name, transport "stdio", command, args in ~/.vibe/config.toml; $VIBE_HOME moves it)',
    },
  },
  { id: 'jan', name: 'Jan', copyPaste: { source: 'jan.ai/docs/desktop/integrations/mcp-servers (servers added in Settings → MCP Servers only)' } },
  {
    id: 'boltai',
    name: 'BoltAI',
    copyPaste: {
      source:
        "boltai.com (macOS app; its MCP list lives in the app's own settings; no BoltAI MCP page was found in the search corpus on 2026-12-04, so the steps name the section rather than exact buttons)",
    },
  },
  {
    id: 'trae',
    name: 'Trae',
    copyPaste: {
      source:
        'docs.trae.ai / volcengine.com/docs/86677/2137601 (TRAE: Settings → MCP → Add → Add Manually takes the JSON; its own mcp.json file has no documented path, so nothing is written)',
    },
  },
  {
    id: 'witsy',
    name: 'Witsy',
    copyPaste: {
      source:
        "github.com/nbonamy/witsy src/main/mcp.ts and src/components/McpServerEditor.vue (servers kept in the app's settings, config.mcp.servers; stdio args as one string split at spaces, through cmd /C on Windows)",
    },
  },
  // Known in records and filters by their clientInfo; Switchboard has no file of theirs to write.
  { id: 'qoder', name: 'Qoder' },
  { id: 'xcode', name: 'Xcode' },
] as const satisfies readonly ClientCatalogEntry[];

export type CatalogClient = (typeof CLIENT_CATALOG)[number];
export type ClientId = CatalogClient['id'];
/** Clients `connect` can serve: through their file, or by steps to paste. */
export type ConnectableClientId = Extract<CatalogClient, { file: ClientConfigFile } | { copyPaste: object }>['id'];
/** Clients with known limits. */
export type CatalogLimitedClientId = Extract<CatalogClient, { limits: ClientLimitFigures }>['id'];

/** The catalog entry of `id`, if Switchboard knows the client. */
export function catalogEntry(id: string): ClientCatalogEntry | undefined {
  return (CLIENT_CATALOG as readonly ClientCatalogEntry[]).find((c) => c.id === id);
}

/** The name as the client composes it from its entry name (`switchboard-<profile>`) and our tool name. */
export function composeToolName(template: ToolNameTemplate, entry: string, tool: string): string {
  return template
    .split(/(\{entry\}|\{tool\})/)
    .map((part) => (part === '{entry}' ? entry : part === '{tool}' ? tool : part))
    .join('');
}
