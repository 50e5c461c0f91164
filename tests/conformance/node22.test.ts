// The Node the conformance suite runs on. Inside the checkout .npmrc sets ignore-scripts=true,
// which used to make `npx -p node@22 node` run the machine's Node 20 (the `node` package gets
// its binary from an install script): the suite then died on `fs.globSync`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUITE_PACKAGE, suiteNode } from '../../scripts/conformance.mjs';
import { Node22UnavailableError, resolveNode22 } from '../../scripts/node22.mjs';
import { ROOT } from '../helpers/home.ts';

describe('the conformance runner’s Node', () => {
  it('is Node 22 or newer when resolved from inside the checkout', async () => {
    const { version, major } = await suiteNode();
    expect(major, `the runner got Node ${version}`).toBeGreaterThanOrEqual(22);
  }, 200_000);

  it('says clearly when Node 22 cannot be had', async () => {
    // An empty npx cache and a registry that refuses connections: nothing to run.
    const cache = mkdtempSync(path.join(os.tmpdir(), 'sb-npx-cache-'));
    try {
      const env = { ...process.env, npm_config_cache: cache, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', npm_config_offline: 'false' };
      const err = await resolveNode22([SUITE_PACKAGE], { cwd: ROOT, env, timeoutMs: 60_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Node22UnavailableError);
      expect((err as Error).message).toMatch(/Could not get Node 22 through `npx -y -p node@22 -p @modelcontextprotocol\/conformance@0\.1\.16 node --version`.*registry must be reachable/s);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 90_000);
});
