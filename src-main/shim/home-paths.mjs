// @ts-check
// Where a home is, and the socket (or named pipe) its engine listens on: one implementation for
// the engine (src-main/engine/platform/home.ts) and the Node shim, which cannot load TypeScript without
// paying tsx's start-up. The native shim follows the same rules (native/shim/src/paths.rs);
// src-shared/shim-rules.json holds the cases all of them are tested against.
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

export const APP_DIR_NAME = 'Switchboard';

/** Unix socket paths are limited to ~104 bytes (macOS) / 108 (Linux); stay well under, in bytes. */
export const MAX_SOCKET_PATH_BYTES = 100;
/** $XDG_RUNTIME_DIR holds the short socket folder only when at most this long, in bytes. */
export const MAX_RUNTIME_DIR_BYTES = 59;

/** Paths as `platform` writes them (the host's own module on the host's platform). @param {NodeJS.Platform} platform */
const pathsOf = (platform) => (platform === 'win32' ? path.win32 : path.posix);

/**
 * `--home`, else $SWITCHBOARD_HOME, else the OS app-data folder; made absolute against `cwd`
 * (the working folder unless given).
 * @param {string | undefined} flag @param {NodeJS.ProcessEnv} [env] @param {NodeJS.Platform} [platform] @param {string} [cwd]
 */
export function resolveHome(flag, env = process.env, platform = process.platform, cwd) {
  const p = pathsOf(platform);
  const resolve = (/** @type {string} */ dir) => (cwd === undefined ? p.resolve(dir) : p.resolve(cwd, dir));
  if (flag) return resolve(flag);
  if (env.SWITCHBOARD_HOME) return resolve(env.SWITCHBOARD_HOME);
  return defaultHome(env, platform);
}

/** The OS app-data folder's Switchboard. @param {NodeJS.ProcessEnv} [env] @param {NodeJS.Platform} [platform] */
export function defaultHome(env = process.env, platform = process.platform) {
  const p = pathsOf(platform);
  const userHome = env.HOME || env.USERPROFILE || os.homedir();
  if (platform === 'darwin') return p.join(userHome, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return p.join(env.APPDATA || p.join(userHome, 'AppData', 'Roaming'), APP_DIR_NAME);
  return p.join(env.XDG_CONFIG_HOME || p.join(userHome, '.config'), APP_DIR_NAME);
}

/**
 * The engine's socket for a home: <home>/run/engine.sock, or a short folder's when that is too
 * long for a Unix socket; on Windows a named pipe per home, whatever the case of its path.
 * @param {string} home @param {NodeJS.Platform} [platform] @param {NodeJS.ProcessEnv} [env] @param {number} [uid]
 */
export function socketPath(home, platform = process.platform, env = process.env, uid = currentUid()) {
  if (platform === 'win32') {
    const h = createHash('sha256').update(home.toLowerCase()).digest('hex').slice(0, 16);
    return `\\\\.\\pipe\\switchboard-${h}`;
  }
  const socket = path.posix.join(home, 'run', 'engine.sock');
  if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES) return socket;
  return path.posix.join(shortRunDir(home, env, uid), 'engine.sock');
}

/**
 * A short owner-only folder for the socket when the home's path is too long for one.
 * @param {string} home @param {NodeJS.ProcessEnv} [env] @param {number} [uid]
 */
export function shortRunDir(home, env = process.env, uid = currentUid()) {
  const h = createHash('sha256').update(home).digest('hex').slice(0, 12);
  const rt = env.XDG_RUNTIME_DIR;
  const base = rt && Buffer.byteLength(rt) <= MAX_RUNTIME_DIR_BYTES ? rt : posixTmpdir(env);
  return path.posix.join(base, `switchboard-${uid}-${h}`);
}

function currentUid() {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

/** os.tmpdir() on POSIX, from `env`. @param {NodeJS.ProcessEnv} env */
function posixTmpdir(env) {
  const t = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return t.length > 1 && t.endsWith('/') ? t.slice(0, -1) : t;
}
