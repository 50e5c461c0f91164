// `switchboard approvals [--json]` · `approvals approve|deny ID`: the tool calls from code that
// wait for approval (profile `approvals`), for a home served headless. They live in the running
// engine only, so with none running there is nothing to decide.
import type { PendingApproval } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { homePaths } from '../../engine/platform/home.ts';
import { SocketControlClient } from '../engine-client.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { clientDisplayName } from '../../../src-shared/client-names.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('approvals', args, { json: { type: 'boolean' } });
  const [sub, id, ...rest] = positionals;
  const client = await SocketControlClient.connect(homePaths(ctx.home));
  if (!client) {
    if (sub === undefined) {
      ctx.stdout(values.json ? '[]\n' : 'No engine runs for this home, so no call waits for approval.\n');
      return 0;
    }
    throw new SwitchboardError('engine-unavailable', 'No engine runs for this home, so no call waits for approval.');
  }
  try {
    if (sub === undefined) {
      const { pending } = await client.call('approvals.list', {});
      if (values.json) ctx.stdout(JSON.stringify(pending, null, 2) + '\n');
      else if (pending.length === 0) ctx.stdout('No call waits for approval.\n');
      else for (const p of pending) ctx.stdout(line(p));
      return 0;
    }
    if ((sub === 'approve' || sub === 'deny') && id && rest.length === 0) {
      await client.call('approvals.decide', { id, approve: sub === 'approve' });
      ctx.stdout(`${sub === 'approve' ? 'Approved' : 'Denied'} ${id}.\n`);
      return 0;
    }
    throw new SwitchboardError('bad-request', 'Usage: switchboard approvals [--json] · approvals approve ID · approvals deny ID');
  } finally {
    client.close();
  }
}

function line(p: PendingApproval): string {
  return `${p.id}  ${p.name}(${JSON.stringify(p.args)})  run ${p.runId} · ${p.profile} · ${clientDisplayName(p.client, p.clientId)} · denied at ${p.expiresAt} unless decided\n`;
}
