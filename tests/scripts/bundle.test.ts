// The CLI and engine run from the prebuilt bundle (out/bundle, scripts/bundle.mjs). An installed
// copy, which carries no sources and neither esbuild nor tsx, runs its bundle as shipped; a
// checkout whose bundle is older than its sources rebuilds it and says so in one line on stderr.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupHomes, makeHome, ROOT, stopEngine } from '../helpers/home.ts';

// makeHome's folders double as scratch folders: cleanupHomes stops their engines and removes them.
afterAll(cleanupHomes);

/** Runs `node <bin> ARGS` and returns its exit code and output. */
function run(bin: string, args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input, timeout: 120_000 });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * What an installation holds, as electron-builder's `files` would pack it (no sources, no source
 * maps) plus the plain-JavaScript entry and shim bin/switchboard.mjs loads: package.json,
 * bin/, out/bundle/ and the production packages, without esbuild and tsx (devDependencies).
 */
function installedCopy(): string {
  const app = makeHome();
  cpSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
  cpSync(path.join(ROOT, 'bin'), path.join(app, 'bin'), { recursive: true });
  mkdirSync(path.join(app, 'src-main', 'engine'), { recursive: true });
  cpSync(path.join(ROOT, 'src-main/engine/stop-signals.mjs'), path.join(app, 'src-main/engine/stop-signals.mjs'));
  cpSync(path.join(ROOT, 'src-main/shim'), path.join(app, 'src-main/shim'), { recursive: true });
  cpSync(path.join(ROOT, 'out/bundle'), path.join(app, 'out/bundle'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  const modules = path.join(app, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (['esbuild', 'tsx', '@esbuild', '.bin'].includes(name)) continue;
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
  }
  return app;
}

describe('an installed copy (no sources, no esbuild, no tsx)', () => {
  it('runs status, an engine and code in its sandbox from the prebuilt bundle', async () => {
    const app = installedCopy();
    const bin = path.join(app, 'bin', 'switchboard.mjs');
    // The layout really lacks them: nothing the app loads could find esbuild or tsx.
    const req = createRequire(bin);
    expect(() => req.resolve('esbuild')).toThrow();
    expect(() => req.resolve('tsx/esm/api')).toThrow();
    expect(existsSync(path.join(app, 'src-main', 'cli'))).toBe(false);

    const home = makeHome({ servers: {}, profiles: { p: { servers: [], surface: 'code' } } });
    const before = run(bin, ['status', '--json', '--home', home]);
    expect(before.stderr).toBe('');
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ pid: null, config: { valid: true } });

    // exec starts the installed copy's engine, whose sandbox worker is the bundled one.
    try {
      const exec = run(bin, ['exec', '--profile', 'p', '--home', home, '-'], 'return 6 * 7');
      expect(exec.stderr).toBe('');
      expect(exec.stdout).toContain('42');
      const status = JSON.parse(run(bin, ['status', '--json', '--home', home]).stdout) as { pid: number | null };
      expect(status.pid).toEqual(expect.any(Number));
      if (existsSync(`/proc/${status.pid}/cmdline`)) expect(readFileSync(`/proc/${status.pid}/cmdline`, 'utf8')).toContain(bin);
    } finally {
      await stopEngine(home);
    }
  }, 120_000);

  it('says the installation is incomplete when its bundle is missing', () => {
    const app = installedCopy();
    rmSync(path.join(app, 'out', 'bundle'), { recursive: true });
    const r = run(path.join(app, 'bin', 'switchboard.mjs'), ['status', '--home', makeHome()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/out\/bundle\/cli\.mjs is missing: this installation is incomplete, reinstall Switchboard\.\n$/);
  });
});

/** A copy of this checkout's sources and its bundle, stamped as built from them. */
function checkoutCopy(): string {
  const dir = makeHome();
  for (const p of ['package.json', 'package-lock.json', 'tsconfig.json', 'bin', 'scripts/bundle.mjs', 'src-main', 'src-shared', 'out/bundle']) {
    cpSync(path.join(ROOT, p), path.join(dir, p), { recursive: true });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  // The copies are newer than the copied bundle's stamp, but they are the sources it was built from.
  writeFileSync(path.join(dir, 'out/bundle/stamp.json'), JSON.stringify({ newest: Date.now() + 1_000 }) + '\n');
  return dir;
}

describe('a checkout', () => {
  it('rebuilds a bundle older than its sources, saying so in one line on stderr, and runs the new code', () => {
    const dir = checkoutCopy();
    const bin = path.join(dir, 'bin', 'switchboard.mjs');
    const home = makeHome({ servers: {}, profiles: {} });
    expect(run(bin, ['status', '--json', '--home', home]).stderr).toBe('');

    // An edit the old bundle does not have.
    const edited = path.join(dir, 'src-main/cli/commands/status.ts');
    const source = readFileSync(edited, 'utf8');
    expect(source).toMatch(/Engine: not running/);
    writeFileSync(edited, source.replaceAll('Engine: not running', 'Engine: not running (edited)'));
    const later = new Date(Date.now() + 10_000);
    utimesSync(edited, later, later);

    const r = run(bin, ['status', '--home', home]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'switchboard: out/bundle is older than src-main/cli/commands/status.ts: rebuilding it now (`npm run build:cli` builds it ahead; an engine already running keeps its old code until it restarts)\n',
    );
    expect(r.stdout).toContain('Engine: not running (edited)');
    // Rebuilt once: the next run is quiet.
    const again = run(bin, ['status', '--home', home]);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('Engine: not running (edited)');
  }, 120_000);

  it('stops with the build error when the sources do not build, and never runs old code', () => {
    const dir = checkoutCopy();
    const broken = path.join(dir, 'src-main/cli/commands/status.ts');
    writeFileSync(broken, readFileSync(broken, 'utf8') + '\nexport const = ;\n');
    const later = new Date(Date.now() + 10_000);
    utimesSync(broken, later, later);
    const r = run(path.join(dir, 'bin', 'switchboard.mjs'), ['status', '--home', makeHome()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('switchboard: building out/bundle failed, fix the sources and run `npm run build:cli`:');
    expect(r.stderr).toContain('src-main/cli/commands/status.ts');
  }, 120_000);
});
