// The CLI's one way to change a home's files (config.json, the clients' files): the engine's
// control method when an engine answers (it is the single writer, and its clients see the change
// at once), else the same handler (engine/api/home-handlers.ts) run here over config.json with
// its file lock. Either way the change is one read-modify-write under that lock.
import type { ControlParams, ControlResult } from '../../src-shared/api.ts';
import { parseControlParams } from '../../src-shared/api-schema.ts';
import { homeHandlers, type HomeMethod } from '../engine/api/home-handlers.ts';
import { defaultConfig } from '../engine/config/default-config.ts';
import { ConfigStore } from '../engine/config/store.ts';
import { homePaths } from '../engine/platform/home.ts';
import type { CliContext } from './command-context.ts';
import { SocketControlClient } from './engine-client.ts';

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

export interface HomeCallOptions {
  /**
   * Without an engine, write the first-run config.json when the home has none (as an engine
   * would on start). Defaults to true; false for what must not create one (a dry run, removing
   * the demo).
   */
  createDefault?: boolean;
}

export function homeCall<M extends HomeMethod>(
  ctx: Pick<CliContext, 'home' | 'homeIsDefault' | 'env' | 'platform'>,
  method: M,
  params: ControlParams<M>,
  opts: HomeCallOptions = {},
): Promise<ControlResult<M>> {
  return withConfig(
    ctx.home,
    (engine) => engine.call(method, params),
    async (store) => {
      const handlers = homeHandlers({ home: ctx.home, homeIsDefault: ctx.homeIsDefault, env: ctx.env, platform: ctx.platform, config: store, configFile: homePaths(ctx.home).config });
      const handler = handlers[method] as (p: ControlParams<M>) => Promise<ControlResult<M>> | ControlResult<M>;
      // Checked as the engine checks what arrives over its socket.
      return handler(parseControlParams(method, params));
    },
    opts,
  );
}
