// A real `switchboard serve` on a temp home, and real Chromium pointed at it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ROOT, screenshotDir } from './screenshots.ts';

export { ROOT };
export const SHOTS = screenshotDir();

// The pages show server commands and their logs, and the screenshots are committed: they must
// say nothing about the machine they were made on (checkout folder, where Node is installed).
// So servers run through links in a neutral temp folder: NODE is this Node, FIXTURES the
// fixture servers, and node_modules the checkout's.
const NEUTRAL = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-app-'));
symlinkSync(process.execPath, path.join(NEUTRAL, 'node'));
symlinkSync(path.join(ROOT, 'tests/fixtures/servers'), path.join(NEUTRAL, 'servers'), 'dir');
symlinkSync(path.join(ROOT, 'node_modules'), path.join(NEUTRAL, 'node_modules'), 'dir');
process.on('exit', () => rmSync(NEUTRAL, { recursive: true, force: true }));
export const NODE = path.join(NEUTRAL, 'node');
export const FIXTURES = path.join(NEUTRAL, 'servers');
export const BASIC = path.join(FIXTURES, 'basic.mjs');
export const MEMORY = path.join(NEUTRAL, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

/**
 * Saves a full-page screenshot to SHOTS, after checking that nothing on the page (text or form
 * values) names this checkout or this Node: those would end up in committed images.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const shown = String(
    await page.evaluate(
      `document.body.innerText + '\\n' + [...document.querySelectorAll('input, textarea, select')].map((e) => e.value).join('\\n')`,
    ),
  );
  for (const leak of [ROOT, process.execPath]) {
    if (shown.includes(leak)) throw new Error(`screenshot ${name}: the page shows a path of this machine (${leak}):\n${shown}`);
  }
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Polls `fn` every 100 ms until it returns a value; throws naming `what` after `ms`. */
export async function until<T>(fn: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until a run of `profile` sees `fn` (e.g. `ann.delete_item`) as a function: its server is up. */
export async function untilCodeSees(s: Served, profile: string, fn: string): Promise<void> {
  await until(async () => {
    const r = (await s.api('exec', { profile, code: `async () => typeof ${fn}` })) as { text: string };
    return r.text.includes('"function"') ? true : undefined;
  }, `${fn} in the profile ${profile}`);
}

export interface Served {
  home: string;
  url: string;
  configFile: string;
  configBytes(): string;
  api(method: string, params?: unknown): Promise<unknown>;
  /** Stops the engine, keeping its home (for a spec that starts it again on it). */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export interface ServeOptions {
  /** Keep the first-start welcome (settings.welcomeDone is set otherwise, so specs open on Servers). */
  welcome?: boolean;
  /** The engine's $HOME (and XDG_CONFIG_HOME under it): a fake user whose client files it finds and writes. */
  user?: string;
  /** Added to the engine's environment. */
  env?: Record<string, string>;
  /** Serve this existing home (with `config` null: as it is) instead of a new temp one. */
  home?: string;
  /** `--port`; 0 (any free port) unless told. */
  port?: number;
}

/**
 * This machine's PATH without the folders inside the checkout: `npm test` puts the checkout's
 * node_modules/.bin first, so a page naming where `npx` was found (the catalog's review) would
 * show the checkout's folder. A person's PATH has none of those.
 */
function pathOutsideCheckout(): string {
  const root = ROOT.replace(/[\\/]+$/, '');
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => d && d !== root && !d.startsWith(root + path.sep))
    .join(path.delimiter);
}

/** `config` null: no config.json, so the engine's first run writes its default (the demo profiles). */
export async function serve(config: unknown, opts: ServeOptions = {}): Promise<Served> {
  const home = opts.home ?? mkdtempSync(path.join(os.tmpdir(), 'sb-ui-'));
  const configFile = path.join(home, 'config.json');
  if (config !== null) writeFileSync(configFile, `${JSON.stringify(opts.welcome ? config : welcomeDone(config), null, 2)}\n`);
  const machine = { ...process.env, PATH: pathOutsideCheckout() };
  const env = opts.user ? { ...machine, HOME: opts.user, XDG_CONFIG_HOME: path.join(opts.user, '.config') } : machine;
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin/switchboard.mjs'), 'serve', '--home', home, '--port', String(opts.port ?? 0)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, ...opts.env },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const started = new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no address in 30 s:\n${out}\n${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Switchboard is running: (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
  });
  const url = await started.catch((e: unknown) => {
    child.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
    throw e;
  });
  async function stop() {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
  const base = url.split('/#')[0]!;
  const token = url.split('#token=')[1]!;
  return {
    home,
    url,
    configFile,
    configBytes: () => readFileSync(configFile, 'utf8'),
    async api(method, params = {}) {
      const res = await fetch(`${base}/api/${method}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(params),
      });
      const body = (await res.json()) as { result?: unknown; error?: { message: string } };
      if (body.error) throw new Error(body.error.message);
      return body.result;
    },
    stop,
    async dispose() {
      await stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The config with the welcome marked done, unless it says otherwise already. */
function welcomeDone(config: unknown): unknown {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return config;
  const c = config as { settings?: Record<string, unknown> };
  return c.settings && 'welcomeDone' in c.settings ? c : { ...c, settings: { ...c.settings, welcomeDone: true } };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  dispose(): Promise<void>;
}

/** `bypassCSP`: lets a test put a script of its own into the page (axe-core), past the app's script-src 'self'. */
export async function openBrowser(colorScheme: 'light' | 'dark' = 'light', opts: { bypassCSP?: boolean } = {}): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    colorScheme,
    ...(opts.bypassCSP ? { bypassCSP: true } : {}),
    viewport: { width: 1240, height: 860 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async dispose() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
