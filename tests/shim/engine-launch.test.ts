import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_NODE_FLAGS, appExecutableForShim, engineCommand, runningAsSea } from '../../src-main/shim/engine-launch.mjs';
import { BIN } from '../helpers/home.ts';

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
});
