// The limits of connected clients applied to what their profile serves them (SPEC §9): each
// session of a client with known limits (src-shared/client-limits.ts) is checked against the
// tools it gets now, for status and the app.
import { CLIENT_LIMITS, surfaceWarnings, type LimitedClientId } from '../../../src-shared/client-limits.ts';
import type { StatusClient } from '../../../src-shared/api.ts';
import type { SessionBase } from './session-base.ts';
import type { ProfileView } from './profile-view.ts';

export interface SessionLimits {
  client?: LimitedClientId;
  warnings: string[];
}

export function sessionLimits(session: SessionBase): SessionLimits {
  const client = session.limitedClient;
  const view = session.view;
  if (!client || !view) return { warnings: [] };
  return viewLimits(view, client);
}

/** What the client gets from the profile (its `clients` entry applied), checked against its limits. */
export function viewLimits(view: ProfileView, client: LimitedClientId): SessionLimits & { tools: number } {
  const names = view.forClient(client).listTools().map((t) => t.name);
  return { client, tools: names.length, warnings: surfaceWarnings(CLIENT_LIMITS[client], view.name, names) };
}

/** Every session's limits, and per profile its clients' warnings, each sentence once. */
export function clientLimitsReport(sessions: Iterable<SessionBase>): { bySession: Map<SessionBase, SessionLimits>; byProfile: Map<string, string[]> } {
  const bySession = new Map<SessionBase, SessionLimits>();
  const byProfile = new Map<string, string[]>();
  for (const s of sessions) {
    const limits = sessionLimits(s);
    bySession.set(s, limits);
    const list = byProfile.get(s.profile) ?? [];
    for (const w of limits.warnings) if (!list.includes(w)) list.push(w);
    if (list.length > 0) byProfile.set(s.profile, list);
  }
  return { bySession, byProfile };
}

/** The fields a status entry of a client gets: its limits when known, its warnings when any. */
export function clientLimitFields(limits: SessionLimits | undefined): Pick<StatusClient, 'limits' | 'warnings'> {
  if (!limits?.client) return {};
  const { id, maxTools, maxNameChars } = CLIENT_LIMITS[limits.client];
  return { limits: { client: id, maxTools, maxNameChars }, ...(limits.warnings.length > 0 ? { warnings: limits.warnings } : {}) };
}
