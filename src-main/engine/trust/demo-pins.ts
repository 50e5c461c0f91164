// A fresh home's approved catalogs: the tools the first-run demo's servers list (recorded by
// scripts/capture-demo-catalogs.mjs from the versions that ship with the app), pinned as the
// home is created, so that a client's first tools/list on a fresh home is answered from them
// while the three servers start, as on a home that ran before. They are trusted as
// the app that ships them is; a server that lists anything else is handled as on any home (a
// changed definition is withheld until approved; tests/engine/config/demo-catalogs.test.ts keeps
// the shipped ones equal to what the servers list).
import type { PinStore } from './pins.ts';

/** Set to leave them out (the capture script pins what the servers list, not what shipped before). */
export const NO_DEMO_CATALOGS_ENV = 'SWITCHBOARD_NO_DEMO_CATALOGS';

/** Pins the demo catalogs of the servers a first-run config names. Loaded only on a first run. */
export async function seedDemoCatalogs(pins: PinStore, servers: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env[NO_DEMO_CATALOGS_ENV]) return;
  const { DEMO_CATALOGS } = await import('../config/demo-catalogs.generated.ts');
  pins.seed(Object.fromEntries(Object.entries(DEMO_CATALOGS).filter(([name]) => Object.hasOwn(servers, name))));
}
