// @ts-check
// How the shim starts an engine when none answers on the socket. Three cases:
//  - SWITCHBOARD_ENGINE_COMMAND (a JSON array: command then args) overrides everything; `--home H`
//    is appended. For tests and for setups that run the engine some other way.
//  - The packaged shim (a Node single-executable application in the app's resources/bin/) cannot
//    run bin/switchboard.mjs, so it starts the desktop app hidden; the app runs the engine.
//  - A checkout: this node runs bin/switchboard.mjs engine.
import { closeSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHomeText } from './home-file.mjs';

export const ENGINE_COMMAND_ENV = 'SWITCHBOARD_ENGINE_COMMAND';

/**
 * V8 flags for the node that runs the engine, wherever it is started (this shim, the native
 * shim's checkout build, `switchboard` commands that start one, the desktop app). They apply to
 * the engine's sandbox workers too (V8 flags are per process). Measured on the first-run home
 * (bench "memory"):
 *  - `--max-semi-space-size=2`: V8 grows a busy isolate's young generation to two 16 MB
 *    semi-spaces and never gives them back while the engine stays busy (+16 MB over 2,000 code
 *    runs); two 2 MB semi-spaces keep it at 4 MB, and the engine's per-call garbage is
 *    short-lived, so scavenges stay cheap. (It only works at start: v8.setFlagsFromString later
 *    changes nothing.)
 *  - `--optimize-for-size`: V8 raises an isolate's old-generation limit by at least 8 MB over its
 *    live size at every mark-compact, and the heap fills up to that limit with garbage promoted
 *    between collections: over the first ~1,500 code runs the engine's heap grew from ~25 to
 *    ~37 MB and the sandbox worker's from ~6 to ~17 MB while their live data stayed ~19 and
 *    ~4.5 MB. In V8's memory-saving mode the step is 2 MB (and the growing factor at most 1.3).
 */
export const ENGINE_NODE_FLAGS = Object.freeze(['--max-semi-space-size=2', '--optimize-for-size']);

/**
 * glibc malloc settings for the engine's process (Linux; other C libraries ignore the variable).
 * Measured in an idle engine on the first-run home (gdb, malloc_stats): 22 MB of malloc memory
 * held, 4.7 MB of it in use. Each thread that allocates (V8's GC and compiler threads, the
 * sandbox workers) gets an arena of its own and keeps what it freed: two arenas. And V8's
 * parser and compilers allocate their working memory in 32 KB segments (peak ~33 MB while the
 * engine loads its modules), freed when a compile ends but scattered through the arenas, where
 * freed memory between blocks still in use is never given back: with a mmap threshold of
 * 32 KB each such segment is a mapping of its own, unmapped when freed (right after 1,000 code
 * runs: 84–89 against 95–99 MB, for ~3 more mmap/munmap calls a run; docs/measurements.md,
 * "Hot path"). A fixed threshold also keeps glibc's trim threshold at its 128 KB default. A
 * GLIBC_TUNABLES of the user's own comes after ours, so its settings win.
 */
export const ENGINE_MALLOC_TUNABLES = 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=32768';

/**
 * The environment to start an engine with: `env` plus the malloc settings on Linux.
 * @param {NodeJS.ProcessEnv} [env] @param {NodeJS.Platform} [platform]
 * @returns {NodeJS.ProcessEnv}
 */
export function engineEnv(env = process.env, platform = process.platform) {
  if (platform !== 'linux') return env;
  const own = env.GLIBC_TUNABLES;
  return { ...env, GLIBC_TUNABLES: own ? `${ENGINE_MALLOC_TUNABLES}:${own}` : ENGINE_MALLOC_TUNABLES };
}

/** @typedef {{ command: string, args: string[] }} EngineCommand */

/** True inside the single-executable shim. node:sea exists from Node 20.12 and
 * getBuiltinModule from 20.16; older Node never runs as our SEA, so false is right there. */
export function runningAsSea() {
  try {
    const sea = /** @type {{ isSea?: () => boolean } | undefined} */ (process.getBuiltinModule?.('node:sea'));
    return sea?.isSea?.() === true;
  } catch {
    return false;
  }
}

/**
 * The desktop app's executable, found from the shim binary's place inside the installed app
 * (electron-builder's extraResources put it at <resources>/bin/switchboard[.exe]).
 * @param {string} shimPath @param {NodeJS.Platform} platform
 */
