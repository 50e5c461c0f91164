// Starting at login: the installed app follows the Settings switch on every OS, a development
// checkout never registers itself, and on Linux the XDG autostart entry is a real file.
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { autostartEntry, autostartFile, LOGIN_ARGS, syncLoginItem, type LoginItemHost } from '../../src-main/electron/login-item.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function host(over: Partial<LoginItemHost> = {}): LoginItemHost & { calls: unknown[]; openAtLogin: boolean } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-login-'));
  dirs.push(dir);
  const h: LoginItemHost & { calls: unknown[]; openAtLogin: boolean } = {
    platform: 'darwin' as NodeJS.Platform,
    isPackaged: true,
    execPath: '/Applications/Switchboard.app/Contents/MacOS/Switchboard',
    env: {},
    homedir: dir,
    calls: [] as unknown[],
    openAtLogin: false,
    getLoginItemSettings(o: { args: string[] }): { openAtLogin: boolean } {
      h.calls.push(['get', o.args]);
      return { openAtLogin: h.openAtLogin };
    },
    setLoginItemSettings(s: { openAtLogin: boolean; args: string[] }) {
      h.calls.push(['set', s]);
      h.openAtLogin = s.openAtLogin;
    },
    ...over,
  };
  return h;
}

describe('start at login', () => {
  it('registers the installed app, hidden in the tray, and removes it when turned off (macOS, Windows)', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const h = host({ platform });
      expect(syncLoginItem(h, true)).toBe('enabled');
      expect(h.calls).toContainEqual(['set', { openAtLogin: true, args: LOGIN_ARGS }]);
      expect(syncLoginItem(h, true)).toBe('unchanged');
      expect(syncLoginItem(h, false)).toBe('disabled');
      expect(h.openAtLogin).toBe(false);
    }
  });

  it('never registers a development checkout', () => {
    const h = host({ isPackaged: false });
    expect(syncLoginItem(h, true)).toBe('not-installed');
    expect(h.calls).toEqual([]);
  });

  it('writes and removes an XDG autostart entry on Linux, in XDG_CONFIG_HOME when set', () => {
    const h = host({ platform: 'linux', execPath: '/opt/Switchboard/switchboard-desktop' });
    const file = autostartFile(h);
    expect(file).toBe(path.join(h.homedir, '.config', 'autostart', 'switchboard.desktop'));
    expect(syncLoginItem(h, true)).toBe('enabled');
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Switchboard/switchboard-desktop" --hidden\n');
    expect(syncLoginItem(h, true)).toBe('unchanged');
    expect(syncLoginItem(h, false)).toBe('disabled');
    expect(existsSync(file)).toBe(false);
    expect(syncLoginItem(h, false)).toBe('unchanged');
    const xdg = path.join(h.homedir, 'xdg');
    expect(autostartFile({ ...h, env: { XDG_CONFIG_HOME: xdg } })).toBe(path.join(xdg, 'autostart', 'switchboard.desktop'));
    expect(h.calls).toEqual([]);
  });

  it('starts an AppImage by its own file, and rewrites an entry that points elsewhere', () => {
    const h = host({ platform: 'linux', execPath: '/tmp/.mount_Switch/switchboard-desktop', env: { APPIMAGE: '/home/me/Apps/Switchboard $1.AppImage' } });
    const file = autostartFile(h);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, autostartEntry('/old/place/Switchboard.AppImage'));
    expect(syncLoginItem(h, true)).toBe('enabled');
    expect(readFileSync(file, 'utf8')).toContain('Exec="/home/me/Apps/Switchboard \\$1.AppImage" --hidden\n');
  });
});
