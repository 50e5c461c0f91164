// `switchboard config get|set|unset PATH [JSON]`: the control API's config.get/set/unset, through
// the engine when one runs (it is the single writer), else the same handlers here with the
// store's file lock (home-control.ts).
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { withConfig } from '../home-control.ts';
import type { CliContext } from '../command-context.ts';
import { homeCall } from '../home-control.ts';

const HELP = 'Usage: switchboard config get [PATH] | set PATH JSON | unset PATH   (PATH like profiles.demo.budgets.timeoutMs, or a JSON Pointer)';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [verb, path, valueText, ...extra] = args;
  if (!verb || !['get', 'set', 'unset'].includes(verb) || extra.length) throw new SwitchboardError('bad-request', HELP);
  if ((verb === 'set' || verb === 'unset') && !path) throw new SwitchboardError('bad-request', HELP);
  let value: unknown;
  if (verb === 'set') {
    if (valueText === undefined) throw new SwitchboardError('bad-request', `config set ${path} needs a JSON value, e.g. 60000, true, "text" or {"a":1}.`);
    try {
      value = JSON.parse(valueText);
    } catch {
      throw new SwitchboardError(
        'bad-request',
        `The value ${JSON.stringify(valueText)} is not JSON. Strings need quotes: '"${valueText}"'. Nothing was written.`,
      );
    }
  }
  if (verb === 'set') await homeCall(ctx, 'config.set', { path: path!, value });
  else if (verb === 'unset') await homeCall(ctx, 'config.unset', { path: path! });
  else {
    return withConfig(
      ctx.home,
      async (client) => print(ctx, path, await client.call('config.get', path === undefined ? {} : { path })),
      async (store) => {
        // The engine's status says so when it serves one; here, say it beside the value.
        if (!store.status.valid) ctx.stderr('switchboard: config.json has problems; showing the last valid version.\n');
        return print(ctx, path, store.get(path));
      },
    );
  }
  return 0;
}

function print(ctx: CliContext, path: string | undefined, r: { found: boolean; value?: unknown }): number {
  if (!r.found) {
    ctx.stderr(`switchboard: ${path} is not set in config.json.\n`);
    return 1;
  }
  ctx.stdout(JSON.stringify(r.value, null, 2) + '\n');
  return 0;
}
