// Applying an import: the one flow behind the welcome, the Connect page and `switchboard import`.
// The client's servers go into config.json and into the person's own profile ("my-tools") in one
// validated, atomic change — never servers in no profile, never a half-written import. With
// `replace`, the client's entries for them then give way to that profile's one Switchboard entry.
import type { ClientWriteResult } from '../../../src-shared/api.ts';
import { PROFILE_NAME_RE, type ServerConfig } from '../../../src-shared/config/schema.ts';
import { isDemoProfile, MY_TOOLS_PROFILE } from '../../../src-shared/config/starter-profiles.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { entryName, type Connector } from './connector.ts';
import { planImport, type ImportPlan } from './import.ts';
import type { ShimEntry } from '../platform/shim-entry.ts';

/** The config.json side of an import. */
export interface ImportTarget {
  /** A validated, atomic edit of config.json (ConfigStore.update): `mutate` gets the file's current content. */
  updateConfig(mutate: (raw: Record<string, unknown>) => Record<string, unknown>): Promise<void>;
  shimEntry(profile: string): ShimEntry;
}

export interface ImportOutcome {
  /** The plan as applied (made against config.json as it was at the write). */
  plan: ImportPlan;
  added: string[];
  /** The profile the servers are in; null when the client had none to bring over. */
  profile: string | null;
  /** Null when `replace` was not asked for or nothing was covered. */
  replaced: { profile: string; entries: string[]; write: ClientWriteResult } | null;
}

/** The profile an import fills: the one named, else the person's own. */
export function importProfile(name?: string): string {
  const profile = name ?? MY_TOOLS_PROFILE;
  if (!PROFILE_NAME_RE.test(profile)) {
    throw new SwitchboardError('bad-request', `"${profile}" cannot be a profile name: use letters, digits, "-" and "_" (up to 64).`);
  }
  return profile;
}

/** The plan of importing `c` into config.json as `raw` holds it. */
export function planFor(c: Connector, clientServers: Record<string, unknown>, raw: Record<string, unknown>): ImportPlan {
  return planImport(clientServers, (raw.servers ?? {}) as Record<string, ServerConfig>, c.spec.bareUrlTransport, c.id);
}

/** The servers of config.json a plan brings over (added or already there), each once. */
export function coveredServers(plan: ImportPlan): string[] {
  const names = plan.items.flatMap((i) => (i.action === 'add' ? [i.name] : i.action === 'duplicate' ? [i.existing] : []));
  return [...new Set(names)];
}

export async function applyImport(c: Connector, opts: { replace?: boolean; profile?: string }, target: ImportTarget): Promise<ImportOutcome> {
  const profile = importProfile(opts.profile);
  const clientServers = await c.readImportableServers();
  let plan: ImportPlan = { items: [], toAdd: {} };
  // Planned inside the locked edit: against config.json as it is now, not as it was at the dry run.
  await target.updateConfig((raw) => {
    plan = planFor(c, clientServers, raw);
    return withImport(raw, plan, profile);
  });
  const covered = plan.items.filter((i) => i.action !== 'skip');
  const out: ImportOutcome = { plan, added: Object.keys(plan.toAdd), profile: covered.length ? profile : null, replaced: null };
  if (!opts.replace || covered.length === 0) return out;
  // The app gets what it had, through the person's profile: an entry for the demo (the old
  // welcome connected apps to it by itself) goes in the same write, or the demo's tools would
  // mix with the person's there.
  const demo = (await c.connectedProfiles()).filter(isDemoProfile).map(entryName);
  const entries = [...covered.map((i) => i.clientName), ...demo];
  const write = await c.replace(entries, profile, target.shimEntry(profile));
  return { ...out, replaced: { profile, entries, write } };
}

/** config.json content with the plan's servers added and all it covers in `profile` (created when missing). */
export function withImport(raw: Record<string, unknown>, plan: ImportPlan, profile: string): Record<string, unknown> {
  const members = coveredServers(plan);
  if (members.length === 0) return raw;
  const servers = { ...((raw.servers as object | undefined) ?? {}), ...plan.toAdd };
  const profiles = { ...((raw.profiles as Record<string, { servers?: string[] }> | undefined) ?? {}) };
  const have = profiles[profile]?.servers ?? [];
  profiles[profile] = { ...(profiles[profile] ?? {}), servers: [...have, ...members.filter((s) => !have.includes(s))] };
  return { ...raw, servers, profiles };
}
