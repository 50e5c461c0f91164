// `switchboard approve SERVER`: trusts the changed tool definitions of one server (SPEC §3).
// Through the running engine when there is one (its clients see the tools again at once),
// else straight in the home's pins file, which the next engine reads.
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { ensureHome, homePaths } from '../../engine/home.ts';
import { PinStore } from '../../engine/trust/pins.ts';
import { SocketControlClient } from '../engine-client.ts';
import type { CliContext } from '../context.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [server, ...rest] = args;
  if (!server || rest.length || server.startsWith('-')) {
    throw new SwitchboardError('bad-request', 'Usage: switchboard approve SERVER (trusts the changed tools of that server)');
  }
  const paths = homePaths(ctx.home);
  let approved: string[];
  const client = await SocketControlClient.connect(paths);
  if (client) {
    try {
      approved = (await client.call('servers.approve', { name: server })).approved ?? [];
    } finally {
      client.close();
    }
  } else {
    ensureHome(paths);
    approved = new PinStore(paths.pinsFile, { onError: (m) => ctx.stderr(`switchboard: ${m}\n`) }).approve(server);
  }
  ctx.stdout(
    approved.length
      ? `Approved the changed tools of "${server}": ${approved.join(', ')}. Clients see them again.\n`
      : `"${server}" has no changed tools waiting for approval.\n`,
  );
  return 0;
}
