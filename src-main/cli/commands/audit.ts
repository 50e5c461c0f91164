// `switchboard audit [--json] [--limit N] [--profile P] [--server S] [--client C]`: newest first; reads the files when no engine runs.
import { homePaths } from '../../engine/platform/home.ts';
import { AuditLog } from '../../engine/records/audit-log.ts';
import { SocketControlClient } from '../engine-client.ts';
import { intFlag, parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { auditDropSentence, type AuditDrop, type AuditEntry } from '../../../src-shared/records.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';
import { clientDisplayName } from '../../../src-shared/client-names.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseFlags('audit', args, {
    json: { type: 'boolean' },
    limit: { type: 'string' },
    profile: { type: 'string' },
    server: { type: 'string' },
    client: { type: 'string' },
  });
  const q = { limit: intFlag(values.limit, '--limit', 50), profile: values.profile, server: values.server, client: values.client };
  const paths = homePaths(ctx.home);
  const client = await SocketControlClient.connect(paths);
  let entries: AuditEntry[];
  let dropped: AuditDrop[];
  if (client) {
    try {
      ({ entries, dropped = [] } = await client.call('audit.list', q));
    } finally {
      client.close();
    }
  } else {
    const log = AuditLog.open(paths.auditDir);
    try {
      entries = log.list(q);
      dropped = log.dropped(values.client);
    } finally {
      log.dispose();
    }
  }
  // The listing stays one JSON array; what the size cap removed is said beside it, on stderr.
  const notes = dropped.map((d) => t(auditDropSentence(d, (iso) => iso)) + '\n');
  if (values.json) {
    ctx.stdout(JSON.stringify(entries, null, 2) + '\n');
    for (const n of notes) ctx.stderr(n);
    return 0;
  }
  if (entries.length === 0) ctx.stdout('No tool calls recorded yet.\n');
  for (const e of entries) {
    ctx.stdout(
      `${t(e.time)}  ${t(e.outcome).padEnd(9)} ${t(`${e.server}.${e.tool}`).padEnd(36)} ${String(e.durationMs).padStart(6)} ms  ${t(e.profile)} · ${t(clientDisplayName(e.client, e.clientId))}${e.runId ? ` · run ${t(e.runId)}` : ''}\n`,
    );
  }
  for (const n of notes) ctx.stdout(n);
  return 0;
}

