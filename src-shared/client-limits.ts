// What MCP clients can take from one server entry, as the catalog (src-shared/client-catalog.ts)
// gives it: how many tools they use and how long a tool name may be once the client has put its
// own prefix on it. Past these, a client drops tools or refuses the server, silently. The ids are
// the connector's, so a profile's `clients` entry reads like `connect`. A tool name that would not
// fit is shortened for that client (ProfileView.forClient); the rest warn. Pure.
import { catalogEntry, composeToolName, type CatalogLimitedClientId } from './client-catalog.ts';
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

/** The clients with known limits, in the order messages list them. */
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
] as const satisfies readonly CatalogLimitedClientId[];
export type LimitedClientId = (typeof LIMITED_CLIENT_IDS)[number];
// Every catalog client with limits is listed above (a missing one fails to compile here).
const everyLimitedListed: Exclude<CatalogLimitedClientId, LimitedClientId> extends never ? true : never = true;
void everyLimitedListed;

function limitsOf(id: LimitedClientId): ClientLimits {
  const c = catalogEntry(id)!;
  const { maxTools, maxNameChars, toolName, source } = c.limits!;
  return { id, name: c.name, ...(maxTools !== undefined ? { maxTools } : {}), maxNameChars, composedName: (entry, tool) => composeToolName(toolName, entry, tool), source };
}

// Our names are already [A-Za-z0-9_-] (src-shared/names.ts), which every client accepts.
export const CLIENT_LIMITS = Object.fromEntries(LIMITED_CLIENT_IDS.map((id) => [id, limitsOf(id)])) as Record<LimitedClientId, ClientLimits>;

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
