// What a client card on the Connect page says after an action: a headline, the steps left to do
// in the client (restart it, trust a folder, switch the entry on…) and warnings. Kept per client
// by the page (ClientList.notices), since a card can be rebuilt when it moves between lists.
import type { ClientWriteResult } from '../../src-shared/api.ts';

export interface CardOutcome {
  message: string;
  steps: string[];
  warnings: string[];
  /** Which tool names are shortened for this client so they fit it. */
  shortened?: string;
  /** Offer to add a folder to the client's trust list (Gemini CLI, Qwen Code). */
  trust?: { file: string };
  /** What the client's own listing said of the entry (Claude Code, Gemini CLI, …). */
  check?: { outcome: string; message: string };
}

export const plainOutcome = (message: string): CardOutcome => ({ message, steps: [], warnings: [] });

/** The card's outcome of a connect, from the engine's answer and the profile's limit warnings. */
export function connectOutcome(displayName: string, profile: string, r: ClientWriteResult, limitWarnings: string[], fallbackStep?: string, shortened?: string): CardOutcome {
  const o = r.outcome;
  // A copy-paste client: nothing was written; the steps are what to do in its own settings.
  if (o?.copyPaste) return { message: `${displayName} keeps its MCP servers in its own settings, so Switchboard changed nothing. To connect it to “${profile}”:`, steps: o.nextSteps, warnings: [] };
  const steps = o?.nextSteps ?? (r.changed ? [fallbackStep ?? `Restart ${displayName} to pick it up.`] : []);
  const warnings = [...(o?.warnings ?? []), ...limitWarnings];
  const message = !r.changed
    ? `${displayName} already uses profile “${profile}”; nothing changed.`
    : r.replaced === 'other'
      ? `Connected ${displayName} to “${profile}”, replacing an entry that had been changed by hand.`
      : `Connected ${displayName} to “${profile}”.`;
  return { message, steps, warnings, ...(shortened ? { shortened } : {}), ...(o?.trustNeeded ? { trust: o.trustNeeded } : {}), ...(o?.check ? { check: { outcome: o.check.outcome, message: o.check.message } } : {}) };
}
