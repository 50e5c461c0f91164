import { describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src-shared/api.ts';
import { trayTemplate, type TrayItem } from '../../src-main/electron/tray-menu.ts';

const status = {
  servers: {
    files: { state: 'ready', tools: 3, lastError: null, auth: { state: 'none' }, kind: 'local', restarts: 0 },
    broken: { state: 'failed', tools: 0, lastError: 'command not found', auth: { state: 'none' }, kind: 'local', restarts: 2 },
  },
  profiles: {
    auto: { surface: 'code', servers: ['files'], tools: 3, url: 'http://127.0.0.1:7777/mcp/auto' },
    plain: { surface: 'tools', servers: ['files'], tools: 3, url: null },
  },
} as unknown as StatusReport;

function setup() {
  const did: string[] = [];
  const items = trayTemplate({ kind: 'running', since: 0 }, status, {
    openPage: (p, a) => void did.push(`open ${p}${a ? ` ${a}` : ''}`),
    copy: (t) => void did.push(`copy ${t}`),
    restartServer: (n) => void did.push(`restart ${n}`),
    quit: () => void did.push('quit'),
  });
  const find = (list: TrayItem[], label: string) => list.find((i) => i.label?.startsWith(label));
  return { items, did, find };
}

describe('tray menu', () => {
  it('says how many servers failed', () => {
    expect(setup().items[0]!.label).toBe('Engine running · 1 of 2 servers failed');
  });

  it('offers quick actions per profile', () => {
    const { items, did, find } = setup();
    const auto = find(items, 'Profile: auto')!.submenu!;
    find(auto, 'Copy HTTP address')!.click!();
    find(auto, 'Open in playground')!.click!();
    const plain = find(items, 'Profile: plain')!.submenu!;
    expect(find(plain, 'Open in playground')).toBeUndefined();
    expect(find(plain, 'Copy HTTP address')).toBeUndefined();
    expect(did).toEqual(['copy http://127.0.0.1:7777/mcp/auto', 'open playground auto']);
  });

  it('restarts a server from its submenu', () => {
    const { items, did, find } = setup();
    const broken = find(find(items, 'Servers')!.submenu!, 'broken')!;
    expect(broken.label).toBe('broken — failed');
    find(broken.submenu!, 'Restart')!.click!();
    expect(did).toEqual(['restart broken']);
  });

  it('lists servers proposed from outside as waiting for approval, and offers review instead of restart', () => {
    const did: string[] = [];
    const withProposal = {
      ...status,
      servers: {
        ...status.servers,
        helper: { state: 'needs-approval', tools: 0, lastError: null, auth: { state: 'none' }, kind: 'local', restarts: 0, proposal: { by: 'an install link (cursor)', command: 'npx', args: [] } },
      },
    } as unknown as StatusReport;
    const items = trayTemplate({ kind: 'running', since: 0 }, withProposal, {
      openPage: (p) => void did.push(`open ${p}`), copy() {}, restartServer: (n) => void did.push(`restart ${n}`), quit() {},
    });
    const find = (list: TrayItem[], label: string) => list.find((i) => i.label?.startsWith(label));
    const waiting = find(items, '1 server waits for your approval')!;
    expect(waiting.submenu!.map((i) => i.label)).toEqual(['helper · proposed by an install link (cursor)']);
    waiting.submenu![0]!.click!();
    const helper = find(find(items, 'Servers')!.submenu!, 'helper')!;
    expect(helper.submenu!.map((i) => i.label)).toEqual(['Review and approve']);
    expect(did).toEqual(['open servers']);
    expect(find(setup().items, '1 server waits')).toBeUndefined();
  });

  it('lists the connected apps by the names people know them by and opens the Connect page from them', () => {
    const did: string[] = [];
    const withClients = {
      ...status,
      clients: [
        { id: 's1', name: 'cursor-vscode', profile: 'auto', transport: 'socket', since: '', tools: 12 },
        { id: 's2', name: 'my-agent', clientId: 'claude-desktop', profile: 'plain', transport: 'socket', since: '' },
      ],
    } as unknown as StatusReport;
    const items = trayTemplate({ kind: 'running', since: 0 }, withClients, {
      openPage: (p) => void did.push(`open ${p}`), copy() {}, restartServer() {}, quit() {},
    });
    const connected = items.find((i) => i.label === '2 apps are connected')!;
    expect(connected.submenu!.map((i) => i.label)).toEqual(['Cursor · auto · 12 tools', 'Claude Desktop · plain']);
    connected.submenu![0]!.click!();
    expect(did).toEqual(['open connect']);
    expect(setup().items.find((i) => i.label?.includes('connected'))).toBeUndefined();
  });

  it('says when the engine is waiting to restart', () => {
    const items = trayTemplate({ kind: 'waiting', restartInMs: 2000, lastExitCode: 1, crashes: 2 }, null, {
      openPage() {}, copy() {}, restartServer() {}, quit() {},
    });
    expect(items[0]!.label).toBe('Engine stopped unexpectedly; restarting in 2 s');
  });

  it('offers "Restart to update" once an update is downloaded, and only then', () => {
    const did: string[] = [];
    const actions = { openPage() {}, copy() {}, restartServer() {}, quit() {}, restartToUpdate: () => void did.push('restart to update') };
    const labels = (items: TrayItem[]) => items.map((i) => i.label).filter(Boolean);
    const ready = trayTemplate({ kind: 'running', since: 0 }, status, actions, { state: 'ready', version: '0.2.0' });
    expect(labels(ready).slice(0, 3)).toEqual(['Engine running · 1 of 2 servers failed', 'Switchboard 0.2.0 is ready — restart to use it', 'Restart to update']);
    ready.find((i) => i.label === 'Restart to update')!.click!();
    expect(did).toEqual(['restart to update']);
    for (const notice of [{ state: 'downloading', version: '0.2.0', percent: 40 }, { state: 'idle' }, { state: 'off' }, undefined] as const) {
      expect(labels(trayTemplate({ kind: 'running', since: 0 }, status, actions, notice))).not.toContain('Restart to update');
    }
    const restarting = trayTemplate({ kind: 'running', since: 0 }, status, actions, { state: 'restarting', version: '0.2.0' });
    expect(labels(restarting)).toContain('Restarting to Switchboard 0.2.0…');
    expect(labels(restarting)).not.toContain('Restart to update');
  });
});