export function appExecutableForShim(shimPath, platform = process.platform) {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const resources = p.dirname(p.dirname(shimPath));
  // macOS: Switchboard.app/Contents/Resources → Switchboard.app/Contents/MacOS/Switchboard.
  if (platform === 'darwin') return p.join(p.dirname(resources), 'MacOS', 'Switchboard');
  if (platform === 'win32') return p.join(p.dirname(resources), 'Switchboard.exe');
  // Linux: electron-builder.yml sets executableName: switchboard-desktop.
  return p.join(p.dirname(resources), 'switchboard-desktop');
}

/** @param {string} raw @returns {string[]} */
function parseCommandEnv(raw) {
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) {
    throw new Error(`${ENGINE_COMMAND_ENV} must be a JSON array of strings, the command first (for example ["/usr/bin/node","/opt/switchboard/bin/switchboard.mjs","engine"]); it is ${raw}`);
  }
  return value;
}

/**
 * @param {string} home
 * @param {{ env?: NodeJS.ProcessEnv, isSea?: boolean, execPath?: string, platform?: NodeJS.Platform }} [opts]
 * @returns {EngineCommand}
 */
export function engineCommand(home, opts = {}) {
  const env = opts.env ?? process.env;
  const execPath = opts.execPath ?? process.execPath;
  const raw = env[ENGINE_COMMAND_ENV];
  if (raw) {
    const [command, ...args] = parseCommandEnv(raw);
    return { command: /** @type {string} */ (command), args: [...args, '--home', home] };
  }
  if (opts.isSea ?? runningAsSea()) {
    return { command: appExecutableForShim(execPath, opts.platform), args: ['--hidden', '--home', home] };
  }
  // Resolved here, not at load: the SEA bundle is CommonJS and has no import.meta.url.
  const bin = fileURLToPath(new URL('../../bin/switchboard.mjs', import.meta.url));
  return { command: execPath, args: [...ENGINE_NODE_FLAGS, bin, 'engine', '--home', home] };
}

/**
 * A claim on starting a home's engine: whoever creates `<home>/run/engine-start.claim` (O_EXCL)
 * starts the engine, and every other starter (a shim, the native shim, a command) waits for the
 * socket instead, so starters that find no engine at the same moment spawn one engine, not one
 * each. The file holds the claimant's pid; it is released when the claimant reaches the engine
 * or its engine exits, and broken when its pid is gone or it is older than START_CLAIM_STALE_MS (or dated further ahead)
 * (a claimant killed mid-start; an engine start takes a second or two). The native shim
 * (native/shim/src/start_claim.rs) follows the same file and rules (src-shared/shim-rules.json).
 */
export const START_CLAIM_FILE = 'engine-start.claim';
export const START_CLAIM_STALE_MS = 15_000;

/**
 * Claims the start of the home's engine; its release, or undefined when another live starter
 * holds the claim (then wait for the socket). A home that cannot be written to is claimed
 * (the engine reports the problem itself).
 * @param {string} home @returns {(() => void) | undefined}
 */
export function claimEngineStart(home) {
  const runDir = path.join(home, 'run');
  const file = path.join(runDir, START_CLAIM_FILE);
  const mine = `${process.pid}\n`;
  const release = () => {
    try {
      if (readHomeText(file) === mine) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  for (let round = 0; round < 2; round++) {
    try {
      mkdirSync(runDir, { recursive: true, mode: 0o700 });
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      return release;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') return () => {};
    }
    if (!claimIsStale(file)) return undefined;
    try {
      unlinkSync(file);
    } catch {
      // Broken by another starter meanwhile: the next round decides.
    }
  }
  return undefined;
}

/** @param {string} file */
function claimIsStale(file) {
  let mtimeMs = 0;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return true;
  }
  // Anything but our own small regular file (a pipe planted there would block the read) is no claim.
  const text = readHomeText(file);
  if (text === undefined) return true;
  // Judged by distance, not sign: a claim dated ahead (a clock set back, a copied or touched file)
  // would otherwise never grow old, and its live pid may be a reused one of another program.
  if (Math.abs(Date.now() - mtimeMs) > START_CLAIM_STALE_MS) return true;
  const pid = Number.parseInt(text, 10);
  // Empty: its claimant is writing its pid this instant.
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code !== 'EPERM';
  }
}
