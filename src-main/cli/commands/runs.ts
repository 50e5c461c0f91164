// `switchboard runs [--json] [--profile P] [--limit N]` and `runs show ID [--json]`.
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { runErrorLabel, runRefusal, type RunQuery, type RunRecord } from '../../../src-shared/records.ts';
import { homePaths } from '../../engine/platform/home.ts';
import { RunStore } from '../../engine/records/run-store.ts';
import { SocketControlClient } from '../engine-client.ts';
import { intFlag, parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';
import { clientDisplayName } from '../../../src-shared/client-names.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('runs', args, {
    json: { type: 'boolean' },
    limit: { type: 'string' },
    profile: { type: 'string' },
    client: { type: 'string' },
    outcome: { type: 'string' },
  });
  const paths = homePaths(ctx.home);
  const client = await SocketControlClient.connect(paths);
  const store = client ? undefined : RunStore.open(paths.runsDir);
  try {
    if (positionals[0] === 'show') {
      const id = positionals[1];
      if (!id) throw new SwitchboardError('bad-request', 'Usage: switchboard runs show ID [--json]');
      const runRec = client ? (await client.call('runs.get', { id })).run : store!.get(id);
      if (!runRec) throw new SwitchboardError('not-found', `No run "${id}" in the history; \`switchboard runs\` lists them.`);
      if (values.json) ctx.stdout(JSON.stringify(runRec, null, 2) + '\n');
      else printRun(ctx, runRec);
      return 0;
    }
    if (positionals.length) throw new SwitchboardError('bad-request', `Unknown runs subcommand "${positionals[0]}". Use \`runs\` or \`runs show ID\`.`);
    const q: RunQuery = {
      limit: intFlag(values.limit, '--limit', 20),
      profile: values.profile,
      client: values.client,
      outcome: values.outcome as RunQuery['outcome'],
    };
    const runs = client ? (await client.call('runs.list', q)).runs : store!.list(q);
    if (values.json) {
      ctx.stdout(JSON.stringify(runs, null, 2) + '\n');
      return 0;
    }
    if (runs.length === 0) ctx.stdout('No runs yet. Code-mode profiles record every execute here.\n');
    for (const r of runs) {
      ctx.stdout(
        `${r.id}  ${r.time}  ${(r.error ? r.error.kind : 'ok').padEnd(8)} ${String(r.durationMs).padStart(6)} ms  ${String(r.calls.length).padStart(3)} calls  ${t(r.profile)} · ${t(clientDisplayName(r.client, r.clientId))}\n`,
      );
    }
    return 0;
  } finally {
    client?.close();
    store?.dispose();
  }
}

function printRun(ctx: CliContext, r: RunRecord): void {
  ctx.stdout(`Run ${t(r.id)} · ${t(r.time)} · ${t(r.profile)} · ${t(clientDisplayName(r.client, r.clientId))} · ${r.durationMs} ms\n\nCode:\n${r.code}\n`);
  if (r.logs.length) ctx.stdout(`\nLogs:\n${r.logs.map((l) => (l.level === 'log' ? l.text : `[${l.level}] ${l.text}`)).join('\n')}\n`);
  if (r.calls.length) {
    ctx.stdout('\nCalls:\n');
    for (const c of r.calls) ctx.stdout(`  +${c.start} ms  ${t(c.server)}.${t(c.tool)}  ${c.duration} ms  ${t(c.outcome)}\n`);
  }
  if (r.callCount !== undefined) ctx.stdout(`  … ${r.callCount - r.calls.length} more calls not kept in the history\n`);
  if (r.error) {
    ctx.stdout(`\nError: ${t(r.error.kind)}: ${r.error.message}\n`);
    // The kind stays what scripts read; a refusal also says who refused, in words.
    if (runRefusal(r.error, r.calls)) ctx.stdout(`(${runErrorLabel(r.error, r.calls)})\n`);
  }
  else if (r.resultText !== undefined) ctx.stdout(`\nResult (as the client got it${r.resultFullChars !== undefined ? `; ${r.resultFullChars} characters in full` : ''}):\n${r.resultText}\n`);
  else ctx.stdout(`\nResult:\n${JSON.stringify(r.result, null, 2)}\n`);
}
