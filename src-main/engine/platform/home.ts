// Where a home's files live (SPEC §2). Everything that touches the home resolves paths here.
import { createHash } from 'node:crypto';
import { mkdirSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const APP_DIR_NAME = 'Switchboard';

/** `--home`, else $SWITCHBOARD_HOME, else the OS app-data folder. */
export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (flag) return path.resolve(flag);
  if (env.SWITCHBOARD_HOME) return path.resolve(env.SWITCHBOARD_HOME);
  return defaultHome(env, platform);
}

export function defaultHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const userHome = env.HOME || env.USERPROFILE || os.homedir();
  if (platform === 'darwin') return path.join(userHome, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return path.join(env.APPDATA || path.join(userHome, 'AppData', 'Roaming'), APP_DIR_NAME);
  return path.join(env.XDG_CONFIG_HOME || path.join(userHome, '.config'), APP_DIR_NAME);
}

/** Unix socket paths are limited to ~104 bytes (macOS) / 108 (Linux); stay well under. */
const MAX_SOCKET_PATH = 100;

export interface HomePaths {
  home: string;
  config: string;
  /** Owner-only folder for the socket and discovery file. */
  runDir: string;
  socket: string;
  /** Discovery file: pid, socket, http url (owner-only). */
  engineInfo: string;
  lock: string;
  token: string;
  logsDir: string;
  auditDir: string;
  runsDir: string;
  secretsFile: string;
  pinsFile: string;
  skillsFile: string;
  engineLog: string;
  quarantineDir: string;
  /** Results kept past maxResultChars (code mode's result handles), one folder per profile. */
  resultsDir: string;
  /** Shapes of recent tool results, for return types learned in code mode. */
  learnedTypesFile: string;
}

export function homePaths(home: string, platform: NodeJS.Platform = process.platform): HomePaths {
  const runDir = path.join(home, 'run');
  let socket: string;
  if (platform === 'win32') {
    const h = createHash('sha256').update(home.toLowerCase()).digest('hex').slice(0, 16);
    socket = `\\\\.\\pipe\\switchboard-${h}`;
  } else {
    socket = path.join(runDir, 'engine.sock');
    if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) socket = path.join(shortRunDir(home), 'engine.sock');
  }
  return {
    home,
    config: path.join(home, 'config.json'),
    runDir,
    socket,
    engineInfo: path.join(runDir, 'engine.json'),
    lock: path.join(runDir, 'engine.lock'),
    token: path.join(home, 'token'),
    logsDir: path.join(home, 'logs'),
    auditDir: path.join(home, 'audit'),
    runsDir: path.join(home, 'runs'),
    secretsFile: path.join(home, 'secrets.json'),
    pinsFile: path.join(home, 'pins.json'),
    skillsFile: path.join(home, 'skills.json'),
    engineLog: path.join(home, 'logs', 'engine.log'),
    quarantineDir: path.join(home, 'quarantine'),
    resultsDir: path.join(home, 'results'),
    learnedTypesFile: path.join(home, 'learned-types.json'),
  };
}

/** A short owner-only folder for the socket when the home's path is too long for one. */
export function shortRunDir(home: string): string {
  const h = createHash('sha256').update(home).digest('hex').slice(0, 12);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const base = process.env.XDG_RUNTIME_DIR && Buffer.byteLength(process.env.XDG_RUNTIME_DIR) < 60 ? process.env.XDG_RUNTIME_DIR : os.tmpdir();
  return path.join(base, `switchboard-${uid}-${h}`);
}

/** Creates a folder readable only by its owner (0700), tightening it if it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
}

export function ensureHome(p: HomePaths): void {
  mkdirSync(p.home, { recursive: true, mode: 0o700 });
  ensurePrivateDir(p.runDir);
  if (process.platform !== 'win32') ensurePrivateDir(path.dirname(p.socket));
  mkdirSync(p.logsDir, { recursive: true, mode: 0o700 });
}
