// The CliContext of a real run of the CLI: this process's env and platform, its output, and the
// engine-side operations the client commands need (config edits go through the engine when one runs).
import { defaultShimEntry } from '../engine/platform/shim-entry.ts';
import type { CliContext } from './command-context.ts';
import { homeCall } from './home-control.ts';

export interface CliContextInit {
  home: string;
  homeIsDefault: boolean;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export function createCliContext(init: CliContextInit): CliContext {
  const { home, homeIsDefault } = init;
  const ctx: CliContext = {
    home,
    homeIsDefault,
    stdout: init.stdout,
    stderr: init.stderr,
    env: process.env,
    platform: process.platform,
    shimEntry: (profile: string) => defaultShimEntry(home, homeIsDefault, profile),
    profiles: async () => Object.keys(((await homeCall(ctx, 'config.get', { path: 'profiles' })).value ?? {}) as object),
  };
  return ctx;
}
