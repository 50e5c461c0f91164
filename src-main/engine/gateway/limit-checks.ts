// The limits of connected clients applied to what their profile serves them: each
// session of a client with known limits (src-shared/client-limits.ts) — known from its
// clientInfo, or from the connector that wrote its entry (`--client`) — is checked against the
// tools it gets now, for status and the app.
import { CLIENT_LIMITS, shortenedNote, surfaceWarnings, type LimitedClientId } from '../../../src-shared/client-limits.ts';
import { ownEntry } from '../../../src-shared/config/schema.ts';
import type { StatusClient } from '../../../src-shared/api.ts';
import type { SessionBase } from './session-base.ts';
import type { ProfileView } from './profile-view.ts';

export interface SessionLimits {
  client?: LimitedClientId;
  /** How `client` was known. */
  from?: 'clientInfo' | 'connector';
  connector?: string;
  /** What the session gets: surface, tool count, whether its `clients` entry picks a subset. */
  surface?: 'tools' | 'code';
  tools?: number;
  subset?: boolean;
  warnings: string[];
  /** Which tool names are shortened for the client, as a sentence. */
  shortened?: string;
}

export function sessionLimits(session: SessionBase): SessionLimits {
  const client = session.limitedClient;
  const view = session.view;
  const connector = session.connector !== undefined ? { connector: session.connector } : {};
  return { ...connector, ...namedClientLimits(view, client), ...(view && client ? { from: session.limitsFrom } : {}) };
}

/**
 * What a client known by name gets from a view (a stateless 2026-07-28 HTTP client, known from
 * its requests' clientInfo only): its limits checked when known, else the surface and tool count.
 */
export function namedClientLimits(view: ProfileView | undefined, client: LimitedClientId | undefined): SessionLimits {
  if (!view) return { warnings: [] };
  if (!client) return { surface: view.surface, tools: view.listTools().length, warnings: [] };
  return { from: 'clientInfo', ...viewLimits(view, client) };
}

/** What the client gets from the profile (its `clients` entry applied), checked against its limits. */
export function viewLimits(view: ProfileView, client: LimitedClientId): SessionLimits & { tools: number } {
  const own = view.forClient(client);
  const names = own.listTools().map((t) => t.name);
  const subset = ownEntry(view.config.clients, client)?.tools !== undefined;
  const shortened = shortenedNote(CLIENT_LIMITS[client], view.name, own.shortenedNames());
  return {
    client,
    surface: own.surface,
    tools: names.length,
    ...(subset ? { subset } : {}),
    warnings: surfaceWarnings(CLIENT_LIMITS[client], view.name, names),
    ...(shortened ? { shortened } : {}),
  };
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

/** The fields a status entry of a client gets: connector, what it gets, its limits when known, its warnings when any. */
export function clientLimitFields(limits: SessionLimits | undefined): Pick<StatusClient, 'connector' | 'surface' | 'tools' | 'subset' | 'limits' | 'warnings' | 'shortened'> {
  if (!limits) return {};
  const gets = {
    ...(limits.connector !== undefined ? { connector: limits.connector } : {}),
    ...(limits.surface ? { surface: limits.surface } : {}),
    ...(limits.tools !== undefined ? { tools: limits.tools } : {}),
    ...(limits.subset ? { subset: true } : {}),
  };
  if (!limits.client) return gets;
  return {
    ...gets,
    limits: { ...limitFigures(limits.client), from: limits.from ?? 'clientInfo' },
    ...(limits.warnings.length > 0 ? { warnings: limits.warnings } : {}),
    ...(limits.shortened ? { shortened: limits.shortened } : {}),
  };
}

/** A client's limits as `status` and the control API show them. */
export function limitFigures(client: LimitedClientId): { client: LimitedClientId; maxTools?: number; maxNameChars: number } {
  const { id, maxTools, maxNameChars } = CLIENT_LIMITS[client];
  return { client: id, ...(maxTools !== undefined ? { maxTools } : {}), maxNameChars };
}
