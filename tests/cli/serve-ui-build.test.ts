// `switchboard serve` right after `npm install` in a fresh clone: no out/renderer yet, and the
// UI must still load (it used to answer 503 "not built yet"). The test runs real serves from a
// copy of this checkout's sources (node_modules linked, no out/), so the shared checkout's own
// build is never touched.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/home.ts';

const COPY = ['bin', 'scripts', 'src-main', 'src-shared', 'src-renderer', 'assets', 'package.json', 'vite.config.ts', 'tsconfig.json', 'tsconfig.renderer.json', '.npmrc'];
const BUILD_LINE = /switchboard: building the UI into out\/renderer/g;

interface Serve {
  base: string;
  stderr(): string;
  stop(): Promise<void>;
}

let clone: string;
const serves: Serve[] = [];
const homes: string[] = [];

async function serve(): Promise<Serve> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-uibuild-home-'));
  homes.push(home);
  writeFileSync(path.join(home, 'config.json'), '{ "servers": {}, "profiles": {} }\n');
  const child: ChildProcess = spawn(process.execPath, [path.join(clone, 'bin/switchboard.mjs'), 'serve', '--home', home, '--port', '0'], {
    cwd: clone,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no address in 60 s:\n${out}\n${err}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Switchboard is running: (http:\/\/\S+?)\/#token=/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
  });
  const s: Serve = {
    base,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 8000);
      await exited;
      clearTimeout(t);
    },
  };
  serves.push(s);
  return s;
}

const builds = () => serves.reduce((n, s) => n + (s.stderr().match(BUILD_LINE)?.length ?? 0), 0);

async function page(base: string, p = '/'): Promise<{ status: number; type: string | null; body: string }> {
  const r = await fetch(`${base}${p}`);
  return { status: r.status, type: r.headers.get('content-type'), body: await r.text() };
}

beforeAll(() => {
  clone = mkdtempSync(path.join(os.tmpdir(), 'sb-fresh-clone-'));
  for (const name of COPY) cpSync(path.join(ROOT, name), path.join(clone, name), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
});

afterAll(async () => {
  for (const s of serves) await s.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  if (clone) rmSync(clone, { recursive: true, force: true });
});

describe('serve in a checkout with no UI build', () => {
  it('builds the UI on the first page request, once, even when two engines and several requests race', async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    expect(existsSync(path.join(clone, 'out/renderer'))).toBe(false);
    // Nothing is built before a page is asked for.
    expect(builds()).toBe(0);

    const pages = await Promise.all([page(a.base), page(a.base, '/servers'), page(b.base)]);
    for (const p of pages) {
      expect(p.status, p.body).toBe(200);
      expect(p.type).toMatch(/^text\/html/);
      expect(p.body).toContain('<script type="module"');
    }
    expect(new Set(pages.map((p) => p.body)).size).toBe(1);
    expect(builds(), a.stderr() + b.stderr()).toBe(1);

    // The assets the page names are there.
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(pages[0]!.body)?.[1];
    expect(script).toBeTruthy();
    const js = await page(a.base, `/${script}`);
    expect(js.status).toBe(200);
    expect(js.type).toMatch(/^text\/javascript/);
  }, 240_000);

  it('does not rebuild an up-to-date UI, and rebuilds once a source is newer', async () => {
    const [a] = serves;
    const before = builds();
    expect((await page(a!.base)).status).toBe(200);
    expect(builds()).toBe(before);

    // A build made by plain `vite build` has no stamp: its index.html's age counts.
    rmSync(path.join(clone, 'out/renderer/.build-stamp.json'));
    expect((await page(a!.base)).status).toBe(200);
    expect(builds()).toBe(before);

    // A build folder left by a builder that was killed is cleared by the next build.
    const leftover = path.join(clone, 'out/.renderer-tmp-999999-1');
    mkdirSync(path.join(leftover, 'assets'), { recursive: true });

    const future = new Date(Date.now() + 60_000);
    const source = path.join(clone, 'src-renderer/App.svelte');
    utimesSync(source, future, future);
    const after = await page(a!.base);
    expect(after.status).toBe(200);
    expect(builds()).toBe(before + 1);
    expect(existsSync(leftover)).toBe(false);
    // The stamp records the sources the build saw, so the future mtime does not loop.
    expect((await page(a!.base)).status).toBe(200);
    expect(builds()).toBe(before + 1);
    expect(JSON.parse(readFileSync(path.join(clone, 'out/renderer/.build-stamp.json'), 'utf8')).newest).toBeGreaterThan(Date.now());
  }, 240_000);

  it('answers 503 with the build error when the sources do not build', async () => {
    const [a] = serves;
    const source = path.join(clone, 'src-renderer/App.svelte');
    writeFileSync(source, `${readFileSync(source, 'utf8')}\n<script>this is not JavaScript</script>\n`);
    const future = new Date(Date.now() + 120_000);
    utimesSync(source, future, future);
    const p = await page(a!.base);
    expect(p.status).toBe(503);
    expect(p.body).toMatch(/The Switchboard UI could not be built: vite build failed/);
    expect(p.body).toMatch(/npm run build:renderer/);
  }, 120_000);
});
