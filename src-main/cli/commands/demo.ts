// `switchboard demo remove`: the app's "Remove the demo" button on the command line — the demo
// profiles, the servers only they use, the apps' entries for them, and the demo folder when it
// is as it came. The person's servers stay (engine side: clients/demo-removal.ts).
import type { DemoRemovalResult } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';
import { removeDemo } from '../../engine/clients/demo-removal.ts';
import { parseFlags } from '../args.ts';
import { withConfig } from '../cli-context.ts';
import type { CliContext } from '../context.ts';

/** What a removal did, in sentences (the app's notice says the same). */
export function demoRemovalLines(r: DemoRemovalResult): string[] {
  if (r.profiles.length === 0 && r.servers.length === 0) return ['There is no demo to remove.'];
  const lines = [`Removed the demo: profile${r.profiles.length === 1 ? '' : 's'} ${r.profiles.join(', ')}${r.servers.length ? ` and its servers ${r.servers.join(', ')}` : ''}.`];
  if (r.kept) lines.push(`Your servers that were in it (${r.kept.servers.map((s) => t(s)).join(', ')}) are now in your profile "${r.kept.profile}".`);
  for (const a of r.apps) lines.push(a.movedTo ? `${a.displayName} now uses "${a.movedTo}" instead of the demo; restart it to pick that up.` : `Removed the demo from ${a.displayName}; restart it to pick that up.`);
  if (r.folder.state === 'removed') lines.push(`Removed the demo folder ${t(r.folder.path)}.`);
  if (r.folder.state === 'kept') lines.push(`Kept the demo folder ${t(r.folder.path)}: it holds files that were added or changed there. Delete it yourself if you do not need them.`);
  return lines;
}

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positionals } = parseFlags('demo', args, {});
  if (positionals[0] !== 'remove' || positionals.length !== 1) throw new SwitchboardError('bad-request', 'Usage: switchboard demo remove');
  const r = await withConfig(
    ctx.home,
    (engine) => engine.call('demo.remove', {}),
    (store) => removeDemo({ home: ctx.home, env: ctx.env, platform: ctx.platform, updateConfig: (m) => store.update(m), shimEntry: ctx.shimEntry }),
    // A home without config.json has no demo to remove, and must not get one written now.
    { createDefault: false },
  );
  ctx.stdout(demoRemovalLines(r).join('\n') + '\n');
  return 0;
}
