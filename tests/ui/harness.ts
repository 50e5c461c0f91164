// A real `switchboard serve` on a temp home, and real Chromium pointed at it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SHOTS = path.join(ROOT, 'docs/screenshots');
export const BASIC = path.join(ROOT, 'tests/fixtures/servers/basic.mjs');
export const MEMORY = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Served {
  home: string;
  url: string;
  configFile: string;
  configBytes(): string;
  api(method: string, params?: unknown): Promise<unknown>;
  dispose(): Promise<void>;
}

export async function serve(config: unknown): Promise<Served> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-'));
  const configFile = path.join(home, 'config.json');
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin/switchboard.mjs'), 'serve', '--home', home, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
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
    async dispose() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  dispose(): Promise<void>;
}

export async function openBrowser(colorScheme: 'light' | 'dark' = 'light'): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    colorScheme,
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
