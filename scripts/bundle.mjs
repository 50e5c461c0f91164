// @ts-check
// Bundles the CLI/engine and the sandbox worker into plain JavaScript under out/bundle, so that
// long-lived processes run without a TypeScript loader: tsx adds ~200 ms per start and a loader
// thread (a whole V8 isolate) to every process and worker. The build makes it (`npm run
// build:cli`, part of `npm run build:electron`) and the installed app only ever runs it: esbuild
// and tsx are development tools, not in the app. In a checkout, bin/switchboard.mjs rebuilds a
// bundle older than its sources (or the lockfile) before running, and says so on stderr.
//
//   node scripts/bundle.mjs [--force]     build when stale (always with --force)
//
// The packages are bundled too: an engine's start loaded ~300 files from node_modules (both SDK
// generations, zod, ajv, …), and finding and reading them took ~300 of the ~800 ms its modules
// took to load (bench "boot"; docs/measurements-boot.md). Packages that must stay files of their
// own (native or build-time tools, Electron) stay external; CommonJS packages get the require()
// that Node's ESM lacks from the banner.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUNDLE_DIR = path.join(ROOT, 'out', 'bundle');
const STAMP = path.join(BUNDLE_DIR, 'stamp.json');
const SOURCES = ['src-main', 'src-shared', 'package.json', 'package-lock.json', 'scripts/bundle.mjs'];
/**
 * Never bundled: build-time tools, Electron, the browser driver, and the sandbox's QuickJS,
 * whose WebAssembly file is found beside its own module.
 */
const EXTERNAL = ['electron', 'esbuild', 'tsx', 'playwright-core', 'vite', 'vitest', 'quickjs-emscripten-core', '@jitl/*'];
const ENTRIES = {
  cli: 'src-main/cli/main.ts',
  'sandbox-worker': 'src-main/engine/codemode/sandbox-worker.ts',
};

/**
 * The newest file under `p` (itself when a file), skipping Electron's sources and node_modules.
 * @param {string} p
 * @returns {{ file: string, mtimeMs: number }}
 */
function newestFile(p) {
  const st = statSync(p);
  let newest = { file: p, mtimeMs: st.mtimeMs };
  if (!st.isDirectory()) return newest;
  for (const name of readdirSync(p)) {
    if (name === 'electron' || name === 'node_modules') continue;
    const inner = newestFile(path.join(p, name));
    if (inner.mtimeMs > newest.mtimeMs) newest = inner;
  }
  return newest;
}

/** The newest source of the bundle, relative to the checkout. */
function newestSource() {
  let newest = { file: '', mtimeMs: 0 };
  for (const s of SOURCES) {
    // A copy of the sources without a lockfile (or another listed file) builds all the same.
    if (!existsSync(path.join(ROOT, s))) continue;
    const f = newestFile(path.join(ROOT, s));
    if (f.mtimeMs > newest.mtimeMs) newest = f;
  }
  return { file: path.relative(ROOT, newest.file), mtimeMs: newest.mtimeMs };
}

/**
 * Whether out/bundle is at least as new as every source, and when not, a sentence saying why
 * ("out/bundle is older than src-main/cli/main.ts").
 * @returns {{ fresh: true } | { fresh: false, why: string }}
 */
export function bundleState() {
  if (!existsSync(path.join(BUNDLE_DIR, 'cli.mjs'))) return { fresh: false, why: 'out/bundle has not been built' };
  /** @type {number} */
  let built;
  try {
    built = JSON.parse(readFileSync(STAMP, 'utf8')).newest;
  } catch {
    return { fresh: false, why: 'out/bundle has no build stamp (out/bundle/stamp.json)' };
  }
  const newest = newestSource();
  return newest.mtimeMs <= built ? { fresh: true } : { fresh: false, why: `out/bundle is older than ${newest.file}` };
}

export function bundleIsFresh() {
  return bundleState().fresh;
}

/**
 * Builds the bundle when stale (always with `force`); returns the CLI bundle's path.
 * @param {{ force?: boolean }} [opts]
 */
export async function ensureBundle(opts = {}) {
  const cli = path.join(BUNDLE_DIR, 'cli.mjs');
  if (!opts.force && bundleIsFresh()) return cli;
  // Taken before the build reads anything: a source saved during the build leaves it stale.
  const newest = newestSource().mtimeMs;
  const esbuild = await import('esbuild');
  // Build into a private folder, then move the files in: two processes may build at once.
  const tmp = path.join(BUNDLE_DIR, `.tmp-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    // ESM builds of packages that ship both (jsonc-parser's UMD build requires files by relative path).
    mainFields: ['module', 'main'],
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    sourcemap: 'linked',
    // V8 keeps every module's source text for as long as the engine runs, and holds it as two
    // bytes a character once a comment has one non-ASCII character: without comments and
    // indentation (string literals are escaped to ASCII anyway) the engine's heap holds ~4 MB
    // less of it. Names are kept, so stack traces and class names read as in the source.
    minifyWhitespace: true,
    logLevel: 'silent',
    banner: {
      js: "// Generated by scripts/bundle.mjs from src-main, src-shared and their packages; do not edit.\nimport { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
  });
  // Chunks first (content-hashed names), entries last: a reader never sees an entry whose
  // chunks are missing.
  mkdirSync(path.join(BUNDLE_DIR, 'chunks'), { recursive: true });
  for (const name of readdirSync(path.join(tmp, 'chunks'))) renameSync(path.join(tmp, 'chunks', name), path.join(BUNDLE_DIR, 'chunks', name));
  for (const name of readdirSync(tmp)) if (name !== 'chunks') renameSync(path.join(tmp, name), path.join(BUNDLE_DIR, name));
  writeFileSync(STAMP, JSON.stringify({ newest, built: new Date().toISOString() }) + '\n');
  rmSync(tmp, { recursive: true, force: true });
  return cli;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const t0 = Date.now();
  const force = process.argv.includes('--force');
  const before = bundleState();
  await ensureBundle({ force });
  console.log(before.fresh && !force ? `bundle up to date: ${BUNDLE_DIR}` : `bundle built in ${Date.now() - t0} ms: ${BUNDLE_DIR}`);
}
