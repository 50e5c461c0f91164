// Removing the demo in one click (the app's button, `demo.remove`, `switchboard demo remove`):
// its profiles, the servers only it uses, the apps' entries for it, and its folder when the person
// left it as it came. Nothing of the person's goes: a server of theirs that sat in a demo profile
// moves to their own profile, and an app that reached it through the demo is pointed there.
import type { DemoRemovalResult } from '../../../src-shared/api.ts';
import type { ServerConfig } from '../../../src-shared/config/schema.ts';
import { existsSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readHomeText } from '../../shim/home-file.mjs';
import { DEMO_README, isDemoServer } from '../config/default-config.ts';
import { DEMO_PROFILES, isDemoProfile, MY_TOOLS_PROFILE } from '../../../src-shared/config/starter-profiles.ts';
import { entryName, listConnectors, type ConnectorOptions } from './connector.ts';
import type { ShimEntry } from '../platform/shim-entry.ts';

export interface DemoRemovalDeps extends ConnectorOptions {
  /** A validated, atomic edit of config.json (ConfigStore.update). */
  updateConfig(mutate: (raw: Record<string, unknown>) => Record<string, unknown>): Promise<void>;
  shimEntry(profile: string): ShimEntry;
}

export type DemoRemoval = DemoRemovalResult;

type Profiles = Record<string, { servers?: string[] } & Record<string, unknown>>;

/** The config.json edit, pure: what goes, what moves, and the result. */
export function withoutDemo(raw: Record<string, unknown>, home: string): { raw: Record<string, unknown>; profiles: string[]; servers: string[]; kept: string[] } {
  const profiles: Profiles = { ...((raw.profiles as Profiles | undefined) ?? {}) };
  const servers = { ...((raw.servers as Record<string, ServerConfig> | undefined) ?? {}) };
  const demoProfiles = DEMO_PROFILES.filter((p) => Object.hasOwn(profiles, p));
  const inDemo = [...new Set(demoProfiles.flatMap((p) => profiles[p]!.servers ?? []))];
  const usedElsewhere = new Set(Object.entries(profiles).filter(([n]) => !isDemoProfile(n)).flatMap(([, p]) => p.servers ?? []));
  const goes = inDemo.filter((s) => Object.hasOwn(servers, s) && isDemoServer(home, s, servers[s]!) && !usedElsewhere.has(s));
  // A server of the person's in a demo profile (an import from before "my-tools" put it there) stays theirs.
  const kept = inDemo.filter((s) => Object.hasOwn(servers, s) && !isDemoServer(home, s, servers[s]!) && !usedElsewhere.has(s));
  for (const p of demoProfiles) delete profiles[p];
  for (const s of goes) delete servers[s];
  if (kept.length) {
    const have = profiles[MY_TOOLS_PROFILE]?.servers ?? [];
    profiles[MY_TOOLS_PROFILE] = { ...(profiles[MY_TOOLS_PROFILE] ?? {}), servers: [...have, ...kept.filter((s) => !have.includes(s))] };
  }
  return { raw: { ...raw, servers, profiles }, profiles: demoProfiles, servers: goes, kept };
}

/** Whether the demo folder holds only what the first run put there (its README, unchanged, and empty folders). */
function untouched(dir: string): boolean {
  const readme = path.join(dir, 'files', 'README.txt');
  // A link is not followed (it counts as something the person put there); the README is read as a home file.
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (lstatSync(path.join(d, n)).isDirectory() ? walk(path.join(d, n)) : [path.join(d, n)]));
  const files = walk(dir);
  return files.every((f) => f === readme) && (!existsSync(readme) || readHomeText(readme) === DEMO_README);
}

export async function removeDemo(deps: DemoRemovalDeps): Promise<DemoRemoval> {
  let edit: ReturnType<typeof withoutDemo> = { raw: {}, profiles: [], servers: [], kept: [] };
  await deps.updateConfig((raw) => {
    edit = withoutDemo(raw, deps.home);
    return edit.raw;
  });

  const apps: DemoRemoval['apps'] = [];
  for (const c of listConnectors(deps)) {
    if (c.kind === 'copy-paste' || c.spec.sharesFileWith) continue; // one file, written once (its owner's turn)
    let connected: string[];
    try {
      connected = await c.connectedProfiles();
    } catch {
      continue; // an unreadable file is left as it is; its card says why
    }
    const demo = connected.filter((p) => edit.profiles.includes(p) || isDemoProfile(p));
    if (demo.length === 0) continue;
    // The person's servers moved out of the demo: the app keeps them through their profile.
    if (edit.kept.length) {
      await c.replace(demo.map(entryName), MY_TOOLS_PROFILE, deps.shimEntry(MY_TOOLS_PROFILE));
      apps.push({ client: c.id, displayName: c.displayName, movedTo: MY_TOOLS_PROFILE });
    } else {
      for (const p of demo) await c.disconnect(p);
      apps.push({ client: c.id, displayName: c.displayName });
    }
  }

  const dir = path.join(deps.home, 'demo');
  let state: DemoRemoval['folder']['state'] = 'absent';
  // A demo server kept because another profile uses it still keeps its data there.
  const inUse = Object.entries((edit.raw.servers ?? {}) as Record<string, ServerConfig>).some(([n, c]) => isDemoServer(deps.home, n, c));
  if (existsSync(dir)) {
    state = !inUse && untouched(dir) ? 'removed' : 'kept';
    if (state === 'removed') rmSync(dir, { recursive: true, force: true });
  }
  return {
    profiles: edit.profiles,
    servers: edit.servers,
    kept: edit.kept.length ? { servers: edit.kept, profile: MY_TOOLS_PROFILE } : null,
    apps,
    folder: { path: dir, state },
  };
}
