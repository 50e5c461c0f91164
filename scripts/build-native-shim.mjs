// @ts-check
// Builds the native shim (native/shim, Rust with the standard library only) with cargo, offline:
//
//   node scripts/build-native-shim.mjs            → out/native-shim/switchboard, for this checkout
//   node scripts/build-native-shim.mjs --package  → release/shim/<os>-<arch>/switchboard, for the app
//   node scripts/build-native-shim.mjs --out DIR  → DIR/switchboard (a checkout build)
//   node scripts/build-native-shim.mjs --windows  → release/shim/win-x64/switchboard.exe, cross-built
//
// The Windows cross-build needs a rustc with the x86_64-pc-windows-gnu standard library and the
// MinGW-w64 linker. rustup's target works (`rustup target add x86_64-pc-windows-gnu`); on Debian,
// where rustup cannot download it, the distribution provides both:
//   apt-get install rustc libstd-rust-dev-windows gcc-mingw-w64-x86-64-win32
// Debian's rustc is older (1.63 on bookworm), so the crate keeps to Rust 1.63 (Cargo.toml
// rust-version). The crate has no dependencies, so rustc builds it without cargo.
//
// A checkout build also writes engine-command.json beside the binary: the node running this
// script, the engine's node flags and bin/switchboard.mjs, which is how the shim starts an engine in a checkout (the
// native binary has no node of its own to run the engine with). A packaged build writes none
// and starts the desktop app instead, as the Node single-executable shim does.
// src-main/engine/platform/shim-entry.ts writes out/native-shim/switchboard into client configs
// when it exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_NODE_FLAGS } from '../src-main/shim/engine-launch.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const NATIVE_SHIM_CRATE = path.join(ROOT, 'native', 'shim');
/** Where a checkout build goes; src-main/engine/platform/shim-entry.ts looks here. */
export const CHECKOUT_NATIVE_SHIM_DIR = path.join(ROOT, 'out', 'native-shim');
const BUILDER_OS = /** @type {Record<string, string>} */ ({ darwin: 'mac', win32: 'win', linux: 'linux' });
const EXE = process.platform === 'win32' ? 'switchboard.exe' : 'switchboard';

