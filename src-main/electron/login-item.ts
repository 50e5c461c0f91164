// "Start Switchboard when I log in" (Settings; config.json `settings.startAtLogin`, on unless
// false). macOS and Windows keep login items themselves (app.setLoginItemSettings); Linux has no
// such API in Electron, so the app writes or removes an XDG autostart entry. Only the installed
// app registers itself: a development checkout must never start at login.
import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { SwitchboardError } from '../../src-shared/errors.ts';
import { OWN_FILE_READ, writeFileAtomicSync } from '../engine/config/atomic-file.ts';
import { readHomeFileSync } from '../shim/home-file.mjs';

/** Started at login, the app stays in the tray (no window). */
export const LOGIN_ARGS = ['--hidden'];

/** The part of Electron's `app` (and the process) this module reads. */
export interface LoginItemHost {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  execPath: string;
  env: NodeJS.ProcessEnv;
  homedir: string;
  getLoginItemSettings(opts: { args: string[] }): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args: string[] }): void;
}

export type LoginItemChange = 'unchanged' | 'enabled' | 'disabled' | 'not-installed';

/** The XDG autostart entry's path (`$XDG_CONFIG_HOME/autostart`, else `~/.config/autostart`). */
export function autostartFile(host: Pick<LoginItemHost, 'env' | 'homedir'>): string {
  const base = host.env.XDG_CONFIG_HOME && path.isAbsolute(host.env.XDG_CONFIG_HOME) ? host.env.XDG_CONFIG_HOME : path.join(host.homedir, '.config');
  return path.join(base, 'autostart', 'switchboard.desktop');
}

/** The program to start: an AppImage is started by its own file, not the mount it runs from. */
function launcher(host: Pick<LoginItemHost, 'env' | 'execPath'>): string {
  return host.env.APPIMAGE && path.isAbsolute(host.env.APPIMAGE) ? host.env.APPIMAGE : host.execPath;
}

/**
 * Control characters (C0, DEL, C1): the Desktop Entry spec's string values may not hold them,
 * and a line break would end the Exec line, letting the rest of the value add keys of its own
 * (a second `Exec=`, which launchers run).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * One quoted Exec argument (Desktop Entry spec, "The Exec key"): inside double quotes `"`, `` ` ``,
 * `$` and `\` take a backslash; then the string escape rule doubles every backslash (a literal
 * `\` is written `\\\\`, a literal `$` is `\\$`); and a literal `%` is `%%` (field codes).
 */
function execArgument(value: string): string {
  const quoted = value.replace(/([\\"`$])/g, '\\$1').replace(/\\/g, '\\\\');
  return `"${quoted.replace(/%/g, '%%')}"`;
}

/** The autostart entry for `program`; refuses a program whose path no entry can hold safely. */
export function autostartEntry(program: string): string {
  if (CONTROL.test(program)) {
    throw new SwitchboardError(
      'bad-path',
      `Switchboard cannot start at login from ${JSON.stringify(program)}: the path holds a line break or another control character, which an autostart entry cannot hold. Rename the app file (or move it to a folder without one), then turn "Start Switchboard when I log in" on again.`,
    );
  }
  // The program is the only value that comes from outside; the others are fixed text.
  const fields: [string, string][] = [
    ['Type', 'Application'],
    ['Name', 'Switchboard'],
    ['Comment', 'Starts Switchboard in the tray when you log in'],
    ['Exec', `${execArgument(program)} ${LOGIN_ARGS.join(' ')}`],
    ['Terminal', 'false'],
    ['X-GNOME-Autostart-enabled', 'true'],
  ];
  return ['[Desktop Entry]', ...fields.map(([k, v]) => `${k}=${v}`), ''].join('\n');
}

/** Makes the OS start the app at login exactly when `wanted` says so. */
export function syncLoginItem(host: LoginItemHost, wanted: boolean): LoginItemChange {
  if (!host.isPackaged) return 'not-installed';
  if (host.platform === 'linux') {
    const file = autostartFile(host);
    // Read as the person's own file (links followed), never waiting on a pipe; what is not a
    // regular file is no entry of ours, and is replaced or removed as one would be.
    const current = existsSync(file) ? readOwn(file) : undefined;
    if (wanted) {
      // Made only when wanted: turning the setting off must work whatever the app's path holds.
      let entry: string;
      try {
        entry = autostartEntry(launcher(host));
      } catch (err) {
        // Refused: an entry left from before (it may be one such a path broke) must not start anything.
        if (current !== undefined) unlinkSync(file);
        throw err;
      }
      if (current === entry) return 'unchanged';
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileAtomicSync(file, entry, { mode: 0o644 });
      return 'enabled';
    }
    if (current === undefined) return 'unchanged';
    unlinkSync(file);
    return 'disabled';
  }
  // No path or command line of ours reaches the OS here: macOS records the app bundle, and
  // Electron writes the Windows Run value as the quoted execPath (a Windows file name cannot hold
  // `"` or a control character) followed by LOGIN_ARGS, which are fixed.
  const now = host.getLoginItemSettings({ args: LOGIN_ARGS }).openAtLogin;
  if (now === wanted) return 'unchanged';
  host.setLoginItemSettings({ openAtLogin: wanted, args: LOGIN_ARGS });
  return wanted ? 'enabled' : 'disabled';
}

/** The text of the person's file, or '' when it cannot be read as one (a pipe, a folder): then it is replaced. */
function readOwn(file: string): string {
  try {
    return readHomeFileSync(file, OWN_FILE_READ).toString('utf8');
  } catch {
    return '';
  }
}

