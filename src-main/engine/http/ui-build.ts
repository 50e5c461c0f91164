// The UI's static files (out/renderer), built on first need in a checkout: a fresh clone after
// `npm install` has none, and `switchboard serve` is documented as the headless way in with no
// build step. The packaged app ships out/renderer built and carries no sources, so there this
// never builds. Like scripts/bundle.mjs for the engine bundle: rebuilt only when a source is
// newer than the build; built into a private folder and moved in file by file (hashed assets
// first, index.html last), so a reader never sees an index whose assets are missing. A lock file
// keeps two engines of one checkout from building at once; requests of one engine share a build.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { withFileLock } from '../config/file-lock.ts';

/** What the renderer build reads, relative to the app root. */
const SOURCES = ['src-renderer', 'src-shared', 'vite.config.ts', 'package.json'];
/** Written next to index.html: the newest source mtime the build saw when it started. */
const STAMP = '.build-stamp.json';
/** Longest build (and longest wait for another process's build), in ms. */
const BUILD_MS = 5 * 60_000;

const inFlight = new Map<string, Promise<void>>();

/** True for a source checkout (the sources and vite config are there); false in the packaged app. */
export function isCheckout(root: string): boolean {
  return existsSync(path.join(root, 'src-renderer', 'index.html')) && existsSync(path.join(root, 'vite.config.ts'));
}

function newestMtime(p: string): number {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(p)) if (name !== 'node_modules') max = Math.max(max, newestMtime(path.join(p, name)));
  return max;
}

function newestSource(root: string): number {
  return Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
}

/**
 * True when `outDir` holds a build at least as new as every source. A build made by plain
 * `vite build` (no stamp) counts by its index.html's mtime.
 */
export function uiIsFresh(root: string, outDir: string): boolean {
  const index = statSync(path.join(outDir, 'index.html'), { throwIfNoEntry: false });
  if (!index) return false;
  let built = index.mtimeMs;
  try {
    built = (JSON.parse(readFileSync(path.join(outDir, STAMP), 'utf8')) as { newest: number }).newest;
  } catch {
    // No stamp: built by `vite build` directly.
  }
  return built >= newestSource(root);
}

/**
 * The build this request must wait for, or undefined when the UI can be served as it is (up to
 * date, or not a checkout). Only the app shell (index.html, client-side routes) checks the
 * sources' age; an asset request waits only when there is no UI at all.
 */
export function uiBuildFor(root: string, outDir: string, rel: string): Promise<void> | undefined {
  const shell = rel === 'index.html' || !path.extname(rel);
  if (!shell && existsSync(path.join(outDir, 'index.html'))) return undefined;
  if (!isCheckout(root) || uiIsFresh(root, outDir)) return undefined;
  return ensureUi(root, outDir);
}

/** Builds the UI into `outDir` unless it is fresh; concurrent callers share one build. */
export function ensureUi(root: string, outDir: string): Promise<void> {
  let p = inFlight.get(outDir);
  if (!p) {
    p = build(root, outDir).finally(() => inFlight.delete(outDir));
    inFlight.set(outDir, p);
  }
  return p;
}

async function build(root: string, outDir: string): Promise<void> {
  const parent = path.dirname(outDir);
  mkdirSync(parent, { recursive: true });
  let ran = false;
  try {
    await withFileLock(
      path.join(parent, `.${path.basename(outDir)}-build.lock`),
      async () => {
        ran = true;
        // Another engine may have built it while this one waited for the lock.
        if (uiIsFresh(root, outDir)) return;
        const newest = newestSource(root);
        process.stderr.write(
          `switchboard: building the UI into ${path.relative(root, outDir) || outDir} (missing or older than its sources; once, a few seconds)…\n`,
        );
        // Only the lock holder builds, so a leftover build folder is from a builder that died.
        const tmpPrefix = `.${path.basename(outDir)}-tmp-`;
        for (const name of readdirSync(parent)) if (name.startsWith(tmpPrefix)) rmSync(path.join(parent, name), { recursive: true, force: true });
        const tmp = path.join(parent, `${tmpPrefix}${process.pid}-${Date.now()}`);
        try {
          await runVite(root, tmp);
          moveIn(tmp, outDir);
          writeFileSync(path.join(outDir, STAMP), `${JSON.stringify({ newest, built: new Date().toISOString() })}\n`);
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      },
      { staleMs: BUILD_MS, timeoutMs: BUILD_MS },
    );
  } catch (err) {
    // Only the lock's own timeout is a SwitchboardError thrown before the build ran.
    if (ran || !(err instanceof SwitchboardError)) throw err;
    throw new Error(`another Switchboard process has been building the UI for over ${BUILD_MS / 60_000} minutes (${(err as Error).message})`);
  }
}

/** Moves the files of `from` into `to`: subfolders (hashed assets) first, index.html last. */
function moveIn(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const entries = readdirSync(from, { withFileTypes: true });
  for (const e of entries) if (e.isDirectory()) moveIn(path.join(from, e.name), path.join(to, e.name));
  for (const e of entries) if (!e.isDirectory() && e.name !== 'index.html') renameSync(path.join(from, e.name), path.join(to, e.name));
  if (existsSync(path.join(from, 'index.html'))) renameSync(path.join(from, 'index.html'), path.join(to, 'index.html'));
}

function runVite(root: string, outDir: string): Promise<void> {
  let vite: string;
  try {
    vite = path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    return Promise.reject(new Error('vite is not installed here; run `npm install`, then `npm run build:renderer`'));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: root,
      // In `npm start`'s Electron the engine's execPath is Electron, which acts as Node only so.
      env: { ...process.env, ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_MS);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`could not run vite: ${e.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`vite build failed (${signal ?? `exit ${code}`}): ${output.trim().slice(-2000)}`));
    });
  });
}
