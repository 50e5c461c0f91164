// The shim cannot load the engine's TypeScript, so it mirrors the home and socket rules of
// src-main/engine/platform/home.ts; these tests keep the two in step.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { homePaths, resolveHome } from '../../src-main/engine/platform/home.ts';
import { resolveHomeForShim, socketPathForShim } from '../../src-main/shim/shim.mjs';
import { NATIVE_SHIM_UNAVAILABLE, nativeShim } from '../helpers/home.ts';

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

// The native shim (native/shim/src/paths.rs) follows the same rules; its `paths` command prints
// the home and socket it would use.
describe.skipIf(NATIVE_SHIM_UNAVAILABLE || process.platform === 'win32')('the native shim agrees on paths', () => {
  function nativePaths(args: string[], env: NodeJS.ProcessEnv, cwd?: string): { home: string; socket: string } {
    const r = spawnSync(nativeShim(), ['paths', ...args], { encoding: 'utf8', env: env as Record<string, string>, cwd });
    expect(r.status, r.stderr).toBe(0);
    const [home, socket] = r.stdout.trimEnd().split('\n');
    return { home: home!, socket: socket! };
  }
  const base = { TMPDIR: process.env.TMPDIR, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
  const clean = (e: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;

  for (const env of [{ HOME: '/home/ada' }, { HOME: '/home/ada', XDG_CONFIG_HOME: '/home/ada/.cfg' }, { HOME: '/home/ada', SWITCHBOARD_HOME: '/srv//switchboard/' }, { HOME: '/home/ada', XDG_CONFIG_HOME: '' }]) {
    it(`resolves the same home and socket for ${JSON.stringify(env)}`, () => {
      const e = clean({ ...base, ...env });
      const home = resolveHome(undefined, e, 'linux');
      expect(nativePaths([], e)).toEqual({ home, socket: homePaths(home, 'linux').socket });
    });
  }

  it('resolves --home like path.resolve, relative ones against the working folder', () => {
    const e = clean({ ...base, HOME: '/home/ada' });
    for (const flag of ['/x/./y/../z/', 'rel/../h', '--home=/a//b']) {
      const args = flag.startsWith('--') ? [flag] : ['--home', flag];
      const value = flag.startsWith('--') ? flag.slice(7) : flag;
      expect(nativePaths(args, e, '/tmp').home, flag).toBe(path.resolve('/tmp', value));
    }
  });

  it('uses the same short socket for a home too long for one, under the runtime folder or the temp folder', () => {
    const long = path.join('/tmp', 'a'.repeat(120), 'home');
    const saved = { x: process.env.XDG_RUNTIME_DIR, t: process.env.TMPDIR };
    try {
      for (const [xdg, tmp] of [[undefined, undefined], ['/run/user/0', undefined], ['/' + 'r'.repeat(70), '/var/tmp/'], [undefined, '/var/tmp']] as const) {
        if (xdg === undefined) delete process.env.XDG_RUNTIME_DIR;
        else process.env.XDG_RUNTIME_DIR = xdg;
        if (tmp === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = tmp;
        const expected = homePaths(long, 'linux').socket;
        expect(nativePaths(['--home', long], clean({ HOME: '/home/ada', XDG_RUNTIME_DIR: xdg, TMPDIR: tmp })).socket, `${xdg} ${tmp}`).toBe(expected);
        expect(expected).toBe(socketPathForShim(long, 'linux'));
      }
    } finally {
      for (const [k, v] of [['XDG_RUNTIME_DIR', saved.x], ['TMPDIR', saved.t]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
