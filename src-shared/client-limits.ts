// What MCP clients can take from one server entry: how many tools they use and how long a tool
// name may be once the client has put its own prefix on it. Past these, a client drops tools
// or refuses the server, silently. Approximate figures from the clients' documentation and
// behaviour (checked 2026); conservative where a client's limit moved between versions. The
// ids are the connector's (SPEC §7), so a profile's `clients` entry reads like `connect`. A tool
// name that would not fit is shortened for that client (ProfileView.forClient); the rest warn. Pure.
import { clientIdFromInfo } from './client-names.ts';

export interface ClientLimits {
  id: LimitedClientId;
  /** As the user knows it. */
  name: string;
  /** Tools the client uses from all its servers together; past it, some are left out. Absent: no known cap. */
  maxTools?: number;
  /** Longest tool name the client (or the model API behind it) accepts, counted on the name as it composes it. */
  maxNameChars: number;
  /** The name as the client composes it from its entry name (`switchboard-<profile>`) and our tool name. */
  composedName(entry: string, tool: string): string;
  /** Where the figures were checked. */
  source: string;
}

export const LIMITED_CLIENT_IDS = [
  'cursor',
  'windsurf',
  'vscode',
  'vscode-insiders',
  'claude-code',
  'claude-desktop',
  'codex',
  'gemini-cli',
  'qwen-code',
  'copilot-cli',
  'opencode',
  'kilo-cli',
  'kimi-code',
] as const;
export type LimitedClientId = (typeof LIMITED_CLIENT_IDS)[number];

const vscodeLimits = (id: 'vscode' | 'vscode-insiders', name: string): ClientLimits => ({
  id,
  name,
  maxTools: 128,
  maxNameChars: 64,
  composedName: (entry, tool) => `mcp_${entry}_${tool}`,
  source: 'code.visualstudio.com/docs/copilot/customization/mcp-servers (128 tools per request; tools named mcp_<server>_<tool>, 64 characters)',
});

