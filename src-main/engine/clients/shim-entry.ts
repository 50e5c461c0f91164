// The command a client runs to reach a profile: always absolute paths, so it works from any
// working folder and without the client's PATH (GUI apps on macOS get a minimal one).
import { APP_BIN } from '../app-root.ts';

export interface ShimEntry {
  command: string;
  args: string[];
}

/** bin/switchboard.mjs of this checkout, resolved from this file's location. */
export const CHECKOUT_BIN = APP_BIN;

/** CliContext.shimEntry for a checkout: absolute node + absolute bin script. */
export function defaultShimEntry(home: string, homeIsDefault: boolean, profile: string): ShimEntry {
  // TODO(packaging): when running packaged (process.versions.electron && app.isPackaged), return
  // the installed shim executable here instead of node + script; the Electron main process knows
  // that path and should pass it in through CliContext.shimEntry.
  return {
    command: process.execPath,
    args: [CHECKOUT_BIN, 'shim', '--profile', profile, ...(homeIsDefault ? [] : ['--home', home])],
  };
}
