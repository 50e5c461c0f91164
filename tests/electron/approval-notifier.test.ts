// The tray's approval notifications and menu entry, with the Electron surface injected.
import { describe, expect, it } from 'vitest';
import type { PendingApproval, ServerStatus, StatusReport } from '../../src-shared/api.ts';
import { createApprovalNotifier, createProposalNotifier } from '../../src-main/electron/approval-notifier.ts';
import { trayTemplate } from '../../src-main/electron/tray-menu.ts';

const pending = (id: string, runId = 'run-1'): PendingApproval => ({
  id,
  time: '2026-12-03T08:00:00.000Z',
  profile: 'auto',
  // The raw clientInfo name: shown as people know the app.
  client: 'cursor-vscode',
  runId,
  server: 'github',
  tool: 'delete_repo',
  name: 'github.delete_repo',
  args: { owner: 'acme', repo: 'web' },
  expiresAt: '2026-12-03T08:02:00.000Z',
  askedClient: false,
});

describe('approval notifications', () => {
  it('notifies once per pending call, with the exact tool and arguments, and opens its run on click', () => {
    const shown: { title: string; body: string; click: () => void }[] = [];
    const opened: string[] = [];
    const n = createApprovalNotifier({ notify: (title, body, click) => void shown.push({ title, body, click }), openRun: (id) => void opened.push(id) });
    n.update(undefined);
    n.update([pending('a')]);
    n.update([pending('a')]);
    n.update([pending('a'), pending('b', 'run-2')]);
    expect(shown.map((s) => s.title)).toEqual(['Cursor asks to use github.delete_repo', 'Cursor asks to use github.delete_repo']);
    expect(shown[0]!.body).toBe('owner: acme\nrepo: web\nClick to allow it or not in Switchboard.');
    shown[1]!.click();
    expect(opened).toEqual(['run-2']);
    // Decided, then a new call: notified again.
    n.update([]);
    n.update([pending('c')]);
    expect(shown).toHaveLength(3);
  });

  it('notifies once per server proposed from outside, with what it would run, and opens the Servers page on click', () => {
    const shown: { title: string; body: string; click: () => void }[] = [];
    let opened = 0;
    const n = createProposalNotifier({ notify: (title, body, click) => void shown.push({ title, body, click }), openServers: () => void opened++ });
    const server = (by?: string) =>
      ({ state: by ? 'needs-approval' : 'ready', tools: 0, lastError: null, auth: { state: 'none' }, kind: 'local', restarts: 0, ...(by ? { proposal: { by, command: 'npx', args: ['-y', 'pkg'] } } : {}) }) as ServerStatus;
    n.update(undefined);
    n.update({ mine: server(), helper: server('an install link (cursor)') });
    n.update({ mine: server(), helper: server('an install link (cursor)') });
    expect(shown.map((s) => s.title)).toEqual(['Approve the server helper?']);
    expect(shown[0]!.body).toBe('Proposed by an install link (cursor); it has not run. Approving runs: npx -y pkg');
    shown[0]!.click();
    expect(opened).toBe(1);
    // Approved, then proposed again by someone else: notified again.
    n.update({ helper: server() });
    n.update({ helper: server('a setup script') });
    expect(shown).toHaveLength(2);
  });

  it("names the tool by its title and says what it does, with no run id", () => {
    const shown: { title: string; body: string }[] = [];
    const n = createApprovalNotifier({ notify: (title, body) => void shown.push({ title, body }), openRun: () => {} });
    n.update([{ ...pending('t', 'run-77'), client: 'Claude Desktop', title: 'Delete a repository', description: 'Deletes the repository and all its issues.' }]);
    expect(shown[0]).toEqual({
      title: 'Claude Desktop asks to use Delete a repository',
      body: 'Deletes the repository and all its issues.\nowner: acme\nrepo: web\nClick to allow it or not in Switchboard.',
    });
    expect(JSON.stringify(shown)).not.toContain('run-77');
  });

  it('cuts long arguments', () => {
    const shown: string[] = [];
    const n = createApprovalNotifier({ notify: (_t, body) => void shown.push(body), openRun: () => {} });
    n.update([{ ...pending('x'), args: { text: 'y'.repeat(1000) } }]);
    expect(shown[0]!.length).toBeLessThan(300);
    expect(shown[0]).toContain('…');
  });

  it('the tray menu lists the waiting calls, each opening its run', () => {
    const did: string[] = [];
    const status = { servers: {}, profiles: {}, approvals: [pending('a', 'run-9')] } as unknown as StatusReport;
    const items = trayTemplate({ kind: 'running', since: 0 }, status, {
      openPage: (p, a) => void did.push(`${p} ${a}`),
      copy: () => {},
      restartServer: () => {},
      quit: () => {},
    });
    const entry = items.find((i) => i.label === '1 call waits for approval')!;
    expect(entry.submenu![0]!.label).toBe('Cursor wants to use github.delete_repo · auto');
    entry.submenu![0]!.click!();
    expect(did).toEqual(['runs run-9']);
  });
});
