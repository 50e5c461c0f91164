// Applying an import plan: the servers go into config.json, and with `replace` the client's own
// entries for them give way to one Switchboard entry. Shared by `switchboard import` and the
// control API so both make the same change; where config.json is written is the caller's.
import { PROFILE_NAME_RE, type ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { Connector, WriteOutcome } from './connector.ts';
import type { ImportPlan } from './import.ts';
import type { ShimEntry } from './shim-entry.ts';

/** The config.json side of an import; both must validate and write atomically. */
export interface ImportTarget {
  addServers(servers: Record<string, ServerConfig>): Promise<void>;
  /** Creates profile `name` over `servers`, or appends the servers it lacks. */
  addProfile(name: string, servers: string[]): Promise<void>;
  shimEntry(profile: string): ShimEntry;
}

export interface ImportOutcome {
  added: string[];
  /** Null when `replace` was not asked for or nothing was covered. */
  replaced: { profile: string; entries: string[]; write: WriteOutcome } | null;
}

/** The profile `import --replace` fills when none is named: the client's id where that is a valid name. */
export function defaultImportProfile(clientId: string): string {
  return PROFILE_NAME_RE.test(clientId) ? clientId : 'imported';
}

export async function applyImport(
  c: Connector,
  plan: ImportPlan,
  opts: { replace?: boolean; profile?: string },
  target: ImportTarget,
): Promise<ImportOutcome> {
  const profile = opts.profile ?? defaultImportProfile(c.id);
  if (!PROFILE_NAME_RE.test(profile)) {
    throw new SwitchboardError('bad-request', `"${profile}" cannot be a profile name: use letters, digits, "-" and "_" (up to 64).`);
  }
  const added = Object.keys(plan.toAdd);
  if (added.length) await target.addServers(plan.toAdd);
  if (!opts.replace) return { added, replaced: null };

  const covered = plan.items.filter((i) => i.action !== 'skip');
  if (covered.length === 0) return { added, replaced: null };
  await target.addProfile(profile, covered.map((i) => (i.action === 'add' ? i.name : i.existing)));
  const entries = covered.map((i) => i.clientName);
  const write = await c.replace(entries, profile, target.shimEntry(profile));
  return { added, replaced: { profile, entries, write } };
}

/** config.json content with `servers` added (the plan already gave them unused names). */
export function withServers(raw: Record<string, unknown>, servers: Record<string, unknown>): Record<string, unknown> {
  return { ...raw, servers: { ...((raw.servers as object | undefined) ?? {}), ...servers } };
}

/** config.json content where profile `name` also covers `servers`, created when missing. */
export function withProfileServers(raw: Record<string, unknown>, name: string, servers: string[]): Record<string, unknown> {
  const profiles = { ...((raw.profiles as Record<string, { servers?: string[] }> | undefined) ?? {}) };
  const have = profiles[name]?.servers ?? [];
  profiles[name] = { ...(profiles[name] ?? {}), servers: [...have, ...servers.filter((s) => !have.includes(s))] };
  return { ...raw, profiles };
}
