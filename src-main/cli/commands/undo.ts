// `switchboard undo CLIENT`: put the client's file back as it was before Switchboard's last write.
import { connectorFromArgs } from '../../engine/clients/client-lookup.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positionals } = parseFlags('undo', args, {});
  const c = connectorFromArgs('undo', positionals, { home: ctx.home, env: ctx.env, platform: ctx.platform });
  const res = await c.undo();
  ctx.stdout(
    res.restoredFrom
      ? `Restored ${res.path} from ${res.restoredFrom}. Restart ${c.displayName} to pick it up.\n`
      : `Removed ${res.path}: it did not exist before Switchboard wrote it.\n`,
  );
  return 0;
}
