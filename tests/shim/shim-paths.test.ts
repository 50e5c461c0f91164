// The shim cannot load the engine's TypeScript, so it mirrors the home and socket rules of
// src-main/engine/home.ts; these tests keep the two in step.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { homePaths, resolveHome } from '../../src-main/engine/home.ts';
import { resolveHomeForShim, socketPathForShim } from '../../src-main/shim/shim.mjs';

describe('shim and engine agree on paths', () => {
  const envs: NodeJS.ProcessEnv[] = [
    { HOME: '/home/ada' },
    { HOME: '/home/ada', XDG_CONFIG_HOME: '/home/ada/.cfg' },
    { HOME: '/home/ada', SWITCHBOARD_HOME: '/srv/switchboard' },
  ];
  for (const env of envs) {
    it(`resolves the same home for ${JSON.stringify(env)}`, () => {
      expect(resolveHomeForShim(undefined, env, 'linux')).toBe(resolveHome(undefined, env, 'linux'));
      expect(resolveHomeForShim('/x/y', env, 'linux')).toBe(resolveHome('/x/y', env, 'linux'));
    });
  }

  it('uses the same socket for a short home and for one too long for a socket path', () => {
    const short = '/tmp/sb-home';
    const long = path.join('/tmp', 'a'.repeat(120), 'home');
    for (const home of [short, long]) expect(socketPathForShim(home, 'linux')).toBe(homePaths(home, 'linux').socket);
    expect(socketPathForShim(long, 'linux').length).toBeLessThanOrEqual(108);
  });

  it('uses the same named pipe on Windows', () => {
    expect(socketPathForShim('C:\\Users\\Ada\\AppData\\Roaming\\Switchboard', 'win32')).toBe(
      homePaths('C:\\Users\\Ada\\AppData\\Roaming\\Switchboard', 'win32').socket,
    );
  });
});
