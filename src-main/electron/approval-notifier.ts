// Desktop notifications for tool calls from code that wait for approval (profile `approvals`):
// one notification per pending call, the first time the status shows it; clicking it opens the
// run in the app, where the approval card is. And one per server proposed from outside (docs/configuration.md),
// opening the Servers page where it is approved. Electron is injected, so this is tested without it.
import type { PendingApproval, ServerProposal, ServerStatus } from '../../src-shared/api.ts';
import { argumentLines, cutText } from '../../src-shared/approval-text.ts';
import { clientDisplayName } from '../../src-shared/client-names.ts';

export interface NotifySurface {
  /** Shows one notification; `onClick` when the user clicks it. */
  notify(title: string, body: string, onClick: () => void): void;
  openRun(runId: string): void;
}

/** Which app asks to use which tool, what it does, the arguments as lines, and where to answer; no ids. */
export function approvalNotice(p: PendingApproval): { title: string; body: string } {
  const lines = [
    ...(p.description ? [cutText(p.description, 120)] : []),
    ...argumentLines(p.args, { width: 60, maxLines: 3 }),
    'Click to allow it or not in Switchboard.',
  ];
  return { title: cutText(`${clientDisplayName(p.client, p.clientId)} asks to use ${p.title ?? p.name}`, 80), body: lines.join('\n') };
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

export function proposalNotice(name: string, p: ServerProposal): { title: string; body: string } {
  const runs = p.command !== undefined ? [p.command, ...(p.args ?? [])].join(' ') : (p.url ?? '');
  return {
    title: `Approve the server ${name}?`,
    body: `Proposed by ${p.by}; it has not run. Approving runs: ${runs.length > 200 ? `${runs.slice(0, 200)}…` : runs}`,
  };
}

/** One notification per proposal, the first time the status shows it (again if it is proposed anew). */
export function createProposalNotifier(surface: Pick<NotifySurface, 'notify'> & { openServers(): void }): { update(servers: Readonly<Record<string, ServerStatus>> | undefined): void } {
  const seen = new Set<string>();
  return {
    update(servers) {
      const now = new Map<string, { name: string; p: ServerProposal }>();
      for (const [name, s] of Object.entries(servers ?? {})) if (s.proposal) now.set(`${name}\u0000${s.proposal.by}`, { name, p: s.proposal });
      for (const key of seen) if (!now.has(key)) seen.delete(key);
      for (const [key, { name, p }] of now) {
        if (seen.has(key)) continue;
        seen.add(key);
        const { title, body } = proposalNotice(name, p);
        surface.notify(title, body, () => surface.openServers());
      }
    },
  };
}
