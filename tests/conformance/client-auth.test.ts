// The official conformance suite's client auth scenarios (`conformance client --suite auth`,
// Node 22 through npx) against Switchboard's sign-in flow and upstream client
// (tests/fixtures/oauth/conformance-client.ts). Expected failures, each with its reason, are in
// tests/fixtures/oauth/conformance-baseline.yml; the suite itself fails when a failure is not in
// the baseline.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/home.ts';

const SUITE = ['-y', '-p', 'node@22', '-p', '@modelcontextprotocol/conformance@0.1.16', 'conformance'];

describe('the official conformance suite, client auth scenarios', () => {
  it('passes every auth scenario outside the committed baseline', () => {
    const client = `${process.execPath} --import tsx ${path.join(ROOT, 'tests/fixtures/oauth/conformance-client.ts')}`;
    const r = spawnSync(
      'npx',
      [...SUITE, 'client', '--command', client, '--suite', 'auth', '--expected-failures', path.join(ROOT, 'tests/fixtures/oauth/conformance-baseline.yml')],
      { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
    );
    const out = `${r.stdout}\n${r.stderr}`;
    if (r.status !== 0 && !/Total: \d+ passed/.test(out)) {
      throw new Error(`The conformance suite did not run (exit ${r.status}); it needs the npm registry for node@22 and the suite:\n${out.slice(-2000)}`);
    }
    expect(out, out.slice(-3000)).toMatch(/Baseline check passed/);
    expect(r.status, out.slice(-3000)).toBe(0);
  }, 300_000);
});
