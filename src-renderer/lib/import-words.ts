// What an import's preview says around the servers, in words, the same on the welcome and on the
// Connect page: where they go, and why one gets another name. Pure.
import type { ImportPlanEntry, ImportPlanResult } from '../../src-shared/api.ts';
import { terminalSafe } from '../../src-shared/terminal-text.ts';

const q = (s: string) => `“${terminalSafe(s)}”`;

/** Where the servers go: the person's own profile, with what is in it already. */
export function destinationWords(plan: Pick<ImportPlanResult, 'replaceProfile' | 'profileServers'>): string {
  const p = plan.replaceProfile;
  return plan.profileServers.length
    ? `They join your profile ${q(p)}, which has ${plan.profileServers.map(q).join(', ')} already: every app connected to ${q(p)} gets all of them.`
    : `They go into a profile of your own, ${q(p)}, kept apart from the demo: every app you connect to it gets them.`;
}

/** With `replace`: the app's demo entry goes too (null when it has none). */
export function demoEntryWords(plan: Pick<ImportPlanResult, 'demoEntries'>, app: string): string | null {
  return plan.demoEntries.length ? `${app} is connected to the demo too; that entry goes as well, so ${app} gets your tools and not the demo’s.` : null;
}

/** Why a server is brought over under another name; null when it keeps its own. */
export function renameWords(e: Extract<ImportPlanEntry, { action: 'add' }>, app: string): string | null {
  if (e.taken) return `Named ${q(e.name)} here: Switchboard already has a different server called ${q(e.taken)}, and both are kept.`;
  if (e.name !== e.clientName) return `Called ${q(e.clientName)} in ${app}; named ${q(e.name)} here, since a name here uses only letters, digits, “.”, “-” and “_”.`;
  return null;
}

/** The servers a plan brings over (added or already there). */
export const coveredCount = (plan: ImportPlanResult): number => plan.entries.filter((e) => e.action !== 'skip').length;

/** A config path such as `profiles.demo.servers.5` or `servers.memory.env`: words for a developer. */
const CONFIG_PATH = /\b(?:servers|profiles|settings)\.[\w.-]+/;

/**
 * An import's failure for a person: a sentence they can act on, and the engine's own message
 * (with its config paths) kept for a "Details" disclosure when it names any.
 */
export function importFailure(message: string): { sentence: string; details: string | null } {
  if (!CONFIG_PATH.test(message)) return { sentence: message, details: null };
  return {
    sentence: 'Nothing was brought over: Switchboard’s settings file has a problem it would not write over. The details say where; fix that (or undo a hand edit), then try again.',
    details: message,
  };
}
