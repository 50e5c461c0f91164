// `npm test` leaves the work tree clean: its UI step saves screenshots into a git-ignored folder,
// never into the committed docs/screenshots (only `npm run screenshots` writes there), even when
// the variable that asks for that is set in the shell running `npm test`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/home.ts';

/**
 * Importing a scripts/test.mjs that runs its steps on import would start the whole of `npm test`
 * (vitest inside vitest): check it exports them and runs them only when started directly, before
 * anything imports it (tests/ui/screenshots.ts does too).
 */
function assertRunnerImportable(): void {
  const runner = readFileSync(path.join(ROOT, 'scripts/test.mjs'), 'utf8');
  if (!/^export const steps\b/m.test(runner) || !/^if \(process\.argv\[1\] && .*import\.meta\.url\)\) \{$/m.test(runner)) {
    throw new Error('scripts/test.mjs must export its steps and run them only when started directly');
  }
}

/** Where `npm test`'s UI step would save screenshots, worked out in a fresh process with `env`. */
function uiStepScreenshotDir(env: NodeJS.ProcessEnv): string {
  assertRunnerImportable();
  const code = `
    const { steps } = await import('./scripts/test.mjs');
    const { screenshotDir } = await import('./tests/ui/screenshots.ts');
    const ui = steps.find((s) => s.args.includes('tests/ui/app.spec.ts'));
    if (!ui) throw new Error('npm test has no UI step running tests/ui/app.spec.ts');
    process.stdout.write(screenshotDir(ui.env));`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, env, encoding: 'utf8' });
}

describe('npm test and the committed screenshots', () => {
  it('the UI step saves screenshots outside docs/, in a git-ignored folder', () => {
    for (const env of [process.env, { ...process.env, SWITCHBOARD_UPDATE_SCREENSHOTS: '1' }]) {
      const dir = uiStepScreenshotDir(env);
      expect(path.relative(path.join(ROOT, 'docs'), dir).startsWith('..'), dir).toBe(true);
      const ignored = spawnSync('git', ['check-ignore', '-q', path.join(dir, 'servers.png')], { cwd: ROOT });
      expect(ignored.status, `${dir} is not git-ignored`).toBe(0);
    }
  });

  it('`npm run screenshots` is the command that writes docs/screenshots', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.screenshots).toBe('node scripts/screenshots.mjs');
    assertRunnerImportable();
    const code = `
      const { screenshotDir } = await import('./tests/ui/screenshots.ts');
      process.stdout.write(screenshotDir({ SWITCHBOARD_UPDATE_SCREENSHOTS: '1' }));`;
    const dir = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
    expect(dir).toBe(path.join(ROOT, 'docs/screenshots'));
  });
});
