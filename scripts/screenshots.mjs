// `npm run screenshots`: builds the UI and runs the UI suite with SWITCHBOARD_UPDATE_SCREENSHOTS=1,
// the one way its screenshots land in docs/screenshots (shown in README). Servers in the suite
// run through neutral temp paths (tests/ui/harness.ts), so the images show nothing of this machine.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { UI_SPECS, UPDATE_SCREENSHOTS_ENV } from './test.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const win = process.platform === 'win32';
for (const [cmd, args, env] of [
  ['npx', ['vite', 'build', '--logLevel', 'warn'], process.env],
  ['node', ['--import', 'tsx', '--test', ...UI_SPECS], { ...process.env, [UPDATE_SCREENSHOTS_ENV]: '1' }],
]) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, env, shell: win });
  if (r.status !== 0) process.exit(r.status || 1);
}
process.stdout.write('screenshots written to docs/screenshots\n');
