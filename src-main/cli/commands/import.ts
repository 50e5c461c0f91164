// `switchboard import CLIENT [--apply] [--replace]`: copy a client's servers into config.json.
// Without flags it is a dry run; applying it is the user's approval of those commands (SPEC §3).
import { readFile } from 'node:fs/promises';
import type { ServerConfig } from '../../../src-shared/config/schema.ts';
import { validateConfigText } from '../../../src-shared/config/validate.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { terminalSafe } from '../../../src-shared/terminal-text.ts';
import { assertInstalled, connectorFromArgs } from '../../engine/clients/client-lookup.ts';
import { describeServer, planImport } from '../../engine/clients/import.ts';
import { applyImport } from '../../engine/clients/import-apply.ts';
import { decodeUtf8 } from '../../engine/config/store.ts';
import { homePaths } from '../../engine/home.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../context.ts';

async function existingServers(home: string): Promise<Record<string, ServerConfig>> {
  const file = homePaths(home).config;
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const decoded = decodeUtf8(bytes);
  const v: ReturnType<typeof validateConfigText> = 'problem' in decoded ? { ok: false, problems: [decoded.problem] } : validateConfigText(decoded.text);
  if (!v.ok) {
    throw new SwitchboardError('invalid-config', `${file} has problems, so Switchboard cannot tell which servers it already has. Fix them first:`, v.problems);
  }
  return v.config.servers;
}

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('import', args, { apply: { type: 'boolean' }, replace: { type: 'boolean' } });
  const c = connectorFromArgs('import', positionals, { home: ctx.home, env: ctx.env, platform: ctx.platform });
  assertInstalled(c, 'There is nothing to import.');
  const apply = values.apply === true || values.replace === true;
  const clientServers = await c.readImportableServers();
  const plan = planImport(clientServers, await existingServers(ctx.home), c.spec.bareUrlTransport);

  // Names and reasons come from the client's file: escaped (terminalSafe), never raw.
  const t = terminalSafe;
  const lines: string[] = [`${c.displayName}: ${t(c.configPath())}`, ...c.legacyFiles().map((f) => `  also read: ${t(f)} (an older file ${c.displayName} still loads)`)];
  for (const item of plan.items) {
    if (item.action === 'add') lines.push(`  + ${t(item.name)}${item.name !== item.clientName ? ` (was ${t(JSON.stringify(item.clientName))})` : ''}: ${describeServer(item.config)}`);
    else if (item.action === 'duplicate') lines.push(`  = ${t(item.clientName)}: already in config.json as "${t(item.existing)}"`);
    else lines.push(`  ! ${t(item.clientName)}: skipped, ${t(item.reason)}`);
  }
  if (plan.items.length === 0) lines.push('  (no servers besides Switchboard\'s own entries)');
  const count = Object.keys(plan.toAdd).length;

  if (!apply) {
    lines.push(
      count
        ? `Dry run: nothing was written. To add ${count === 1 ? 'this server' : `these ${count} servers`} to config.json: switchboard import ${c.id} --apply` +
            ` (or --replace to also swap them in ${c.displayName} for one Switchboard entry).`
        : 'Dry run: nothing to add.',
    );
    ctx.stdout(lines.join('\n') + '\n');
    return 0;
  }

  const out = await applyImport(c, plan, { replace: values.replace === true }, ctx);
  lines.push(count ? `Added ${count} server${count === 1 ? '' : 's'} to config.json.` : 'Nothing new to add to config.json.');

  if (values.replace) {
    if (!out.replaced) {
      lines.push(`Nothing to replace in ${c.displayName}.`);
    } else {
      const { profile, entries, write } = out.replaced;
      lines.push(
        `Replaced ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} in ${write.path} with "switchboard-${profile}" (profile "${profile}").`,
        ...(write.backup ? [`Backup of the previous file: ${write.backup}`] : []),
        `Restart ${c.displayName} to pick it up. To restore its file: switchboard undo ${c.id} (config.json keeps the imported servers).`,
      );
    }
  }
  ctx.stdout(lines.join('\n') + '\n');
  return 0;
}
