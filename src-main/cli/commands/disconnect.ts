// `switchboard disconnect CLIENT --profile P`: remove the profile's entry from a client.
import { connectorFromArgs, requireProfileFlag } from '../../engine/clients/client-lookup.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('disconnect', args, { profile: { type: 'string' } });
  const c = connectorFromArgs('disconnect', positionals, { home: ctx.home, env: ctx.env, platform: ctx.platform });
  // No check against config.json: a profile deleted since connecting must still be removable.
  const profile = requireProfileFlag('disconnect', values.profile);
  const out = await c.disconnect(profile);
  if (!out.changed) {
    ctx.stdout(`${c.displayName} has no "switchboard-${profile}" entry in ${out.path}; nothing changed.\n`);
    return 0;
  }
  ctx.stdout(
    `Removed "switchboard-${profile}" from ${out.path}.\n` + (out.backup ? `Backup of the previous file: ${out.backup}\n` : '') + `Restart ${c.displayName} to pick it up.\n`,
  );
  return 0;
}
