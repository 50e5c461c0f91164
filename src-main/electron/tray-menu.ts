// The tray's menu as plain data (Electron's MenuItemConstructorOptions shape), rebuilt from the
// engine's status, so that what it shows can be tested without Electron.
import type { StatusReport } from '../../src-shared/api.ts';
import type { EngineState } from './engine-supervisor.ts';
import { clientDisplayName } from '../../src-shared/client-names.ts';
import { readySentence, RESTART_TO_UPDATE, type UpdateNotice } from '../../src-shared/updates.ts';

export interface TrayItem {
  label?: string;
  type?: 'separator' | 'normal' | 'submenu';
  enabled?: boolean;
  click?: () => void;
  submenu?: TrayItem[];
}

export interface TrayActions {
  openPage(page: string, arg?: string): void;
  copy(text: string): void;
  restartServer(name: string): void;
  quit(): void;
  /** "Restart to update" (docs/updates.md); only offered when an update is downloaded. */
  restartToUpdate?(): void;
}

export function engineLine(engine: EngineState, status: StatusReport | null): string {
  if (engine.kind === 'waiting') return `Engine stopped unexpectedly; restarting in ${Math.ceil(engine.restartInMs / 1000)} s`;
  if (engine.kind === 'stopped') return 'Engine stopped';
  if (!status) return 'Engine starting…';
  const servers = Object.values(status.servers);
  const failed = servers.filter((s) => s.state === 'failed').length;
  const ready = servers.filter((s) => s.state === 'ready').length;
  return failed
    ? `Engine running · ${failed} of ${servers.length} servers failed`
    : `Engine running · ${ready} of ${servers.length} servers ready`;
}

export function trayTemplate(engine: EngineState, status: StatusReport | null, a: TrayActions, update?: UpdateNotice): TrayItem[] {
  const items: TrayItem[] = [{ label: engineLine(engine, status), enabled: false }, { type: 'separator' }];
  if (update?.state === 'ready' && a.restartToUpdate) {
    items.push({ label: readySentence(update.version), enabled: false }, { label: RESTART_TO_UPDATE, click: () => a.restartToUpdate!() }, { type: 'separator' });
  } else if (update?.state === 'restarting') {
    items.push({ label: `Restarting to Switchboard ${update.version}…`, enabled: false }, { type: 'separator' });
  }
  const waiting = status?.approvals ?? [];
  if (waiting.length) {
    items.push(
      {
        label: `${waiting.length} ${waiting.length === 1 ? 'call waits' : 'calls wait'} for approval`,
        submenu: waiting.map((p) => ({ label: `${clientDisplayName(p.client, p.clientId)} wants to use ${p.title ?? p.name} · ${p.profile}`, click: () => a.openPage('runs', p.runId) })),
      },
      { type: 'separator' },
    );
  }
  const clients = status?.clients ?? [];
  if (clients.length) {
    items.push({
      label: `${clients.length} ${clients.length === 1 ? 'app is' : 'apps are'} connected`,
      submenu: clients.map((c) => ({ label: `${clientDisplayName(c.name, c.clientId)} · ${c.profile}${c.tools !== undefined ? ` · ${c.tools} tools` : ''}`, click: () => a.openPage('connect') })),
    });
  }
  const servers = Object.entries(status?.servers ?? {});
  // Servers proposed from outside (docs/configuration.md) run only once approved, which the Servers page does.
  const proposed = servers.filter(([, s]) => s.proposal);
  if (proposed.length) {
    items.push(
      {
        label: `${proposed.length} ${proposed.length === 1 ? 'server waits' : 'servers wait'} for your approval`,
        submenu: proposed.map(([name, s]) => ({ label: `${name} · proposed by ${s.proposal!.by}`, click: () => a.openPage('servers') })),
      },
      { type: 'separator' },
    );
  }
  if (servers.length) {
    items.push({
      label: 'Servers',
      submenu: servers.map(([name, s]) => ({
        label: `${name} — ${s.state}${s.state === 'ready' ? ` (${s.tools} tools)` : ''}`,
        submenu: [
          ...(s.state === 'needs-approval' ? [] : [{ label: 'Restart', click: () => a.restartServer(name) }]),
          { label: s.state === 'needs-approval' ? 'Review and approve' : 'Show', click: () => a.openPage('servers') },
        ],
      })),
    });
  }
  for (const [name, p] of Object.entries(status?.profiles ?? {})) {
    const sub: TrayItem[] = [];
    if (p.url) sub.push({ label: 'Copy HTTP address', click: () => a.copy(p.url!) });
    if (p.surface === 'code') sub.push({ label: 'Open in playground', click: () => a.openPage('playground', name) });
    sub.push({ label: 'Edit profile', click: () => a.openPage('profiles') });
    items.push({ label: `Profile: ${name} (${p.surface})`, submenu: sub });
  }
  items.push(
    { type: 'separator' },
    { label: 'Open Switchboard', click: () => a.openPage('servers') },
    { label: 'Run history', click: () => a.openPage('runs') },
    { type: 'separator' },
    { label: 'Quit Switchboard', click: () => a.quit() },
  );
  return items;
}
