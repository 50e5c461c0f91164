// The welcome's choices about apps, kept pure: which profile a one-click Connect uses, and how
// an app's live sessions are told apart in the engine's status.
import type { ClientInfo, StatusClient } from '../../src-shared/api.ts';

/**
 * The profile a one-click Connect uses: the one an app here already uses, else the first-run
 * demo, else the first one. Null when there is no profile at all.
 */
export function defaultProfile(clients: readonly ClientInfo[], profiles: readonly string[]): string | null {
  for (const c of clients) for (const p of c.connected) if (profiles.includes(p)) return p;
  if (profiles.includes('demo')) return 'demo';
  return profiles[0] ?? null;
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
