#!/usr/bin/env node
// Entry point of the `switchboard` command. The shim is plain JavaScript so that it starts in
// tens of milliseconds. Everything else runs from the prebuilt bundle of the TypeScript sources
// (out/bundle, `npm run build:cli`; scripts/bundle.mjs). An installation without the sources runs
// that bundle only and never loads esbuild or tsx (development tools, not in the app). In a
// checkout a bundle older than its sources is rebuilt first, and stderr says so in one line:
// never silently, since an engine already running keeps the code it started with.
import { existsSync } from 'node:fs';
import { catchStopSignals } from '../src-main/engine/stop-signals.mjs';

const command = process.argv[2];
// Stopped while the bundle builds or loads, an engine must still go, and once it has started
// servers it must take them with it: so its stop signals are caught before anything else.
if (command === 'engine' || command === 'serve') catchStopSignals();
if (command === 'shim') {
  const { runShim } = await import('../src-main/shim/shim.mjs');
  await runShim(process.argv.slice(3));
} else {
  const bundle = await cliBundle();
  if (bundle) {
    /** @type {{ main: (argv: string[]) => Promise<number> }} */
    const { main } = await import(bundle);
    process.exitCode = await main(process.argv.slice(2));
  } else {
    process.exitCode = 1;
  }
}

/**
 * The URL of the CLI bundle to run, or null (after saying why on stderr) when there is none.
 * @returns {Promise<string | null>}
 */
async function cliBundle() {
  const bundle = new URL('../out/bundle/cli.mjs', import.meta.url);
  const checkout = existsSync(new URL('../src-main/cli/main.ts', import.meta.url)) && existsSync(new URL('../scripts/bundle.mjs', import.meta.url));
  if (!checkout) {
    if (existsSync(bundle)) return bundle.href;
    process.stderr.write(`switchboard: ${bundle.pathname} is missing: this installation is incomplete, reinstall Switchboard.\n`);
    return null;
  }
  const { bundleState, ensureBundle } = await import('../scripts/bundle.mjs');
  const state = bundleState();
  if (state.fresh) return bundle.href;
  process.stderr.write(`switchboard: ${state.why}: rebuilding it now (\`npm run build:cli\` builds it ahead; an engine already running keeps its old code until it restarts)\n`);
  try {
    await ensureBundle();
  } catch (err) {
    process.stderr.write(`switchboard: building out/bundle failed, fix the sources and run \`npm run build:cli\`:\n${err instanceof Error ? err.message : String(err)}\n`);
    return null;
  }
  return bundle.href;
}
