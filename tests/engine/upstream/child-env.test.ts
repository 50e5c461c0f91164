import { describe, expect, it } from 'vitest';
import { buildChildEnv } from '../../../src-main/engine/upstream/child-env.ts';

describe('buildChildEnv', () => {
  const parent = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    LANG: 'en_US.UTF-8',
    LC_CTYPE: 'UTF-8',
    NODE_OPTIONS: '--inspect',
    LD_PRELOAD: '/evil.so',
    ELECTRON_RUN_AS_NODE: '1',
    AWS_SECRET_ACCESS_KEY: 'x',
  };

  it('keeps only allow-listed variables, with configured env winning', () => {
    const env = buildChildEnv({ parentEnv: parent, configured: { HOME: '/custom', TOKEN: 't' }, platform: 'linux' });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/custom', LANG: 'en_US.UTF-8', LC_CTYPE: 'UTF-8', TOKEN: 't' });
  });

  it('uses the given PATH unless the config sets one', () => {
    expect(buildChildEnv({ parentEnv: parent, path: '/a:/b', platform: 'linux' }).PATH).toBe('/a:/b');
    expect(buildChildEnv({ parentEnv: parent, path: '/a:/b', configured: { PATH: '/mine' }, platform: 'linux' }).PATH).toBe('/mine');
  });

  it('matches Windows names case-insensitively', () => {
    const env = buildChildEnv({ parentEnv: { Path: 'C:\\bin', SystemRoot: 'C:\\Windows', windir: 'C:\\Windows', FOO: '1' }, platform: 'win32' });
    expect(env).toEqual({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', windir: 'C:\\Windows' });
  });

  it('adds ELECTRON_RUN_AS_NODE only for our own binary under Electron', () => {
    const env = buildChildEnv({ parentEnv: parent, command: process.execPath, platform: 'linux' });
    expect('ELECTRON_RUN_AS_NODE' in env).toBe(Boolean(process.versions.electron));
  });
});
