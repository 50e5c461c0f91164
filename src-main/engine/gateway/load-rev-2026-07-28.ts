// Loads the 2026-07-28 side of the gateway (rev-2026-07-28.ts) on first use, once.
import type * as Rev20260728Module from './rev-2026-07-28.ts';

let loaded: typeof Rev20260728Module | undefined;

export async function loadRev20260728(): Promise<typeof Rev20260728Module> {
  loaded ??= await import('./rev-2026-07-28.ts');
  return loaded;
}

/** The module where it must already be loaded (a Rev20260728Session is made only after loadRev20260728). */
export function rev20260728(): typeof Rev20260728Module {
  if (!loaded) throw new Error('the 2026-07-28 gateway module is used before it was loaded');
  return loaded;
}
