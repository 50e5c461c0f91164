// `switchboard import CLIENT [--apply] [--replace]`: copy a client's servers into config.json.
// Without flags it is a dry run; applying it is the user's approval of those commands (docs/configuration.md).
// It is the app's import, step for step: the engine's clients.importPlan / clients.importApply
// when an engine runs, else the same handlers here against config.json under its lock.
import { terminalSafe } from '../../../src-shared/terminal-text.ts';
import { assertInstalled, connectorFromArgs } from '../../engine/clients/client-lookup.ts';
import { describePreview } from '../../engine/clients/import.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { homeCall } from '../home-control.ts';

/**
 * A dry run writes nothing, not even a first-run config.json; and the apply then plans against
 * the same (absent) file, so it does what the dry run said.
 */
const NO_FIRST_RUN_CONFIG = { createDefault: false };

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('import', args, { apply: { type: 'boolean' }, replace: { type: 'boolean' } });
  const c = connectorFromArgs('import', positionals, { home: ctx.home, env: ctx.env, platform: ctx.platform });
  assertInstalled(c, 'There is nothing to import.');
  const apply = values.apply === true || values.replace === true;
  const plan = await homeCall(ctx, 'clients.importPlan', { client: c.id }, NO_FIRST_RUN_CONFIG);

  // Names and reasons come from the client's file: escaped (terminalSafe), never raw.
  const t = terminalSafe;
  const q = (s: string) => t(JSON.stringify(s));
  const lines: string[] = [`${c.displayName}: ${t(c.configPath())}`, ...c.legacyFiles().map((f) => `  also read: ${t(f)} (an older file ${c.displayName} still loads)`)];
  for (const e of plan.entries) {
    if (e.action === 'add') {
      const was =
        e.taken ? ` (was ${q(e.clientName)}; Switchboard already has a different server called ${q(e.taken)})`
        : e.name !== e.clientName ? ` (was ${q(e.clientName)})`
        : '';
      lines.push(`  + ${t(e.name)}${was}: ${describePreview(e.server)}`);
    } else if (e.action === 'duplicate') lines.push(`  = ${t(e.clientName)}: already in Switchboard as ${q(e.existing)} (the same command, arguments and settings)`);
    else lines.push(`  ! ${t(e.clientName)}: skipped, ${t(e.reason)}`);
  }
  if (plan.entries.length === 0) lines.push("  (no servers besides Switchboard's own entries)");
  const count = plan.entries.filter((e) => e.action === 'add').length;
  const covered = plan.entries.filter((e) => e.action !== 'skip').length;
  const profile = plan.replaceProfile;
  const others = plan.profileServers.length ? `, which has ${plan.profileServers.map(q).join(', ')} already` : ' (created for them)';

  if (!apply) {
    if (covered) lines.push(`They go into your profile "${profile}"${others}.`);
    if (covered && plan.demoEntries.length) lines.push(`With --replace, ${c.displayName}'s demo entr${plan.demoEntries.length === 1 ? 'y goes' : 'ies go'} too (${plan.demoEntries.map((p) => `"switchboard-${p}"`).join(', ')}): it gets your tools, not the demo's.`);
    lines.push(
      covered
        ? `Dry run: nothing was written. To bring ${covered === 1 ? 'it' : 'them'} over: switchboard import ${c.id} --apply` +
            ` (or --replace to also swap ${covered === 1 ? 'it' : 'them'} in ${c.displayName} for one Switchboard entry, "switchboard-${profile}").`
        : 'Dry run: nothing to add.',
    );
    ctx.stdout(lines.join('\n') + '\n');
    return 0;
  }

  const out = await homeCall(ctx, 'clients.importApply', { client: c.id, ...(values.replace ? { replace: true } : {}) }, NO_FIRST_RUN_CONFIG);
  const n = out.added.length;
  lines.push(n ? `Added ${n} server${n === 1 ? '' : 's'} to config.json.` : 'Nothing new to add to config.json.');
  if (out.profile) lines.push(`They are in profile "${out.profile}": connect an app to it with switchboard connect CLIENT --profile ${out.profile}.`);

  if (values.replace) {
    if (!out.replaced) {
      lines.push(`Nothing to replace in ${c.displayName}.`);
    } else {
      const { profile: p, entries, write } = out.replaced;
      lines.push(
        write.changed
          ? `Replaced ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} in ${write.path} with "switchboard-${p}" (profile "${p}").`
          : `${c.displayName} already reaches them through "switchboard-${p}"; its file was not changed.`,
        ...(write.backup ? [`Backup of the previous file: ${write.backup}`] : []),
        ...(write.changed ? [`Restart ${c.displayName} to pick it up. To restore its file: switchboard undo ${c.id} (config.json keeps the imported servers).`] : []),
      );
    }
  }
  ctx.stdout(lines.join('\n') + '\n');
  return 0;
}
