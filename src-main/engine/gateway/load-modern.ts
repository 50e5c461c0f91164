// Loads the 2026-07-28 side of the gateway (modern-era.ts) on first use, once.
import type * as ModernEra from './modern-era.ts';

let loaded: typeof ModernEra | undefined;

export async function loadModernEra(): Promise<typeof ModernEra> {
  loaded ??= await import('./modern-era.ts');
  return loaded;
}

/** The module where it must already be loaded (a ModernSession is made only after loadModernEra). */
export function modernEra(): typeof ModernEra {
  if (!loaded) throw new Error('the 2026-07-28 gateway module is used before it was loaded');
  return loaded;
}
