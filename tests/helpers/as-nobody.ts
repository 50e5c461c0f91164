// Runs a test fixture as the unprivileged user `nobody` (tests run as root, which ignores
// permission bits, so a permission test must drop privileges to prove anything). The fixture is
// bundled first into a world-readable temp folder, so `nobody` needs no access to the checkout:
// a clone inside a 0700 folder (mktemp -d) works as well as one in a world-readable place.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';

/** Whether this run can drop privileges: Linux, root, setpriv present. */
export const CAN_RUN_AS_NOBODY = process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');

/** Runs `fixture` (a .ts file) as nobody with `args`; returns its stdout. Throws on a non-zero exit. */
export function runAsNobody(fixture: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-as-nobody-'));
  try {
    const out = path.join(dir, 'fixture.mjs');
    buildSync({ entryPoints: [fixture], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
      // ESM builds first: jsonc-parser's UMD main requires its parts by computed paths.
      mainFields: ['module', 'main'],
      // Bundled CommonJS dependencies call require(); give the ESM bundle one.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } });
    // The app finds its root by its package.json (src-main/engine/platform/app-root.ts); nothing is read from it here.
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'switchboard', type: 'module', private: true }));
    chmodSync(dir, 0o755);
    for (const f of ['fixture.mjs', 'package.json']) chmodSync(path.join(dir, f), 0o644);
    return execFileSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, out, ...args], {
      cwd: '/',
      encoding: 'utf8',
      timeout: opts.timeoutMs ?? 20_000,
      env: opts.env ?? { PATH: process.env.PATH ?? '', HOME: '/tmp' },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
