// The CliContext the command modules get: the home, output, and the engine-side operations the
// client commands need (config edits go through the engine when one runs).
import { ConfigStore } from '../engine/config/store.ts';
import { defaultConfig } from '../engine/config/default-config.ts';
import { homePaths } from '../engine/home.ts';
import { defaultShimEntry } from '../engine/clients/shim-entry.ts';
import { SocketControlClient } from './engine-client.ts';
import type { CliContext } from './context.ts';

export interface CliContextInit {
  home: string;
  homeIsDefault: boolean;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

/**
 * Runs fn against the engine when one answers, else against the store with its file lock.
 * `createDefault: false`: a home without config.json stays without one.
 */
export async function withConfig<T>(
  home: string,
  viaEngine: (c: SocketControlClient) => Promise<T>,
  direct: (s: ConfigStore) => Promise<T>,
  opts: { createDefault?: boolean } = {},
): Promise<T> {
  const paths = homePaths(home);
  const client = await SocketControlClient.connect(paths);
  if (client) {
    try {
      return await viaEngine(client);
    } finally {
      client.close();
    }
  }
  const store = await ConfigStore.open({
    file: paths.config,
    stateDir: paths.home,
    watch: false,
    ...(opts.createDefault === false ? {} : { createDefault: () => defaultConfig({ home: paths.home, nodePath: process.execPath }) }),
  });
  try {
    return await direct(store);
  } finally {
    store.dispose();
  }
}

export function createCliContext(init: CliContextInit): CliContext {
  const { home, homeIsDefault } = init;
  return {
    home,
    homeIsDefault,
    stdout: init.stdout,
    stderr: init.stderr,
    env: process.env,
    platform: process.platform,
    shimEntry: (profile: string) => defaultShimEntry(home, homeIsDefault, profile),
    profiles: () =>
      withConfig(
        home,
        async (c) => Object.keys(((await c.call('config.get', { path: 'profiles' })).value ?? {}) as object),
        async (s) => Object.keys(s.config.profiles),
      ),
  };
}
