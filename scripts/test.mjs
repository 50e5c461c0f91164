// `npm test`: typecheck, the unit and integration suites (vitest), then the UI suite in
// Chromium. Each step's output is shown as it runs; the first failure fails the whole run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
];
if (existsSync('vite.config.ts')) {
  steps.push(['renderer build', 'npx', ['vite', 'build', '--logLevel', 'warn']]);
}
if (existsSync('tests/ui/run.mjs')) {
  steps.push(['UI tests (Chromium)', 'node', ['tests/ui/run.mjs']]);
}

for (const [name, cmd, args] of steps) {
  process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    process.stdout.write(`\n=== ${name} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
}
process.stdout.write('\n=== all test steps passed\n');
