// @ts-check
// Smoke test of a packaged desktop app, run by .github/workflows/release.yml after
// electron-builder on each platform (under xvfb-run on Linux):
//
//   node scripts/smoke-packaged.mjs [--dist DIR] [--platform P] [--arch A] [--app EXE] [--profile P] [--timeout S] [--skip-window]
//
// It finds the unpacked app electron-builder left in DIR (default release/), starts it hidden on
// a new, empty home, waits until `switchboard status --json` (this checkout's CLI, over the
// engine's socket) shows the app's engine, then runs the app's own shim (resources/bin/switchboard)
// for a profile of the first-run config and sends it initialize and tools/list, as an MCP client
// would. Any step that does not happen in time fails with a sentence saying which, and the
// app's last output. Last, it starts the app a second time without --hidden, as a person opening
// it would: the running one must show its window (it prints WINDOW_SHOWN once the page loaded).
// The app and its engine are stopped and the home removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'switchboard.mjs');
/** electron-builder's names for the OS, as in release/shim/<os>-<arch>/ and its output folders. */
const BUILDER_OS = /** @type {Record<string, 'mac' | 'win' | 'linux'>} */ ({ darwin: 'mac', win32: 'win', linux: 'linux' });
const PROTOCOL = '2025-11-25';
/** What the app's main process prints once its window has loaded and shows (src-main/electron/main.ts). */
export const WINDOW_SHOWN = 'switchboard: window shown';

export class SmokeError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'SmokeError';
  }
}

export const USAGE =
  'usage: node scripts/smoke-packaged.mjs [--dist DIR] [--platform darwin|win32|linux] [--arch x64|arm64] [--app EXE] [--profile NAME] [--timeout SECONDS]';

/**
 * @typedef {{ dist: string, platform: NodeJS.Platform, arch: string, app?: string, profile?: string, timeoutMs: number, skipWindow?: boolean }} SmokeOptions
 * @param {string[]} argv
 * @returns {SmokeOptions}
 */
export function parseSmokeArgs(argv, defaults = { platform: process.platform, arch: process.arch }) {
  /** @type {SmokeOptions} */
  const o = { dist: path.join(ROOT, 'release'), platform: defaults.platform, arch: defaults.arch, timeoutMs: 90_000 };
  for (let i = 0; i < argv.length; i++) {
    const a = /** @type {string} */ (argv[i]);
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new SmokeError(`${a} needs a value.\n${USAGE}`);
      return v;
    };
    if (a === '--dist') o.dist = path.resolve(value());
    else if (a === '--platform') {
      const p = value();
      if (!BUILDER_OS[p]) throw new SmokeError(`--platform must be darwin, win32 or linux, not ${p}.\n${USAGE}`);
      o.platform = /** @type {NodeJS.Platform} */ (p);
    } else if (a === '--arch') {
      const v = value();
      if (v !== 'x64' && v !== 'arm64') throw new SmokeError(`--arch must be x64 or arm64, not ${v}.\n${USAGE}`);
      o.arch = v;
    } else if (a === '--app') o.app = path.resolve(value());
    else if (a === '--profile') o.profile = value();
    else if (a === '--timeout') {
      const s = Number(value());
      if (!Number.isFinite(s) || s <= 0) throw new SmokeError(`--timeout takes a number of seconds.\n${USAGE}`);
      o.timeoutMs = s * 1000;
    } else if (a === '--skip-window') o.skipWindow = true;
    else throw new SmokeError(`Unknown argument ${a}.\n${USAGE}`);
  }
  return o;
}

/**
 * The unpacked app electron-builder wrote (its --dir output, which the installers are made of)
 * and the shim inside it, by electron-builder's folder names: mac/ (x64) or mac-arm64/,
 * win-unpacked/ or win-arm64-unpacked/, linux-unpacked/ or linux-arm64-unpacked/.
 * @param {Pick<SmokeOptions, 'dist' | 'platform' | 'arch' | 'app'>} o
 * @returns {{ app: string, shim: string }}
 */
export function findPackagedApp(o) {
  const os_ = BUILDER_OS[o.platform];
  if (!os_) throw new SmokeError(`No packaged app for ${o.platform}.`);
  const arm = o.arch === 'arm64';
  // The host's path rules: the smoke test runs on the platform it checks (--platform is for tests).
  const p = path;
  /** @type {string} */
  let app;
  /** @type {string} */
  let resources;
  if (o.app) {
    app = o.app;
    resources = o.platform === 'darwin' ? p.join(p.dirname(p.dirname(app)), 'Resources') : p.join(p.dirname(app), 'resources');
  } else if (os_ === 'mac') {
    const bundle = p.join(o.dist, arm ? 'mac-arm64' : 'mac', 'Switchboard.app');
    app = p.join(bundle, 'Contents', 'MacOS', 'Switchboard');
    resources = p.join(bundle, 'Contents', 'Resources');
  } else if (os_ === 'win') {
    const dir = p.join(o.dist, arm ? 'win-arm64-unpacked' : 'win-unpacked');
    app = p.join(dir, 'Switchboard.exe');
    resources = p.join(dir, 'resources');
  } else {
    // electron-builder.yml: linux.executableName.
    const dir = p.join(o.dist, arm ? 'linux-arm64-unpacked' : 'linux-unpacked');
    app = p.join(dir, 'switchboard-desktop');
    resources = p.join(dir, 'resources');
  }
  const shim = p.join(resources, 'bin', o.platform === 'win32' ? 'switchboard.exe' : 'switchboard');
  if (!existsSync(app)) throw new SmokeError(`No packaged app at ${app}. Run electron-builder for ${os_} ${o.arch} first (it writes ${p.dirname(app)}).`);
  if (!existsSync(shim)) throw new SmokeError(`The packaged app has no shim at ${shim}: release/shim/${os_}-${o.arch}/ was empty when electron-builder ran (see electron-builder.yml, "The shim").`);
  return { app, shim };
}

