// `switchboard approve SERVER [--yes]` (docs/configuration.md): approves what waits for the user on one server.
// A server proposed from outside (its entry has `proposedBy`) is shown exactly as it will run and
// approved after a yes, which removes that key; changed tool definitions are trusted as they are.
// Through the running engine when there is one (clients see the change at once), else straight
// in the home's config.json and pins file, which the next engine reads.
import type { ServerProposal } from '../../../src-shared/api.ts';
import { ownEntry } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';
import { ensureHome, homePaths } from '../../engine/platform/home.ts';
import { PinStore } from '../../engine/trust/pins.ts';
import { proposalLines, proposalPointer } from '../../engine/trust/proposals.ts';
import { releaseProposedBundles } from '../../engine/catalog/bundle-store.ts';
import { configPointer } from '../../../src-shared/config/paths.ts';
import { parseFlags } from '../args.ts';
import { withConfig } from '../home-control.ts';
import type { CliContext } from '../command-context.ts';
import { stdinAsker, type InstallDeps } from './install.ts';
import { offlineStatus } from './status.ts';
import { SocketControlClient } from '../engine-client.ts';

export async function run(args: string[], ctx: CliContext, deps?: Partial<Pick<InstallDeps, 'ask'>>): Promise<number> {
  const { values, positionals } = parseFlags('approve', args, { yes: { type: 'boolean' } });
  const [server, ...rest] = positionals;
  if (!server || rest.length) {
    throw new SwitchboardError('bad-request', 'Usage: switchboard approve SERVER [--yes] (approves a server proposed from outside, and trusts the changed tools of that server)');
  }
  const paths = homePaths(ctx.home);
  // What waits is read where it will be approved: the running engine's status, else config.json
  // as it is (nothing is created in a home that has none).
  const client = await SocketControlClient.connect(paths);
  let proposal: ServerProposal | undefined;
  try {
    proposal = ownEntry((client ? await client.call('status', {}) : offlineStatus(paths.config, ctx.home)).servers, server)?.proposal;
  } finally {
    client?.close();
  }
  if (proposal) {
    ctx.stdout(proposalLines(server, proposal).join('\n') + '\n');
    if (!values.yes) {
      const answer = await (deps?.ask ?? stdinAsker(ctx))(`Approve "${t(server)}" and let it run? [y/N] `, { secret: false });
      if (answer === null || !/^y(es)?$/i.test(answer.trim())) {
        ctx.stdout(answer === null ? 'Nothing was approved: no answer (pass --yes to approve without a prompt).\n' : 'Nothing was approved.\n');
        return 1;
      }
    }
  }
  const result = await withConfig(
    ctx.home,
    async (c) => {
      const r = await c.call('servers.approve', { name: server });
      return { tools: r.approved ?? [], server: r.server === true, running: true };
    },
    async (store) => {
      if (proposal !== undefined) await releaseProposedBundles(ctx.home, store.get(configPointer('servers', server)).value);
      const approvedServer = proposal !== undefined && (await store.unset(proposalPointer(server)));
      ensureHome(paths);
      const tools = new PinStore(paths.pinsFile, { onError: (m) => ctx.stderr(`switchboard: ${m}\n`) }).approve(server);
      return { tools, server: approvedServer, running: false };
    },
    { createDefault: false },
  );
  if (result.server) ctx.stdout(`Approved "${t(server)}": ${result.running ? 'it starts now' : 'it starts with the engine'}.\n`);
  if (result.tools.length) ctx.stdout(`Approved the changed tools of "${t(server)}": ${result.tools.map((n) => t(n)).join(', ')}. Clients see them again.\n`);
  if (!result.server && !result.tools.length) ctx.stdout(`"${t(server)}" has nothing waiting for approval (it was not proposed from outside, and no tool of it changed).\n`);
  return 0;
}
