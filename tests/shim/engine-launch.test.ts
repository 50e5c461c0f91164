import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE_MALLOC_TUNABLES, ENGINE_NODE_FLAGS, appExecutableForShim, engineCommand, engineEnv, runningAsSea } from '../../src-main/shim/engine-launch.mjs';
import { BIN, cleanupHomes, enginePid, fixtureServer, makeHome, shimClient } from '../helpers/home.ts';

afterAll(cleanupHomes);

describe('how the shim starts an engine', () => {
  it('runs bin/switchboard.mjs with this node in a checkout, its heaps kept small', () => {
    expect(ENGINE_NODE_FLAGS).toEqual(['--max-semi-space-size=2', '--optimize-for-size']);
    expect(engineCommand('/h', { env: {}, isSea: false })).toEqual({ command: process.execPath, args: [...ENGINE_NODE_FLAGS, BIN, 'engine', '--home', '/h'] });
  });

  it('is not a single-executable application under plain node', () => {
    expect(runningAsSea()).toBe(false);
  });

  it('starts the desktop app hidden when it is the packaged shim', () => {
    const shim = '/opt/Switchboard/resources/bin/switchboard';
    expect(engineCommand('/h', { env: {}, isSea: true, execPath: shim, platform: 'linux' })).toEqual({
      command: '/opt/Switchboard/switchboard-desktop',
      args: ['--hidden', '--home', '/h'],
    });
  });

  it('finds the app executable from the shim inside each installed layout', () => {
    expect(appExecutableForShim('/Applications/Switchboard.app/Contents/Resources/bin/switchboard', 'darwin')).toBe(
      '/Applications/Switchboard.app/Contents/MacOS/Switchboard',
    );
    expect(appExecutableForShim('C:\\Users\\a\\AppData\\Local\\Programs\\Switchboard\\resources\\bin\\switchboard.exe', 'win32')).toBe(
      'C:\\Users\\a\\AppData\\Local\\Programs\\Switchboard\\Switchboard.exe',
    );
    expect(appExecutableForShim(path.posix.join('/opt/Switchboard/resources/bin/switchboard'), 'linux')).toBe('/opt/Switchboard/switchboard-desktop');
  });

  it('lets SWITCHBOARD_ENGINE_COMMAND override both, appending --home', () => {
    const env = { SWITCHBOARD_ENGINE_COMMAND: JSON.stringify(['/usr/bin/node', '/x/bin/switchboard.mjs', 'engine']) };
    for (const isSea of [true, false]) {
      expect(engineCommand('/h', { env, isSea })).toEqual({ command: '/usr/bin/node', args: ['/x/bin/switchboard.mjs', 'engine', '--home', '/h'] });
    }
  });

  it('refuses a SWITCHBOARD_ENGINE_COMMAND that is not a JSON array of strings, saying what it should be', () => {
    for (const raw of ['node engine', '[]', '["node", 3]', '{"command":"node"}', '[""]']) {
      expect(() => engineCommand('/h', { env: { SWITCHBOARD_ENGINE_COMMAND: raw }, isSea: false })).toThrow(/must be a JSON array of strings, the command first/);
    }
  });

  it("gives the engine two malloc arenas and a fixed mmap threshold on Linux, the user's own tunables winning", () => {
    expect(engineEnv({ PATH: '/bin' }, 'linux')).toEqual({ PATH: '/bin', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=32768' });
    expect(engineEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }, 'linux').GLIBC_TUNABLES).toBe(`${ENGINE_MALLOC_TUNABLES}:glibc.malloc.arena_max=4`);
    expect(engineEnv({ PATH: '/bin' }, 'darwin')).toEqual({ PATH: '/bin' });
    expect(engineEnv({ PATH: 'C:\\bin' }, 'win32')).toEqual({ PATH: 'C:\\bin' });
  });

  it.runIf(process.platform === 'linux')('an engine the Node shim starts runs with those flags and malloc settings', { timeout: 60_000 }, async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const client = await shimClient(home, 'demo');
    try {
      await client.listTools();
      const pid = enginePid(home)!;
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([...ENGINE_NODE_FLAGS]));
      // glibc parses GLIBC_TUNABLES in place, turning its ':' into NULs in the environment block.
      expect(readFileSync(`/proc/${pid}/environ`, 'utf8').replaceAll('\0', ':')).toContain(`GLIBC_TUNABLES=${ENGINE_MALLOC_TUNABLES}`);
    } finally {
      await client.close();
    }
  });
});