/**
 * The app's arguments: hidden in the tray, on the given home. On Linux, Chromium's sandbox needs
 * a setuid helper or user namespaces, which CI runners (Ubuntu 24.04's AppArmor) do not allow
 * an unpacked app; the smoke test checks the app's own work, not the OS sandbox.
 * @param {string} home @param {NodeJS.Platform} platform
 */
export function appArgs(home, platform) {
  return ['--hidden', '--home', home, ...(platform === 'linux' ? ['--no-sandbox'] : [])];
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `switchboard status --json` for the home, parsed; undefined while it cannot answer.
 * @param {string[]} statusCommand @param {string} home
 */
export function readStatus(statusCommand, home) {
  const [cmd, ...args] = statusCommand;
  const r = spawnSync(/** @type {string} */ (cmd), [...args, 'status', '--json', '--home', home], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return undefined;
  try {
    return /** @type {{ pid: number | null, profiles: Record<string, unknown>, version?: string }} */ (JSON.parse(r.stdout));
  } catch {
    return undefined;
  }
}

/**
 * Waits until status shows a running engine (a pid) with at least one profile; gives up at the
 * timeout, or at once when `gone()` says the app has exited.
 * @param {() => ReturnType<typeof readStatus>} read @param {number} timeoutMs
 * @param {{ why?: () => string, gone?: () => boolean }} [o]
 */
export async function waitForEngine(read, timeoutMs, o = {}) {
  const t0 = Date.now();
  let last;
  for (;;) {
    last = read();
    if (last && typeof last.pid === 'number' && Object.keys(last.profiles ?? {}).length) return last;
    const gone = o.gone?.() ?? false;
    if (gone || Date.now() - t0 > timeoutMs) {
      const said = last ? `says pid ${last.pid} and ${Object.keys(last.profiles ?? {}).length} profiles` : 'did not answer';
      const when = gone ? '' : ` within ${Math.round(timeoutMs / 1000)} s`;
      throw new SmokeError(`The engine did not come up${when}: \`switchboard status --json\` ${said}.${o.why?.() ?? ''}`);
    }
    await sleep(500);
  }
}

/**
 * An MCP client's first exchange through a shim: initialize, initialized, tools/list. Returns
 * the tool names; fails with a sentence when the shim exits, answers with an error or is silent.
 * @param {string} command @param {string[]} args @param {number} timeoutMs
 * @returns {Promise<{ server: { name: string, version: string }, tools: string[] }>}
 */
export function mcpToolsList(command, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let buf = '';
    /** @type {{ name: string, version: string } | undefined} */
    let server;
    let done = false;
    /** @param {Error | null} err @param {any} [value] */
    const finish = (err, value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.stdin.end();
      child.kill();
      if (err) reject(err);
      else resolve(value);
    };
    const tail = () => (stderr.trim() ? `\nThe shim said: ${stderr.trim().split('\n').slice(-10).join('\n')}` : '');
    const timer = setTimeout(() => finish(new SmokeError(`The shim did not answer ${server ? 'tools/list' : 'initialize'} within ${Math.round(timeoutMs / 1000)} s.${tail()}`)), timeoutMs);
    const send = (/** @type {unknown} */ msg) => child.stdin.write(JSON.stringify(msg) + '\n');
    child.on('error', (err) => finish(new SmokeError(`The shim could not start: ${err.message}`)));
    child.on('exit', (code) => finish(new SmokeError(`The shim exited (code ${code}) before answering ${server ? 'tools/list' : 'initialize'}.${tail()}`)));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        let msg;
        try {
          msg = JSON.parse(line);
        } catch {
          finish(new SmokeError(`The shim wrote something that is not JSON-RPC on stdout: ${line.slice(0, 200)}`));
          return;
        }
        if (msg.error && (msg.id === 1 || msg.id === 2)) {
          finish(new SmokeError(`The shim answered ${msg.id === 1 ? 'initialize' : 'tools/list'} with an error: ${msg.error.message}`));
        } else if (msg.id === 1) {
          server = msg.result?.serverInfo;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
        } else if (msg.id === 2) {
          const tools = Array.isArray(msg.result?.tools) ? msg.result.tools.map((/** @type {{ name: string }} */ t) => t.name) : null;
          if (!tools) finish(new SmokeError('The shim answered tools/list without a tools array.'));
          else if (!tools.length) finish(new SmokeError('The shim listed no tools: the profile\'s servers did not start.'));
          else finish(null, { server, tools });
        }
      }
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'smoke-packaged', version: '1.0.0' } } });
  });
}

