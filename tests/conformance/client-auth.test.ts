// The official conformance suite's client auth scenarios (`conformance client --suite auth`,
// Node 22 through npx, scripts/node22.mjs) against Switchboard's sign-in flow and upstream client
// (tests/fixtures/oauth/conformance-client.ts). Expected failures, each with its reason, are in
// tests/fixtures/oauth/conformance-baseline.yml; the suite itself fails when a failure is not in
// the baseline.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUITE_PACKAGE, suiteNode } from '../../scripts/conformance.mjs';
import { npxWithNode22 } from '../../scripts/node22.mjs';
import { ROOT } from '../helpers/home.ts';

describe('the official conformance suite, client auth scenarios', () => {
  it('passes every auth scenario outside the committed baseline', async () => {
    // Fails with a message naming the cause when Node 22 cannot be had (never runs the suite on 20).
    await suiteNode();
    const client = `${process.execPath} --import tsx ${path.join(ROOT, 'tests/fixtures/oauth/conformance-client.ts')}`;
    const inv = npxWithNode22([SUITE_PACKAGE], [
      'conformance', 'client', '--command', client, '--suite', 'auth',
      '--expected-failures', path.join(ROOT, 'tests/fixtures/oauth/conformance-baseline.yml'),
    ]);
    const r = spawnSync(inv.command, inv.args, { cwd: ROOT, env: inv.env, shell: inv.shell, encoding: 'utf8', timeout: 240_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    if (r.status !== 0 && !/Total: \d+ passed/.test(out)) {
      throw new Error(`The conformance suite did not run (exit ${r.status}); it needs the npm registry for node@22 and the suite:\n${out.slice(-2000)}`);
    }
    expect(out, out.slice(-3000)).toMatch(/Baseline check passed/);
    expect(r.status, out.slice(-3000)).toBe(0);
  }, 450_000);
});