// Our names are already [A-Za-z0-9_-] (src-shared/names.ts), which every client below accepts.
export const CLIENT_LIMITS: Record<LimitedClientId, ClientLimits> = {
  // Cursor warns past 40 tools and limits server name + tool name to 60 characters.
  cursor: { id: 'cursor', name: 'Cursor', maxTools: 40, maxNameChars: 60, composedName: (entry, tool) => `${entry}_${tool}`, source: 'docs.cursor.com/context/mcp (40 tools; 60 characters for server + tool name)' },
  // Windsurf (Cascade) takes at most 50 tools here; names go to models that accept 64.
  windsurf: { id: 'windsurf', name: 'Windsurf', maxTools: 50, maxNameChars: 64, composedName: (entry, tool) => `${entry}_${tool}`, source: 'docs.windsurf.com/windsurf/cascade/mcp (tool cap); model APIs take 64-character names' },
  vscode: vscodeLimits('vscode', 'VS Code'),
  'vscode-insiders': vscodeLimits('vscode-insiders', 'VS Code Insiders'),
  // Anthropic's API refuses a tool name over 64 characters ("tools.N.custom.name: String should
  // have at most 64 characters") and Claude Code sends mcp__<entry>__<tool>.
  'claude-code': {
    id: 'claude-code',
    name: 'Claude Code',
    maxNameChars: 64,
    composedName: (entry, tool) => `mcp__${entry}__${tool}`,
    source: 'Anthropic Messages API tool name ^[a-zA-Z0-9_-]{1,64}$; Claude Code names MCP tools mcp__<server>__<tool> (anthropics/claude-code#2536)',
  },
  // Claude Desktop sends the server's own tool name to the same API (no prefix of its own).
  'claude-desktop': {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    maxNameChars: 64,
    composedName: (_entry, tool) => tool,
    source: 'Anthropic Messages API tool name ^[a-zA-Z0-9_-]{1,64}$; Desktop takes names Claude Code rejects with its prefix (anthropics/claude-code#2445)',
  },
  // Codex: OpenAI's ^[a-zA-Z0-9_-]+$ and 64; past it Codex cuts the name and adds a SHA-1 suffix.
  codex: {
    id: 'codex',
    name: 'Codex CLI',
    maxTools: 128,
    maxNameChars: 64,
    composedName: (entry, tool) => `mcp__${entry}__${tool}`,
    source: 'openai/codex codex-rs mcp tool naming (mcp__<server>__<tool>, MAX_TOOL_NAME_LENGTH 64, ^[a-zA-Z0-9_-]+$); OpenAI API 128 tools',
  },
  // Gemini CLI 0.61: mcp_<server>_<tool>, [A-Za-z0-9_.:-], past 63 it keeps 30 + "..." + 30.
  'gemini-cli': {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    maxTools: 128,
    maxNameChars: 63,
    composedName: (entry, tool) => `mcp_${entry}_${tool}`,
    source: '@google/gemini-cli 0.61.0 bundle, generateValidName (mcp_ prefix, MAX_FUNCTION_NAME_LENGTH 64 minus 1); Gemini API 128 function declarations',
  },
  // Qwen Code 0.24: mcp__<server>__<tool>, [A-Za-z0-9_-], past 63 it cuts and adds a hash.
  'qwen-code': {
    id: 'qwen-code',
    name: 'Qwen Code',
    maxTools: 128,
    maxNameChars: 63,
    composedName: (entry, tool) => `mcp__${entry}__${tool}`,
    source: '@qwen-code/qwen-code 0.24.4 bundle, normalizeToolNameForProvider (MAX_TOOL_NAME_LENGTH 63)',
  },
  // Copilot CLI: <server>-<tool>; the model APIs behind it (OpenAI, Bedrock) refuse past 64.
  'copilot-cli': {
    id: 'copilot-cli',
    name: 'GitHub Copilot CLI',
    maxTools: 128,
    maxNameChars: 64,
    composedName: (entry, tool) => `${entry}-${tool}`,
    source: 'microsoft/copilot-cli#74 and microsoft/mcp#842 (names <server>-<tool>, "Member must have length less than or equal to 64")',
  },
  // opencode: <server>_<tool> sent to the model provider; OpenAI and Anthropic both stop at 64.
  opencode: {
    id: 'opencode',
    name: 'opencode',
    maxTools: 128,
    maxNameChars: 64,
    composedName: (entry, tool) => `${entry}_${tool}`,
    source: 'sst/opencode packages/opencode/src/mcp (tools keyed <server>_<tool>, sanitised to [a-zA-Z0-9_-]); provider limit 64',
  },
  // Kilo CLI is built on opencode: the same <server>_<tool> names, sent to providers that stop at
  // 64 (a 66-character name reached the model through Kilo CLI 7.7.7 before it was listed here).
  'kilo-cli': {
    id: 'kilo-cli',
    name: 'Kilo CLI',
    maxTools: 128,
    maxNameChars: 64,
    composedName: (entry, tool) => `${entry}_${tool}`,
    source: '@kilocode/cli 7.7.7 (opencode-based: tools keyed <server>_<tool>); provider limit 64',
  },
  // Kimi Code: mcp__<server>__<tool>, renamed by the client itself past 64 characters.
  'kimi-code': {
    id: 'kimi-code',
    name: 'Kimi Code CLI',
    maxNameChars: 64,
    composedName: (entry, tool) => `mcp__${entry}__${tool}`,
    source: '@moonshot-ai/kimi-code 2.1.0 bundle, tool_naming (MCP_NAME_PREFIX "mcp__", separator "__", MAX_QUALIFIED_LENGTH 64)',
  },
};

/**
 * What a connector's client id looks like (`cursor`, `claude-desktop`, …): what a shim passes on
 * from its `--client` argument, and all the engine accepts from it.
 */
export const CONNECTOR_ID_RE = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const isLimitedClient = (id: string): id is LimitedClientId => (LIMITED_CLIENT_IDS as readonly string[]).includes(id);

/** The limited client a session's `clientInfo.name` is, if any (src-shared/client-names.ts maps the raw names). */
export function limitedClientFor(clientInfoName: string): LimitedClientId | undefined {
  const id = clientIdFromInfo(clientInfoName);
  return id !== undefined && isLimitedClient(id) ? id : undefined;
}