/**
 * The whole smoke test with its commands given: `app` started with appArgs, `statusCommand` (the
 * CLI, without its arguments) asked for the engine, `shim` for the exchange.
 * `skipWindow`: leave out the window check (for an app whose main's output does not reach this
 * script; the engine and the shim are still checked).
 * @param {{ app: string, platform: NodeJS.Platform, shim: string, statusCommand?: string[], profile?: string, timeoutMs: number, skipWindow?: boolean, log?: (line: string) => void }} o
 */
export async function smoke(o) {
  const log = o.log ?? ((line) => process.stdout.write(`smoke: ${line}\n`));
  const statusCommand = o.statusCommand ?? [process.execPath, BIN];
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-smoke-'));
  let output = '';
  const app = spawn(o.app, appArgs(home, o.platform), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SWITCHBOARD_HOME: home } });
  let exited = /** @type {string | null} */ (null);
  app.on('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `code ${code}`));
  app.on('error', (err) => (exited = err.message));
  let windowShown = false;
  for (const s of [app.stdout, app.stderr]) {
    s.setEncoding('utf8').on('data', (d) => {
      output += d;
      if (output.includes(WINDOW_SHOWN)) windowShown = true;
      output = output.slice(-8000);
    });
  }
  const appTail = () =>
    (exited ? ` The app exited (${exited}).` : ' The app is still running.') + (output.trim() ? `\nIts last output:\n${output.trim().split('\n').slice(-20).join('\n')}` : ' It wrote nothing.');
  try {
    log(`started ${o.app} on the home ${home}`);
    const status = await waitForEngine(() => readStatus(statusCommand, home), o.timeoutMs, { why: appTail, gone: () => exited !== null });
    log(`engine running (pid ${status.pid}${status.version ? `, version ${status.version}` : ''}); profiles: ${Object.keys(status.profiles).join(', ')}`);
    const profile = o.profile ?? (status.profiles.demo ? 'demo' : Object.keys(status.profiles)[0]);
    if (!profile || !status.profiles[profile]) throw new SmokeError(`No profile ${o.profile ?? ''} in the engine's status (it has ${Object.keys(status.profiles).join(', ') || 'none'}).`);
    const r = await mcpToolsList(o.shim, ['shim', '--profile', profile, '--home', home], o.timeoutMs);
    log(`${o.shim} → ${r.server?.name ?? 'engine'}: ${r.tools.length} tools on ${profile} (${r.tools.slice(0, 5).join(', ')}${r.tools.length > 5 ? ', …' : ''})`);
    if (o.skipWindow) return { home, status, profile, tools: r.tools };
    // Opened again by a person: the second instance hands over to the running app and exits.
    const again = spawn(o.app, appArgs(home, o.platform).filter((a) => a !== '--hidden'), { stdio: 'ignore', env: { ...process.env, SWITCHBOARD_HOME: home } });
    again.on('error', () => undefined);
    const t0 = Date.now();
    while (!windowShown) {
      if (exited || Date.now() - t0 > o.timeoutMs) throw new SmokeError(`The window did not show within ${Math.round(o.timeoutMs / 1000)} s of opening the app again (no "${WINDOW_SHOWN}" from it).${appTail()}`);
      await sleep(250);
    }
    log('the window shows');
    return { home, status, profile, tools: r.tools };
  } finally {
    await stop(app, statusCommand, home);
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/**
 * Stops the app, then whatever engine still serves the home (a packaged app's engine ends with
 * it; a stand-in's may not).
 * @param {import('node:child_process').ChildProcess} app @param {string[]} statusCommand @param {string} home
 */
async function stop(app, statusCommand, home) {
  if (app.exitCode === null && app.signalCode === null) {
    if (process.platform === 'win32' && app.pid) spawnSync('taskkill', ['/pid', String(app.pid), '/T', '/F'], { stdio: 'ignore' });
    else app.kill();
    for (let i = 0; i < 50 && app.exitCode === null && app.signalCode === null; i++) await sleep(100);
  }
  for (let i = 0; i < 30; i++) {
    const s = readStatus(statusCommand, home);
    if (!s || typeof s.pid !== 'number') return;
    if (i === 10) {
      try {
        process.kill(s.pid);
      } catch {
        // Gone meanwhile.
      }
    }
    await sleep(200);
  }
}

async function main() {
  try {
    const o = parseSmokeArgs(process.argv.slice(2));
    const found = findPackagedApp(o);
    await smoke({ app: found.app, shim: found.shim, platform: o.platform, timeoutMs: o.timeoutMs, skipWindow: o.skipWindow === true, ...(o.profile ? { profile: o.profile } : {}) });
    process.stdout.write('smoke: the packaged app works: its engine came up and its shim listed tools.\n');
  } catch (err) {
    process.stderr.write(`smoke: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
