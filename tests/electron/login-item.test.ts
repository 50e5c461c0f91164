// Starting at login: the installed app follows the Settings switch on every OS, a development
// checkout never registers itself, and on Linux the XDG autostart entry is a real file.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
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
    expect(readFileSync(file, 'utf8')).toContain('Exec="/home/me/Apps/Switchboard \\\\$1.AppImage" --hidden\n');
  });

  it('refuses an app path holding a line break or another control character, and leaves no entry to start', () => {
    for (const bad of ['\n', '\r', '\t', '\u0000', '\u001b', '\u007f', '\u0085']) {
      const h = host({ platform: 'linux', execPath: '/tmp/.mount_Switch/switchboard-desktop', env: { APPIMAGE: `/home/me/Apps/Switch${bad}board.AppImage` } });
      const file = autostartFile(h);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, autostartEntry('/old/place/Switchboard.AppImage'));
      expect(() => syncLoginItem(h, true), JSON.stringify(bad)).toThrow(/cannot start at login .*line break or another control character/);
      expect(existsSync(file)).toBe(false);
      // Turning the setting off still works.
      expect(syncLoginItem(h, false)).toBe('unchanged');
    }
  });

  it('doubles a % and escapes quotes, backquotes, $ and backslashes twice, as the spec says', () => {
    expect(autostartEntry('/a b/%U"`$\\x')).toContain('Exec="/a b/%%U\\\\\"\\\\`\\\\$\\\\\\\\x" --hidden\n');
  });

  // gio launch reads the entry with GLib, as GNOME's session does at login.
  const gio = spawnSync('gio', ['--version']).status === 0;
  it.skipIf(!gio)('starts, through a real launcher (gio), exactly the program named by a path with spaces, quotes, $, ` and backslashes', () => {
    const h = host({ platform: 'linux' });
    const out = path.join(h.homedir, 'argv.json');
    // GLib looks the program up before expanding %%, so a % in its name is checked above, not here.
    for (const name of ['Switch board', 'a"b', "it's", 'cost $HOME', 'a`id`b', 'back\\slash', 'back\\"q', 'semi;colon&|>']) {
      const program = path.join(h.homedir, `${name}.AppImage`);
      writeFileSync(program, `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv.slice(1)));\n`);
      chmodSync(program, 0o755);
      rmSync(out, { force: true });
      const entry = path.join(h.homedir, 'entry.desktop');
      writeFileSync(entry, autostartEntry(program));
      execFileSync('gio', ['launch', entry], { timeout: 10_000 });
      const argv = waitForFile(out);
      expect(argv, name).toEqual([program, ...LOGIN_ARGS]);
    }
  });
});

function waitForFile(file: string): unknown {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  throw new Error(`${file} was never written`);
}
