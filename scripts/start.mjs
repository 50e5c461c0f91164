// `npm start`: open the desktop app; where Electron cannot start (no display, no Electron
// binary) say so and run `switchboard serve` instead, which serves the same UI in a browser.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  return r.status === 0;
}

/** Path of the Electron binary, fetching it once when missing (needs internet). */
function electronBinary() {
  const dir = path.dirname(require.resolve('electron/package.json'));
  const pathTxt = path.join(dir, 'path.txt');
  if (!existsSync(pathTxt)) {
    // .npmrc skips install scripts, so Electron's binary is fetched here on first start.
    console.log('Fetching the Electron binary (first start only)…');
    spawnSync(process.execPath, [path.join(dir, 'install.js')], { stdio: 'inherit', cwd: dir, timeout: 120_000 });
  }
  if (!existsSync(pathTxt)) return { error: 'the Electron binary could not be downloaded (no internet?)' };
  const bin = path.join(dir, 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(bin) ? { bin } : { error: `the Electron binary is missing (${bin})` };
}

function hasDisplay() {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function serveInstead(reason) {
  console.log(`\nThe desktop app cannot start here: ${reason}.`);
  console.log('Running `switchboard serve` instead — open the address below in a browser.\n');
  const child = spawn(process.execPath, [path.join(root, 'bin/switchboard.mjs'), 'serve', ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

if (!existsSync(path.join(root, 'out/renderer/index.html')) || process.env.SWITCHBOARD_REBUILD) {
  console.log('Building the UI…');
  if (!run('npx', ['vite', 'build', '--logLevel', 'warn'])) process.exit(1);
}

if (!hasDisplay()) {
  serveInstead('no display (DISPLAY / WAYLAND_DISPLAY is not set)');
} else {
  const e = electronBinary();
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (e.error) serveInstead(e.error);
  else if (pkg.scripts?.['build:electron'] && !run('npm', ['run', '--silent', 'build:electron'])) serveInstead('the Electron shell did not build');
  else {
    const child = spawn(e.bin, [root], { stdio: 'inherit' });
    child.on('error', (err) => serveInstead(`Electron failed to start (${err.message})`));
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal === null) serveInstead(`Electron exited with code ${code}`);
      else process.exit(code ?? 0);
    });
  }
}
