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

  it('says when the engine is waiting to restart', () => {
    const items = trayTemplate({ kind: 'waiting', restartInMs: 2000, lastExitCode: 1, crashes: 2 }, null, {
      openPage() {}, copy() {}, restartServer() {}, quit() {},
    });
    expect(items[0]!.label).toBe('Engine stopped unexpectedly; restarting in 2 s');
  });
});
