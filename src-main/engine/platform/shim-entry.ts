// The command a client runs to reach a profile: always absolute paths, so it works from any
// working folder and without the client's PATH (GUI apps on macOS get a minimal one).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { APP_BIN, APP_ROOT } from './app-root.ts';

export interface ShimEntry {
  command: string;
  args: string[];
}

/**
 * The entry as a connector writes it for its client: the shim is told which client it serves
 * (`--client ID`), so the engine knows that client's limits even when its clientInfo is vague.
 * Shims that predate the flag ignore it.
 */
export function withClient(entry: ShimEntry, client: string): ShimEntry {
  return { command: entry.command, args: [...entry.args, '--client', client] };
}

/** bin/switchboard.mjs of this checkout, resolved from this file's location. */
export const CHECKOUT_BIN = APP_BIN;

/** Set by the desktop app's main process on the engine it starts: the installed shim binary. */
export const SHIM_PATH_ENV = 'SWITCHBOARD_SHIM_PATH';

/** Where electron-builder's extraResources put the packaged shim (see electron-builder.yml). */
export function installedShimPath(resourcesPath: string, platform: NodeJS.Platform = process.platform): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.join(resourcesPath, 'bin', platform === 'win32' ? 'switchboard.exe' : 'switchboard');
}

/**
 * The native shim of this checkout, where `npm run build:native-shim` puts it
 * (scripts/build-native-shim.mjs), or undefined when it was not built.
 */
export function checkoutNativeShim(root: string = APP_ROOT, platform: NodeJS.Platform = process.platform): string | undefined {
  const p = path.join(root, 'out', 'native-shim', platform === 'win32' ? 'switchboard.exe' : 'switchboard');
  // Its engine-command.json says how it starts an engine here; a copy without it is not ours.
  return existsSync(p) && existsSync(path.join(path.dirname(p), 'engine-command.json')) ? p : undefined;
}

/**
 * CliContext.shimEntry: the installed shim in the packaged app; else this checkout's native shim
 * when built (a few microseconds and ~1 MB per client instead of a Node process); else absolute
 * node + bin script.
 */
export function defaultShimEntry(
  home: string,
  homeIsDefault: boolean,
  profile: string,
  env: NodeJS.ProcessEnv = process.env,
  /** null: no native shim, whatever this checkout has built. */
  nativeShim: string | null | undefined = checkoutNativeShim(),
): ShimEntry {
  const homeArgs = homeIsDefault ? [] : ['--home', home];
  const installed = env[SHIM_PATH_ENV] || nativeShim;
  if (installed) return { command: installed, args: ['shim', '--profile', profile, ...homeArgs] };
  return { command: process.execPath, args: [CHECKOUT_BIN, 'shim', '--profile', profile, ...homeArgs] };
}
