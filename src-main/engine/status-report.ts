// `status` (docs/command-line.md): the engine, its servers, profiles, clients and whatever needs the user.
import type { ProfileStatus, ServerStatus, StatusClient, StatusReport } from '../../src-shared/api.ts';
import { limitedClientFor } from '../../src-shared/client-limits.ts';
import { clientIdentity } from '../../src-shared/client-names.ts';
import type { ConfigStore } from './config/store.ts';
import type { Gateway } from './gateway/gateway.ts';
import { clientLimitFields, clientLimitsReport, namedClientLimits } from './gateway/limit-checks.ts';
import type { ApprovalCenter } from './codemode/approvals.ts';
import type { RecordLosses } from './records/record-losses.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import { appSettings } from '../../src-shared/config/app-settings.ts';

export interface StatusSources {
  version: string;
  home: string;
  token: string;
  /** The HTTP server's address, or null when the engine serves none. */
  httpUrl: string | null;
  servers(): string[];
  server(name: string): ServerStatus | undefined;
  gateway: Pick<Gateway, 'sessions' | 'profileNames' | 'view' | 'recentClients'>;
  config: Pick<ConfigStore, 'status' | 'config'>;
  secrets: Pick<SecretStore, 'kind'>;
  recordLosses: Pick<RecordLosses, 'list'>;
  approvals: Pick<ApprovalCenter, 'list'>;
}

export function statusReport(s: StatusSources): StatusReport {
  const servers: Record<string, ServerStatus> = {};
  for (const name of s.servers()) servers[name] = s.server(name)!;
  const profiles: Record<string, ProfileStatus> = {};
  const limits = clientLimitsReport(s.gateway.sessions);
  for (const name of s.gateway.profileNames()) {
    const view = s.gateway.view(name)!;
    const p: ProfileStatus = {
      surface: view.surface,
      servers: [...view.servers],
      tools: view.exposedToolCount(),
      url: s.httpUrl ? `${s.httpUrl}/mcp/${encodeURIComponent(name)}` : null,
    };
    if (view.surface === 'code') {
      const cat = view.codeCatalog();
      p.inlineDeclarations = cat.inline;
      p.declarationChars = cat.declarationChars;
      p.budgets = view.budgets;
    }
    const warnings = limits.byProfile.get(name);
    if (warnings) p.warnings = warnings;
    profiles[name] = p;
  }
  const approvals = s.approvals.list();
  const losses = s.recordLosses.list();
  return {
    pid: process.pid,
    version: s.version,
    home: s.home,
    http: s.httpUrl ? { url: s.httpUrl, token: s.token } : null,
    servers,
    profiles,
    config: s.config.status,
    secrets: { store: s.secrets.kind },
    settings: appSettings(s.config.config.settings),
    ...(losses.length ? { recordLosses: losses } : {}),
    ...(approvals.length ? { approvals } : {}),
    clients: [
      ...[...s.gateway.sessions].map((c) => ({
        id: c.id,
        name: c.clientName,
        ...clientNames(c.clientName, c.connector),
        profile: c.profile,
        transport: c.transportKind,
        since: c.since,
        era: c.era,
        lastSeen: new Date(c.lastActive).toISOString(),
        ...clientLimitFields(limits.bySession.get(c)),
      })),
      ...recentClients(s.gateway),
    ],
  };
}

/**
 * The 2026-07-28 HTTP clients seen lately (that revision has no sessions to list), their
 * limits checked like a session's.
 */
function recentClients(gateway: StatusSources['gateway']): StatusClient[] {
  return gateway.recentClients.list().map((c) => ({
    id: `http:${c.profile}:${c.name}`,
    name: c.name,
    ...clientNames(c.name),
    profile: c.profile,
    transport: 'http' as const,
    since: new Date(c.firstSeen).toISOString(),
    era: 'modern' as const,
    lastSeen: new Date(c.lastSeen).toISOString(),
    stateless: true,
    requests: c.requests,
    ...clientLimitFields(namedClientLimits(gateway.view(c.profile), limitedClientFor(c.name))),
  }));
}

/** A status entry's `clientId` (when known) and `displayName`. */
function clientNames(raw: string, connector?: string): Pick<StatusClient, 'clientId' | 'displayName'> {
  const who = clientIdentity(raw, connector);
  return { ...(who.id ? { clientId: who.id } : {}), displayName: who.name };
}
