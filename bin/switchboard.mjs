#!/usr/bin/env node
// Entry point of the `switchboard` command. The shim is plain JavaScript so that it starts in
// tens of milliseconds. Everything else runs from a bundle of the TypeScript sources, rebuilt
// when they change (scripts/bundle.mjs); tsx is the fallback when the bundle cannot be built.
import { catchStopSignals } from '../src-main/engine/stop-signals.mjs';

const command = process.argv[2];
// Stopped while the bundle builds or loads, an engine must still go, and once it has started
// servers it must take them with it: so its stop signals are caught before anything else.
if (command === 'engine' || command === 'serve') catchStopSignals();
if (command === 'shim') {
  const { runShim } = await import('../src-main/shim/shim.mjs');
  await runShim(process.argv.slice(3));
} else {
  /** @type {(argv: string[]) => Promise<number>} */
  let main;
  try {
    const { ensureBundle } = await import('../scripts/bundle.mjs');
    const bundle = await ensureBundle();
    ({ main } = await import(new URL(`file://${bundle}`).href));
  } catch (err) {
    if (process.env.SWITCHBOARD_DEBUG) console.error('switchboard: running from source:', err);
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import('../src-main/cli/main.ts'));
  }
  process.exitCode = await main(process.argv.slice(2));
}
