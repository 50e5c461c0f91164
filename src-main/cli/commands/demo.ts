// `switchboard demo remove`: the app's "Remove the demo" button on the command line — the demo
// profiles, the servers only they use, the apps' entries for them, and the demo folder when it
// is as it came. The person's servers stay (engine side: clients/demo-removal.ts).
import { demoRemovalLines } from '../../../src-shared/demo-removal-text.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { homeCall } from '../home-control.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positionals } = parseFlags('demo', args, {});
  if (positionals[0] !== 'remove' || positionals.length !== 1) throw new SwitchboardError('bad-request', 'Usage: switchboard demo remove');
  // A home without config.json has no demo to remove, and must not get one written now.
  const r = await homeCall(ctx, 'demo.remove', {}, { createDefault: false });
  ctx.stdout(demoRemovalLines(r).join('\n') + '\n');
  return 0;
}