/** How long our own tool name may be for a client: its cap minus its prefix for the profile's entry. */
export function nameBudget(limits: ClientLimits, profile: string): number {
  return limits.maxNameChars - limits.composedName(`switchboard-${profile}`, '').length;
}

/** How many tool names to quote in a warning; the others are counted. */
const QUOTED_NAMES = 2;

/**
 * Sentences saying where a list of tools, served as the profile's entry, goes past what the
 * client takes, each with what to do about it. Empty when it fits.
 */
export function surfaceWarnings(limits: ClientLimits, profile: string, toolNames: readonly string[]): string[] {
  const out: string[] = [];
  const entry = `switchboard-${profile}`;
  const fix = `set profiles.${profile}.clients.${limits.id}.surface to "code" or pick a subset in profiles.${profile}.clients.${limits.id}.tools`;
  if (limits.maxTools !== undefined && toolNames.length > limits.maxTools) {
    out.push(`${limits.name} uses at most ${limits.maxTools} tools; profile "${profile}" gives it ${toolNames.length}, so some are left out: ${fix}.`);
  }
  const long = toolNames.filter((t) => limits.composedName(entry, t).length > limits.maxNameChars);
  if (long.length > 0) {
    const quoted = long.slice(0, QUOTED_NAMES).map((t) => `"${t}"`).join(', ');
    const more = long.length > QUOTED_NAMES ? ` and ${long.length - QUOTED_NAMES} more` : '';
    out.push(
      `${limits.name} takes tool names of at most ${limits.maxNameChars} characters with its prefix; ${long.length} of profile "${profile}" are longer (${quoted}${more}): ${fix}.`,
    );
  }
  return out;
}

/**
 * The sentence saying which tool names are shortened for a client (they would not fit it with
 * its prefix), with an example or two; null when none is.
 */
export function shortenedNote(limits: ClientLimits, profile: string, renamed: readonly { from: string; to: string }[]): string | null {
  if (renamed.length === 0) return null;
  const shown = renamed.slice(0, QUOTED_NAMES).map((r) => `"${r.from}" is "${r.to}"`).join(', ');
  const more = renamed.length > QUOTED_NAMES ? ` and ${renamed.length - QUOTED_NAMES} more` : '';
  const prefix = limits.composedName(`switchboard-${profile}`, '');
  const withPrefix = prefix ? ` with its prefix "${prefix}"` : '';
  return (
    `${limits.name} takes tool names of at most ${limits.maxNameChars} characters${withPrefix}, so ${renamed.length} ` +
    `${renamed.length === 1 ? 'name of profile "' + profile + '" is' : 'names of profile "' + profile + '" are'} shortened for it (${shown}${more}); ` +
    `the short names stay the same every session and Switchboard calls the right tool for them.`
  );
}

/**
 * One line on what a connected client gets and what it takes, for `status` and the app:
 * "Cursor (known from its connector; takes 40 tools, names up to 60 characters) gets code mode".
 */
export function clientSurfaceLine(c: {
  connector?: string;
  limits?: { client: LimitedClientId; maxTools?: number; maxNameChars: number; from: 'clientInfo' | 'connector' };
  surface?: 'tools' | 'code';
  tools?: number;
  subset?: boolean;
}): string {
  const takes = c.limits?.maxTools !== undefined ? `takes ${c.limits.maxTools} tools, names up to` : 'takes names up to';
  const who = c.limits
    ? `${CLIENT_LIMITS[c.limits.client].name} (known from its ${c.limits.from === 'connector' ? 'connector' : 'clientInfo'}; ${takes} ${c.limits.maxNameChars} characters)`
    : c.connector !== undefined
      ? `connected with "${c.connector}" (no known limits)`
      : 'no known limits';
  if (!c.surface) return who;
  const gets = c.surface === 'code' ? 'code mode' : `${c.tools ?? 0} tool${c.tools === 1 ? '' : 's'}${c.subset ? ', a picked subset' : ''}`;
  return `${who} gets ${gets}`;
}
