// Desktop notifications for tool calls from code that wait for approval (profile `approvals`):
// one notification per pending call, the first time the status shows it; clicking it opens the
// run in the app, where the approval card is. Electron is injected, so this is tested without it.
import type { PendingApproval } from '../../src-shared/api.ts';

export interface NotifySurface {
  /** Shows one notification; `onClick` when the user clicks it. */
  notify(title: string, body: string, onClick: () => void): void;
  openRun(runId: string): void;
}

export function approvalNotice(p: PendingApproval): { title: string; body: string } {
  const args = JSON.stringify(p.args ?? {});
  return {
    title: `Approve ${p.name}?`,
    body: `A run of ${p.profile} (${p.client}) wants to call ${p.name} with ${args.length > 200 ? `${args.slice(0, 200)}…` : args}.`,
  };
}

export function createApprovalNotifier(surface: NotifySurface): { update(pending: readonly PendingApproval[] | undefined): void } {
  const seen = new Set<string>();
  return {
    update(pending) {
      const now = new Set((pending ?? []).map((p) => p.id));
      for (const id of seen) if (!now.has(id)) seen.delete(id);
      for (const p of pending ?? []) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        const { title, body } = approvalNotice(p);
        surface.notify(title, body, () => surface.openRun(p.runId));
      }
    },
  };
}
