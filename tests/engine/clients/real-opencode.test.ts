// The real opencode CLI, with $XDG_CONFIG_HOME pointing away from ~/.config, sees the entry that
// `connect opencode` wrote and reaches the profile through it (`opencode mcp list` says
// "connected"). opencode is ~350 MB from npm (opencode-ai), so it is not a dependency: the test
// runs when $SWITCHBOARD_OPENCODE names its binary or `opencode` is on PATH, and says why not.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath, getConnector } from '../../../src-main/engine/clients/connector.ts';
import { defaultShimEntry } from '../../../src-main/engine/platform/shim-entry.ts';
import { cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';

const run = promisify(execFile);
const opencode = process.env.SWITCHBOARD_OPENCODE || findOnPath('opencode', { env: process.env, platform: process.platform });
const why = 'opencode is not installed here (npm i -g opencode-ai, or set SWITCHBOARD_OPENCODE to its binary)';
if (!opencode) console.log(`skipped "opencode mcp list sees the entry under $XDG_CONFIG_HOME": ${why}`);

const root = mkdtempSync(path.join(os.tmpdir(), 'sb-real-opencode-'));
afterAll(async () => {
  await cleanupHomes();
  rmSync(root, { recursive: true, force: true });
});

describe('opencode, the real CLI', () => {
  it.skipIf(!opencode)('opencode mcp list sees the entry under $XDG_CONFIG_HOME', { timeout: 120_000 }, async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), XDG_CONFIG_HOME: path.join(root, 'xdg') };
    const c = getConnector('opencode', { home, env, platform: process.platform });
    expect(c.configPath()).toBe(path.join(root, 'xdg', 'opencode', 'opencode.json'));
    await c.connect('demo', defaultShimEntry(home, false, 'demo'));
    const { stdout } = await run(opencode!, ['mcp', 'list'], { env, cwd: root, timeout: 90_000 });
    const line = stdout.split('\n').find((l) => l.includes('switchboard-demo'));
    expect(line, stdout).toBeDefined();
    expect(line).toMatch(/(?<!dis)connected/);
    expect(line).not.toMatch(/failed/i);
  });
});
