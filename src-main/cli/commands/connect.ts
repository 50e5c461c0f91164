// `switchboard connect CLIENT --profile P [--force]`: add the profile's shim entry to a client.
import { assertInstalled, assertKnownProfile, connectorFromArgs, requireProfileFlag } from '../../engine/clients/client-lookup.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../context.ts';
import { SocketControlClient } from '../engine-client.ts';
import { homePaths } from '../../engine/home.ts';
import { isLimitedClient } from '../../../src-shared/client-limits.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('connect', args, { profile: { type: 'string' }, force: { type: 'boolean' } });
  const c = connectorFromArgs('connect', positionals, { home: ctx.home, env: ctx.env, platform: ctx.platform });
  const profile = requireProfileFlag('connect', values.profile);
  assertKnownProfile(profile, await ctx.profiles());
  // --force covers portable installs and clients installed after a fresh OS setup.
  if (!values.force) assertInstalled(c, `Install it first, or pass --force to create ${c.configPath()} anyway.`);
  const out = await c.connect(profile, ctx.shimEntry(profile));
  if (!out.changed) {
    ctx.stdout(`${c.displayName} is already connected to profile "${profile}" (${out.path}); nothing changed.\n`);
    return 0;
  }
  ctx.stdout(
    `Connected ${c.displayName} to profile "${profile}": added "switchboard-${profile}" to ${out.path}` +
      (out.via === 'claude-cli' ? ' (through the claude CLI)' : '') +
      '.\n' +
      (out.backup ? `Backup of the previous file: ${out.backup}\n` : '') +
      `Restart ${c.displayName} to pick it up. To take it back: switchboard undo ${c.id}\n`,
  );
  for (const w of await limitWarnings(ctx, c.id, profile)) ctx.stdout(`Warning: ${t(w)}\n`);
  return 0;
}

/**
 * Where the profile, as this client would get it, goes past the client's limits: asked of a
 * running engine (it knows the live catalogs); with none running there is nothing to count yet.
 */
async function limitWarnings(ctx: CliContext, client: string, profile: string): Promise<string[]> {
  if (!isLimitedClient(client)) return [];
  const engine = await SocketControlClient.connect(homePaths(ctx.home));
  if (!engine) return [];
  try {
    return (await engine.call('profiles.clientLimits', { profile, client })).warnings;
  } catch {
    // The entry is written either way; a warning that cannot be computed is left out.
    return [];
  } finally {
    engine.close();
  }
}
