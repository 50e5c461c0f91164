// "Start Switchboard when I log in" (Settings; config.json `settings.startAtLogin`, on unless
// false). macOS and Windows keep login items themselves (app.setLoginItemSettings); Linux has no
// such API in Electron, so the app writes or removes an XDG autostart entry. Only the installed
// app registers itself: a development checkout must never start at login.
import { existsSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../engine/config/atomic-file.ts';

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

/** The autostart entry (Desktop Entry spec: a quoted Exec argument escapes `"`, `` ` ``, `$` and `\`). */
export function autostartEntry(program: string): string {
  const quoted = `"${program.replace(/([\\"`$])/g, '\\$1')}"`;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Switchboard',
    'Comment=Starts Switchboard in the tray when you log in',
    `Exec=${quoted} ${LOGIN_ARGS.join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Makes the OS start the app at login exactly when `wanted` says so. */
export function syncLoginItem(host: LoginItemHost, wanted: boolean): LoginItemChange {
  if (!host.isPackaged) return 'not-installed';
  if (host.platform === 'linux') {
    const file = autostartFile(host);
    const entry = autostartEntry(launcher(host));
    const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (wanted) {
      if (current === entry) return 'unchanged';
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileAtomicSync(file, entry, { mode: 0o644 });
      return 'enabled';
    }
    if (current === undefined) return 'unchanged';
    unlinkSync(file);
    return 'disabled';
  }
  const now = host.getLoginItemSettings({ args: LOGIN_ARGS }).openAtLogin;
  if (now === wanted) return 'unchanged';
  host.setLoginItemSettings({ openAtLogin: wanted, args: LOGIN_ARGS });
  return wanted ? 'enabled' : 'disabled';
}
