// The command a client runs to reach a profile: always absolute paths, so it works from any
// working folder and without the client's PATH (GUI apps on macOS get a minimal one).
import path from 'node:path';
import { APP_BIN } from '../app-root.ts';

export interface ShimEntry {
  command: string;
  args: string[];
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

/** CliContext.shimEntry: the installed shim in the packaged app, else absolute node + bin script. */
export function defaultShimEntry(home: string, homeIsDefault: boolean, profile: string, env: NodeJS.ProcessEnv = process.env): ShimEntry {
  const homeArgs = homeIsDefault ? [] : ['--home', home];
  const installed = env[SHIM_PATH_ENV];
  if (installed) return { command: installed, args: ['shim', '--profile', profile, ...homeArgs] };
  return { command: process.execPath, args: [CHECKOUT_BIN, 'shim', '--profile', profile, ...homeArgs] };
}
