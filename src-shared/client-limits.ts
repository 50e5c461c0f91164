// What MCP clients can take from one server entry: how many tools they use and how long a tool
// name may be once the client has put its own prefix on it. Past these, a client drops tools
// or refuses the server, silently. Approximate figures from the clients' documentation and
// behaviour (checked 2026); conservative where a client's limit moved between versions. The
// ids are the connector's (SPEC §7), so a profile's `clients` entry reads like `connect`. Pure.

export interface ClientLimits {
  id: LimitedClientId;
  /** As the user knows it. */
  name: string;
  /** Tools the client uses from all its servers together; past it, some are left out. */
  maxTools: number;
  /** Longest tool name the client accepts, counted on the name as it composes it. */
  maxNameChars: number;
  /** The name as the client composes it from its entry name (`switchboard-<profile>`) and our tool name. */
  composedName(entry: string, tool: string): string;
}

export const LIMITED_CLIENT_IDS = ['cursor', 'windsurf', 'vscode'] as const;
export type LimitedClientId = (typeof LIMITED_CLIENT_IDS)[number];

export const CLIENT_LIMITS: Record<LimitedClientId, ClientLimits> = {
  // Cursor warns past 40 tools and limits server name + tool name to 60 characters.
  cursor: { id: 'cursor', name: 'Cursor', maxTools: 40, maxNameChars: 60, composedName: (entry, tool) => `${entry}_${tool}` },
  // Windsurf (Cascade) takes at most 50 tools here; names go to models that accept 64.
  windsurf: { id: 'windsurf', name: 'Windsurf', maxTools: 50, maxNameChars: 64, composedName: (entry, tool) => `${entry}_${tool}` },
  // VS Code sends at most 128 tools to the model, named mcp_<server>_<tool>, 64 characters at most.
  vscode: { id: 'vscode', name: 'VS Code', maxTools: 128, maxNameChars: 64, composedName: (entry, tool) => `mcp_${entry}_${tool}` },
};

/**
 * What a connector's client id looks like (`cursor`, `claude-desktop`, …): what a shim passes on
 * from its `--client` argument, and all the engine accepts from it.
 */
export const CONNECTOR_ID_RE = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const isLimitedClient = (id: string): id is LimitedClientId => (LIMITED_CLIENT_IDS as readonly string[]).includes(id);

/**
 * The limited client a session's `clientInfo.name` is, if any: Cursor says "cursor-vscode", VS
 * Code "Visual Studio Code", Windsurf "windsurf-client"; Cursor is matched first since its
 * name also says "vscode".
 */
export function limitedClientFor(clientInfoName: string): LimitedClientId | undefined {
  const n = clientInfoName.toLowerCase();
  if (n.includes('cursor')) return 'cursor';
  if (n.includes('windsurf') || n.includes('codeium') || n.includes('cascade')) return 'windsurf';
  if (n.includes('visual studio code') || n.includes('vscode') || n.includes('vs code')) return 'vscode';
  return undefined;
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
  if (toolNames.length > limits.maxTools) {
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
 * One line on what a connected client gets and what it takes, for `status` and the app:
 * "Cursor (known from its connector; takes 40 tools, names up to 60 characters) gets code mode".
 */
export function clientSurfaceLine(c: {
  connector?: string;
  limits?: { client: LimitedClientId; maxTools: number; maxNameChars: number; from: 'clientInfo' | 'connector' };
  surface?: 'tools' | 'code';
  tools?: number;
  subset?: boolean;
}): string {
  const who = c.limits
    ? `${CLIENT_LIMITS[c.limits.client].name} (known from its ${c.limits.from === 'connector' ? 'connector' : 'clientInfo'}; takes ${c.limits.maxTools} tools, names up to ${c.limits.maxNameChars} characters)`
    : c.connector !== undefined
      ? `connected with "${c.connector}" (no known limits)`
      : 'no known limits';
  if (!c.surface) return who;
  const gets = c.surface === 'code' ? 'code mode' : `${c.tools ?? 0} tool${c.tools === 1 ? '' : 's'}${c.subset ? ', a picked subset' : ''}`;
  return `${who} gets ${gets}`;
}
