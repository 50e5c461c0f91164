// @ts-check
// Builds the packaged shim: a Node single-executable application (SEA) that MCP clients run on
// machines with no Node installed (see electron-builder.yml, "The shim"). It is built from the
// node running this script, for this OS and CPU only; CI runs it once per platform.
//
//   node scripts/build-shim-sea.mjs [--out DIR] [--name NAME]
//
// Default output: release/shim/<os>-<arch>/switchboard[.exe], where <os> is electron-builder's
// name (mac, win, linux) so that extraResources' ${os}-${arch} finds it. Where the native shim
// is the app's `switchboard` (scripts/build-native-shim.mjs --package), this one is built as
// `--name switchboard-node`: the native shim hands `switchboard node SCRIPT` to it.
//
// Steps: esbuild bundles src-main/shim/sea-main.mjs into one CommonJS file (a Node 20 SEA main
// is CommonJS and may require builtins only), node --experimental-sea-config turns it into a
// blob, and postject injects the blob into a copy of this node. On macOS the copy's signature
// is removed before injection and an ad hoc one added after (release builds sign it again with
// the Developer ID, as electron-builder does for extraResources binaries). On Windows the copy's
// Authenticode signature becomes invalid; release builds sign the result with signtool.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = path.join(ROOT, 'src-main', 'shim', 'sea-main.mjs');
/** The fuse Node's SEA support looks for; postject flips it once the blob is in. */
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const BUILDER_OS = /** @type {Record<string, string>} */ ({ darwin: 'mac', win32: 'win', linux: 'linux' });

/** @param {string} cmd @param {string[]} args */
function run(cmd, args) {
  execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * @param {{ outDir?: string, name?: string, log?: (line: string) => void }} [opts]
 * @returns {Promise<{ binary: string, bytes: number, bundleBytes: number }>}
 */
export async function buildShimSea(opts = {}) {
  const log = opts.log ?? ((line) => process.stdout.write(line + '\n'));
  const platform = process.platform;
  const osName = BUILDER_OS[platform];
  if (!osName) throw new Error(`build-shim-sea: no packaged shim for ${platform}`);
  const outDir = path.resolve(opts.outDir ?? path.join(ROOT, 'release', 'shim', `${osName}-${process.arch}`));
  const name = opts.name ?? 'switchboard';
  const binary = path.join(outDir, platform === 'win32' ? `${name}.exe` : name);
  const work = mkdtempSync(path.join(os.tmpdir(), 'sb-sea-build-'));
  try {
    const bundle = path.join(work, 'shim.cjs');
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [ENTRY],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      legalComments: 'none',
      logLevel: 'warning',
      // engine-launch.mjs reads import.meta.url only outside a SEA (a checkout's bin path).
      logOverride: { 'empty-import-meta': 'silent' },
    });
    const bundleBytes = statSync(bundle).size;

    const blob = path.join(work, 'sea-prep.blob');
    const config = path.join(work, 'sea-config.json');
    writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true }, null, 2));
    run(process.execPath, ['--experimental-sea-config', config]);

    mkdirSync(outDir, { recursive: true });
    rmSync(binary, { force: true });
    copyFileSync(process.execPath, binary);
    chmodSync(binary, 0o755);
    if (platform === 'darwin') run('codesign', ['--remove-signature', binary]);

    // postject is CommonJS; its default export is module.exports.
    const { default: postject } = await import(pathToFileURL(path.join(ROOT, 'node_modules', 'postject', 'dist', 'api.js')).href);
    await postject.inject(binary, 'NODE_SEA_BLOB', readFileSync(blob), {
      sentinelFuse: SENTINEL_FUSE,
      ...(platform === 'darwin' && { machoSegmentName: 'NODE_SEA' }),
    });

    if (platform === 'darwin') run('codesign', ['--sign', '-', binary]);
    if (platform === 'win32') log('build-shim-sea: sign the result with signtool for a release build');
    const bytes = statSync(binary).size;
    log(`build-shim-sea: ${binary} (${(bytes / 1e6).toFixed(1)} MB; shim bundle ${(bundleBytes / 1e3).toFixed(1)} kB)`);
    return { binary, bytes, bundleBytes };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const outDir = i >= 0 ? process.argv[i + 1] : undefined;
  const n = process.argv.indexOf('--name');
  const name = n >= 0 ? process.argv[n + 1] : undefined;
  if ((i >= 0 && !outDir) || (n >= 0 && !/^[\w.-]+$/.test(name ?? ''))) {
    process.stderr.write('usage: node scripts/build-shim-sea.mjs [--out DIR] [--name NAME]\n');
    process.exit(2);
  }
  buildShimSea({ outDir, name }).catch((err) => {
    process.stderr.write(`build-shim-sea: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
