// What removing the demo did, in sentences: the CLI prints them, the app shows them. Pure.
import type { DemoRemovalResult } from './api.ts';
import { terminalSafe as t } from './terminal-text.ts';

/** What a removal did, in sentences; names from config.json and paths are escaped. */
export function demoRemovalLines(r: DemoRemovalResult): string[] {
  if (r.profiles.length === 0 && r.servers.length === 0) return ['There is no demo to remove.'];
  const lines = [`Removed the demo: profile${r.profiles.length === 1 ? '' : 's'} ${r.profiles.join(', ')}${r.servers.length ? ` and its servers ${r.servers.join(', ')}` : ''}.`];
  if (r.kept) lines.push(`Your servers that were in it (${r.kept.servers.map((s) => t(s)).join(', ')}) are now in your profile "${r.kept.profile}".`);
  for (const a of r.apps) lines.push(a.movedTo ? `${a.displayName} now uses "${a.movedTo}" instead of the demo; restart it to pick that up.` : `Removed the demo from ${a.displayName}; restart it to pick that up.`);
  if (r.folder.state === 'removed') lines.push(`Removed the demo folder ${t(r.folder.path)}.`);
  if (r.folder.state === 'kept') lines.push(`Kept the demo folder ${t(r.folder.path)}: it holds files that were added or changed there. Delete it yourself if you do not need them.`);
  return lines;
}

