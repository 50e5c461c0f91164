// The catalog's path rules (src-shared/client-catalog.ts) made into paths for one environment and
// platform. Paths come from the passed env and platform only, so tests (and `--home`-style
// overrides) can point them anywhere; the disk is looked at only where a rule asks (ifExists).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BaseFolder, PathRule } from '../../../src-shared/client-catalog.ts';

export interface ClientEnv {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

/** The path module of the client's platform (Windows paths are built on any OS, for tests and display). */
export function pathsFor(e: ClientEnv): path.PlatformPath {
  return e.platform === 'win32' ? path.win32 : path.posix;
}

export function userHome(e: ClientEnv): string {
  const h = e.platform === 'win32' ? e.env.USERPROFILE || e.env.HOME : e.env.HOME;
  return h || os.homedir();
}

export function localAppData(e: ClientEnv): string {
  return e.env.LOCALAPPDATA || pathsFor(e).join(userHome(e), 'AppData', 'Local');
}

function baseFolder(base: BaseFolder, e: ClientEnv): string {
  const p = pathsFor(e);
  switch (base) {
    case 'home':
      return userHome(e);
    case 'appData':
      return e.env.APPDATA || p.join(userHome(e), 'AppData', 'Roaming');
    case 'localAppData':
      return localAppData(e);
    case 'xdgConfig':
      return e.env.XDG_CONFIG_HOME || p.join(userHome(e), '.config');
    case 'appSettings':
      if (e.platform === 'darwin') return p.join(userHome(e), 'Library', 'Application Support');
      return baseFolder(e.platform === 'win32' ? 'appData' : 'xdgConfig', e);
  }
}

/** The path `rule` names in this environment. */
export function resolvePath(rule: PathRule, e: ClientEnv): string {
  const p = pathsFor(e);
  if ('in' in rule) return p.join(typeof rule.in === 'string' ? baseFolder(rule.in, e) : resolvePath(rule.in, e), ...(rule.path ?? []));
  if ('env' in rule) {
    const value = e.env[rule.env];
    if (!value || (rule.absoluteOnly && !p.isAbsolute(value))) return resolvePath(rule.else, e);
    // As given: shown to the user and checked on disk as the variable says it.
    return rule.path?.length ? p.join(value, ...rule.path) : value;
  }
  if ('win32' in rule) return resolvePath(e.platform === 'win32' ? rule.win32 : rule.else, e);
  const probe = resolvePath(rule.ifExists, e);
  return existsSync(probe) ? (rule.then ? resolvePath(rule.then, e) : probe) : resolvePath(rule.else, e);
}

/**
 * The folder of the path `rule` names: the rule's own folder when it names one (an environment
 * variable's value stays as given), else the resolved path's parent.
 */
export function folderOf(rule: PathRule, e: ClientEnv): string {
  if ('in' in rule && typeof rule.in !== 'string' && (rule.path ?? []).length === 1) return resolvePath(rule.in, e);
  return pathsFor(e).dirname(resolvePath(rule, e));
}

/** The per-user settings folder of an Electron app (Claude, Code) on each OS. */
export function electronAppDir(e: ClientEnv, name: string): string {
  return resolvePath({ in: 'appSettings', path: [name] }, e);
}

/** macOS app bundles and Windows per-user/per-machine install folders of a desktop app. */
export function appFolders(e: ClientEnv, mac: string, win: string[]): string[] {
  const p = pathsFor(e);
  if (e.platform === 'darwin') return [`/Applications/${mac}.app`, p.join(userHome(e), 'Applications', `${mac}.app`)];
  if (e.platform === 'win32') {
    return win.flatMap((w) => [p.join(localAppData(e), 'Programs', w), ...(e.env.ProgramFiles ? [p.join(e.env.ProgramFiles, w)] : [])]);
  }
  return [];
}
