// The welcome's choices about apps, kept pure: which profile a one-click Connect uses (the
// person's own, never the demo unless they pick it), and how an app's live sessions are told
// apart in the engine's status.
import type { ClientInfo, StatusClient } from '../../src-shared/api.ts';
import { DEMO_PROFILES, isDemoProfile, MY_TOOLS_PROFILE } from '../../src-shared/config/starter-profiles.ts';

/**
 * The person's own profile, the one a one-click Connect uses: "my-tools" (what they brought over
 * from their apps), else one an app here already uses that is not the demo. Null while they have
 * none: the demo is then offered as a try, never picked for them.
 */
export function ownProfile(clients: readonly ClientInfo[], profiles: readonly string[]): string | null {
  if (profiles.includes(MY_TOOLS_PROFILE)) return MY_TOOLS_PROFILE;
  for (const c of clients) for (const p of c.connected) if (profiles.includes(p) && !isDemoProfile(p)) return p;
  return null;
}

/** Profiles for a picker: the person's "my-tools" first, the demo's last, the others sorted between. */
export function ownFirst(profiles: readonly string[]): string[] {
  const rank = (p: string) => (p === MY_TOOLS_PROFILE ? 0 : isDemoProfile(p) ? 2 : 1);
  return [...profiles].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The demo's tools profile when there is one (it is removable). */
export function demoProfile(profiles: readonly string[]): string | null {
  return profiles.includes(DEMO_PROFILES[0]) ? DEMO_PROFILES[0] : null;
}

/**
 * The apps whose servers the welcome offers to bring over: one per file. Cursor's CLI reads the
 * editor's file: offering both would show the same servers twice.
 */
export function oneOfferPerFile<T extends Pick<ClientInfo, 'configPath'>>(apps: readonly T[]): T[] {
  const seen = new Set<string>();
  return apps.filter((a) => (seen.has(a.configPath) ? false : (seen.add(a.configPath), true)));
}

/** "(12 tools from memory, files)", or "(no servers yet)" for an empty profile. */
export function profileContents(p: { tools: number; servers: readonly string[] } | undefined): string {
  if (!p) return '';
  if (p.servers.length === 0) return ' (no servers yet)';
  return ` (${p.tools} tool${p.tools === 1 ? '' : 's'} from ${p.servers.join(', ')})`;
}

/** The live sessions of one client: by its known client id or the entry that started it, else by the name it gives. */
export function sessionsOf(info: Pick<ClientInfo, 'id' | 'displayName'>, sessions: readonly StatusClient[]): StatusClient[] {
  const name = info.displayName.toLowerCase();
  return sessions.filter((s) => s.clientId === info.id || s.connector === info.id || s.limits?.client === info.id || s.name.toLowerCase() === name || s.name === info.id);
}

/** "Cursor is connected — 12 tools" once it is; null while it is not. */
export function liveLine(info: Pick<ClientInfo, 'id' | 'displayName'>, sessions: readonly StatusClient[]): string | null {
  const mine = sessionsOf(info, sessions);
  if (mine.length === 0) return null;
  const tools = mine.find((s) => s.tools !== undefined)?.tools;
  return tools === undefined ? `${info.displayName} is connected` : `${info.displayName} is connected — ${tools} tool${tools === 1 ? '' : 's'}`;
}