/** True when cargo runs here. */
export function haveCargo() {
  const r = spawnSync('cargo', ['--version'], { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

/**
 * @param {{ outDir?: string, packaged?: boolean, log?: (line: string) => void }} [opts]
 * @returns {{ binary: string, bytes: number }}
 */
export function buildNativeShim(opts = {}) {
  const log = opts.log ?? ((line) => process.stdout.write(line + '\n'));
  if (!haveCargo()) {
    throw new Error(
      'cargo was not found on PATH. The native shim is built with Rust (https://rustup.rs, any stable toolchain; no crates are downloaded). ' +
        'Without it, client configs use the Node shim (bin/switchboard.mjs shim), which works the same, only slower.',
    );
  }
  const osName = BUILDER_OS[process.platform];
  if (opts.packaged && !osName) throw new Error(`build-native-shim: no packaged shim for ${process.platform}`);
  const outDir = path.resolve(opts.outDir ?? (opts.packaged ? path.join(ROOT, 'release', 'shim', `${osName}-${process.arch}`) : CHECKOUT_NATIVE_SHIM_DIR));
  execFileSync('cargo', ['build', '--release', '--offline', '--locked', '--quiet', '--manifest-path', path.join(NATIVE_SHIM_CRATE, 'Cargo.toml')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const built = path.join(NATIVE_SHIM_CRATE, 'target', 'release', EXE);
  mkdirSync(outDir, { recursive: true });
  const binary = path.join(outDir, EXE);
  // Copied then renamed: a shim that clients are running is replaced, never rewritten in place,
  // and tests building at the same time each see a whole file.
  const tmp = `${binary}.${process.pid}.tmp`;
  copyFileSync(built, tmp);
  chmodSync(tmp, 0o755);
  renameSync(tmp, binary);
  const sidecar = path.join(outDir, 'engine-command.json');
  if (opts.packaged) rmSync(sidecar, { force: true });
  else {
    const stmp = `${sidecar}.${process.pid}.tmp`;
    writeFileSync(stmp, JSON.stringify([process.execPath, ...ENGINE_NODE_FLAGS, path.join(ROOT, 'bin', 'switchboard.mjs'), 'engine']) + '\n');
    renameSync(stmp, sidecar);
  }
  const bytes = statSync(binary).size;
  log(`build-native-shim: ${binary} (${(bytes / 1e3).toFixed(0)} kB)${opts.packaged ? '' : `; starts engines with ${process.execPath}`}`);
  return { binary, bytes };
}

export const WINDOWS_TARGET = 'x86_64-pc-windows-gnu';
const MINGW_LINKER = 'x86_64-w64-mingw32-gcc';

/**
 * A rustc that has the Windows standard library, and the MinGW linker; or why there is none.
 * @returns {{ rustc: string, linker: string } | { missing: string }}
 */
export function windowsToolchain() {
  const linker = spawnSync(MINGW_LINKER, ['--version'], { stdio: 'ignore' });
  if (linker.error || linker.status !== 0) {
    return { missing: `${MINGW_LINKER} was not found (Debian: apt-get install gcc-mingw-w64-x86-64-win32)` };
  }
  for (const rustc of ['rustc', '/usr/bin/rustc']) {
    const r = spawnSync(rustc, ['--print', 'sysroot'], { encoding: 'utf8' });
    if (r.error || r.status !== 0) continue;
    if (existsSync(path.join(r.stdout.trim(), 'lib', 'rustlib', WINDOWS_TARGET))) return { rustc, linker: MINGW_LINKER };
  }
  return {
    missing: `no rustc here has the ${WINDOWS_TARGET} standard library (rustup target add ${WINDOWS_TARGET}, or on Debian: apt-get install rustc libstd-rust-dev-windows)`,
  };
}

/**
 * Cross-builds the shim for 64-bit Windows (named-pipe transport, console subsystem).
 * @param {{ outDir?: string, log?: (line: string) => void }} [opts]
 * @returns {{ binary: string, bytes: number, rustc: string }}
 */
export function buildWindowsShim(opts = {}) {
  const log = opts.log ?? ((line) => process.stdout.write(line + '\n'));
  const tc = windowsToolchain();
  if ('missing' in tc) throw new Error(`cannot cross-build the Windows shim: ${tc.missing}`);
  const outDir = path.resolve(opts.outDir ?? path.join(ROOT, 'release', 'shim', 'win-x64'));
  mkdirSync(outDir, { recursive: true });
  const binary = path.join(outDir, 'switchboard.exe');
  const tmp = `${binary}.${process.pid}.tmp`;
  const version = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(path.join(NATIVE_SHIM_CRATE, 'Cargo.toml'), 'utf8'))?.[1] ?? '0.0.0';
  // The flags of Cargo.toml's release profile, given to rustc directly.
  execFileSync(
    tc.rustc,
    ['--edition', '2021', '--crate-name', 'switchboard', '--crate-type', 'bin', '--target', WINDOWS_TARGET,
      '-C', `linker=${tc.linker}`, '-C', 'opt-level=3', '-C', 'lto', '-C', 'codegen-units=1', '-C', 'panic=abort',
      '-C', 'strip=symbols', '-o', tmp, path.join(NATIVE_SHIM_CRATE, 'src', 'main.rs')],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CARGO_PKG_VERSION: version } },
  );
  renameSync(tmp, binary);
  const bytes = statSync(binary).size;
  log(`build-native-shim: ${binary} (${(bytes / 1e3).toFixed(0)} kB, ${WINDOWS_TARGET}, built with ${tc.rustc})`);
  return { binary, bytes, rustc: tc.rustc };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf('--out');
  const outDir = i >= 0 ? argv[i + 1] : undefined;
  if ((i >= 0 && !outDir) || argv.some((a, j) => a !== '--package' && a !== '--windows' && a !== '--out' && j !== i + 1)) {
    process.stderr.write('usage: node scripts/build-native-shim.mjs [--package | --windows] [--out DIR]\n');
    process.exit(2);
  }
  try {
    if (argv.includes('--windows')) buildWindowsShim({ outDir });
    else buildNativeShim({ outDir, packaged: argv.includes('--package') });
  } catch (err) {
    process.stderr.write(`build-native-shim: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
