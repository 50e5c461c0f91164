// `switchboard login SERVER [--timeout SEC]`: signs in to a remote server by itself (docs/configuration.md),
// whether or not an engine runs, then tells a running engine to reconnect that server.
import { ownEntry, type ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { ConfigStore } from '../../engine/config/store.ts';
import { ensureHome, homePaths, type HomePaths } from '../../engine/platform/home.ts';
import { FileSecretStore } from '../../engine/secrets/secret-store.ts';
import { signIn } from '../../engine/upstream/oauth/sign-in.ts';
import type { CliContext } from '../command-context.ts';
import { SocketControlClient } from '../engine-client.ts';

const USAGE = 'Usage: switchboard login SERVER [--timeout SEC]';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  let server: string | undefined;
  let timeoutSec = 300;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--timeout') {
      timeoutSec = Number(args[++i]);
      if (!Number.isFinite(timeoutSec) || timeoutSec <= 0) throw new SwitchboardError('bad-request', '--timeout needs a number of seconds.');
    } else if (!a.startsWith('-') && server === undefined) server = a;
    else throw new SwitchboardError('bad-request', USAGE);
  }
  if (!server) throw new SwitchboardError('bad-request', USAGE);
  const paths = homePaths(ctx.home);
  ensureHome(paths);
  const config = await loadServerConfig(paths, server);
  const secrets = new FileSecretStore(paths.secretsFile);
  const { account } = await signIn({
    server,
    config,
    secrets,
    resolveSecret: (n) => secrets.get(n),
    print: ctx.stdout,
    timeoutMs: timeoutSec * 1000,
  });
  ctx.stdout(`Signed in to ${server}${account ? ` as ${account}` : ''}.\n`);
  if (await reconnectIfRunning(paths, server)) ctx.stdout(`The running engine reconnected ${server}.\n`);
  return 0;
}

export async function loadServerConfig(paths: HomePaths, server: string): Promise<ServerConfig> {
  const store = await ConfigStore.open({ file: paths.config, stateDir: paths.home, watch: false });
  try {
    const config = ownEntry(store.config.servers, server);
    if (!config) {
      const names = Object.keys(store.config.servers);
      throw new SwitchboardError('unknown-server', `There is no server "${server}" in config.json${names.length ? ` (servers: ${names.join(', ')})` : ''}.`);
    }
    return config;
  } finally {
    store.dispose();
  }
}

/** Returns whether an engine was running and restarted the server. */
export async function reconnectIfRunning(paths: HomePaths, server: string): Promise<boolean> {
  const client = await SocketControlClient.connect(paths);
  if (!client) return false;
  try {
    await client.call('servers.restart', { name: server });
    // Wait (briefly) for the reconnect, so a call made right after login finds the server ready.
    for (let i = 0; i < 100; i++) {
      const state = (await client.call('status', {})).servers[server]?.state;
      if (state !== 'starting' && state !== 'restarting') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  } catch {
    // The engine may not know the server (config changed meanwhile); the sign-in is stored anyway.
    return false;
  } finally {
    client.close();
  }
}
