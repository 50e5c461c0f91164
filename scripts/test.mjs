// `npm test`: typecheck (engine and renderer), the unit and integration suites (vitest), then
// the UI suite in real Chromium against a real `switchboard serve`. Each step's output is shown
// as it runs; the first failure fails the whole run.
import { spawnSync } from 'node:child_process';

const steps = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['renderer typecheck', 'npx', ['svelte-check', '--tsconfig', './tsconfig.renderer.json', '--threshold', 'warning', '--output', 'human']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
  ['renderer build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['UI tests in Chromium', 'node', ['--import', 'tsx', '--test', 'tests/ui/app.spec.ts']],
];

for (const [name, cmd, args] of steps) {
  process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    process.stdout.write(`\n=== ${name} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
}
process.stdout.write('\n=== all test steps passed\n');
