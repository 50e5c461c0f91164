// `npm test`: typecheck (engine and renderer), the CLI bundle, the unit and integration suites (vitest), then
// the UI suite in real Chromium against a real `switchboard serve`. Each step's output is shown
// as it runs; the first failure fails the whole run. The run leaves the work tree clean: the UI
// suite's screenshots go to test-results/ (`npm run screenshots` updates docs/screenshots), and a
// step that changes anything under docs/ fails the run.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const UPDATE_SCREENSHOTS_ENV = 'SWITCHBOARD_UPDATE_SCREENSHOTS';

/** The UI suite writes docs/screenshots only with this variable set: never from `npm test`. */
function withoutScreenshotUpdate(env = process.env) {
  const { [UPDATE_SCREENSHOTS_ENV]: _, ...rest } = env;
  return rest;
}

/** Every UI spec (Node 20's test runner takes no globs): a new spec runs without editing this file. */
export const UI_SPECS = readdirSync(path.join(ROOT, 'tests/ui'))
  .filter((f) => f.endsWith('.spec.ts'))
  .sort()
  .map((f) => `tests/ui/${f}`);

/** @type {{ name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv }[]} */
export const steps = [
  { name: 'typecheck', cmd: 'npx', args: ['tsc', '-p', 'tsconfig.json', '--noEmit'], env: process.env },
  { name: 'renderer typecheck', cmd: 'npx', args: ['svelte-check', '--tsconfig', './tsconfig.renderer.json', '--threshold', 'warning', '--output', 'human'], env: process.env },
  // What the tests' CLIs and engines run (vitest's global setup builds it too when stale).
  { name: 'CLI bundle', cmd: 'node', args: ['scripts/bundle.mjs'], env: process.env },
  { name: 'unit and integration tests', cmd: 'npx', args: ['vitest', 'run'], env: process.env },
  { name: 'renderer build', cmd: 'npx', args: ['vite', 'build', '--logLevel', 'warn'], env: process.env },
  { name: 'UI tests in Chromium', cmd: 'node', args: ['--import', 'tsx', '--test', ...UI_SPECS], env: withoutScreenshotUpdate() },
];

/**
 * Every file under `dir` with its size and mtime, to notice a step writing there.
 * @param {string} dir
 */
export function snapshot(dir) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = statSync(p);
        out.push(`${path.relative(dir, p)} ${st.size} ${st.mtimeMs}`);
      }
    }
  };
  try {
    walk(dir);
  } catch {
    // No such folder: nothing to compare.
  }
  return out.sort().join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const docs = path.join(ROOT, 'docs');
  for (const { name, cmd, args, env } of steps) {
    process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
    const before = snapshot(docs);
    const r = spawnSync(cmd, args, { stdio: 'inherit', env, cwd: ROOT, shell: process.platform === 'win32' });
    if (r.status !== 0) {
      process.stdout.write(`\n=== ${name} failed (exit ${r.status ?? r.signal})\n`);
      process.exit(r.status || 1);
    }
    if (snapshot(docs) !== before) {
      process.stdout.write(`\n=== ${name} changed files under docs/: \`npm test\` must leave the work tree clean (screenshots for docs/ come from \`npm run screenshots\`)\n`);
      process.exit(1);
    }
  }
  process.stdout.write('\n=== all test steps passed\n');
}
