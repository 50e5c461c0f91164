// The environment an upstream server process starts with (docs/command-line.md): its configured `env` over a
// minimal allow-list of the engine's own. Nothing else leaks through: NODE_OPTIONS or
// LD_PRELOAD would change how the child runs, ELECTRON_* would make it behave like our app.
import { pathKey } from '../platform/path-search.ts';

/** Engine variables a child inherits. Windows names are matched case-insensitively. */
const ALLOWED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'TMPDIR',
  'TZ',
  // Windows: without these many programs (and node itself) cannot start or find their folders.
  'SystemRoot',
  'SystemDrive',
  'windir',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'USERNAME',
  'USERDOMAIN',
  'TEMP',
  'TMP',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'ProgramData',
  'CommonProgramFiles',
  'CommonProgramFiles(x86)',
  'CommonProgramW6432',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
] as const;

const ALLOWED_UPPER = new Set(ALLOWED.map((n) => n.toUpperCase()));

export function isAllowedEngineVar(name: string, platform: NodeJS.Platform = process.platform): boolean {
  if (name.startsWith('LC_')) return true;
  return platform === 'win32' ? ALLOWED_UPPER.has(name.toUpperCase()) : (ALLOWED as readonly string[]).includes(name);
}

export interface ChildEnvOptions {
  /** The server's configured env, secrets already resolved. Wins over everything. */
  configured?: Record<string, string>;
  /** The engine's environment. Defaults to process.env. */
  parentEnv?: NodeJS.ProcessEnv;
  /** PATH to give the child when the config does not set one (e.g. the login shell's). */
  path?: string;
  /** The resolved executable; decides whether ELECTRON_RUN_AS_NODE is needed. */
  command?: string;
  platform?: NodeJS.Platform;
}

export function buildChildEnv(opts: ChildEnvOptions = {}): Record<string, string> {
  const parent = opts.parentEnv ?? process.env;
  const platform = opts.platform ?? process.platform;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) {
    if (v !== undefined && isAllowedEngineVar(k, platform)) env[k] = v;
  }
  if (opts.path) env[pathKey(env, platform)] = opts.path;
  // Under Electron our execPath is the app binary; this makes it run scripts as plain Node,
  // which is how servers that ship with the app run without a separate Node install.
  if (opts.command && opts.command === process.execPath && process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  for (const [k, v] of Object.entries(opts.configured ?? {})) env[k] = v;
  return env;
}

/** Windows spells PATH as "Path": whatever key the environment already has (platform/path-search.ts). */
export { pathKey };
