// Where a home's files live (src-main/engine/platform/home.ts): the home's resolution order, the OS
// app-data folders, and a socket path that stays within the Unix limit. The rules the shims share
// are run case by case in tests/shim/shim-rules.test.ts.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultHome, ensurePrivateDir, homePaths, resolveHome, shortRunDir } from '../../../src-main/engine/platform/home.ts';

describe('resolveHome', () => {
  const env = { HOME: '/home/ada', SWITCHBOARD_HOME: 'rel/sb' };
  it('takes --home, then $SWITCHBOARD_HOME, then the OS folder, made absolute', () => {
    expect(resolveHome('/x/y', env, 'linux')).toBe('/x/y');
    expect(resolveHome(undefined, env, 'linux')).toBe(path.resolve('rel/sb'));
    expect(resolveHome(undefined, { HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.config/Switchboard');
  });

  it('uses each OS app-data folder', () => {
    expect(defaultHome({ HOME: '/home/ada', XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/Switchboard');
    expect(defaultHome({ HOME: '/Users/ada' }, 'darwin')).toBe('/Users/ada/Library/Application Support/Switchboard');
    expect(defaultHome({ USERPROFILE: 'C:\\Users\\Ada', APPDATA: 'C:\\Users\\Ada\\AppData\\Roaming' }, 'win32')).toBe(
      path.win32.join('C:\\Users\\Ada\\AppData\\Roaming', 'Switchboard'),
    );
  });
});

describe('homePaths', () => {
  it('puts state in the home and the socket, lock and engine.json in its run folder', () => {
    const p = homePaths('/h', 'linux');
    expect([p.config, p.token, p.secretsFile, p.pinsFile, p.engineLog]).toEqual(['/h/config.json', '/h/token', '/h/secrets.json', '/h/pins.json', '/h/logs/engine.log']);
    expect([p.runDir, p.socket, p.lock, p.engineInfo]).toEqual(['/h/run', '/h/run/engine.sock', '/h/run/engine.lock', '/h/run/engine.json']);
    expect([p.auditDir, p.runsDir, p.resultsDir]).toEqual(['/h/audit', '/h/runs', '/h/results']);
  });

  it('moves the socket to a short owner-only folder when the home is too deep for one', () => {
    const deep = path.join('/tmp', 'd'.repeat(120));
    const p = homePaths(deep, 'linux');
    expect(p.socket).toBe(path.join(shortRunDir(deep), 'engine.sock'));
    expect(Buffer.byteLength(p.socket)).toBeLessThanOrEqual(100);
    // The lock and engine.json stay in the home: only the socket has a length limit.
    expect(p.lock).toBe(path.join(deep, 'run', 'engine.lock'));
    // One folder per home.
    expect(shortRunDir(deep)).not.toBe(shortRunDir(`${deep}x`));
  });

  it('names a per-home pipe on Windows, the same whatever the case of the path', () => {
    const a = homePaths('C:\\Users\\Ada\\Switchboard', 'win32').socket;
    expect(a).toMatch(/^\\\\\.\\pipe\\switchboard-[0-9a-f]{16}$/);
    expect(homePaths('c:\\users\\ada\\switchboard', 'win32').socket).toBe(a);
    expect(homePaths('C:\\Users\\Bob\\Switchboard', 'win32').socket).not.toBe(a);
  });
});

describe.skipIf(process.platform === 'win32')('ensurePrivateDir', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-home-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes the folder 0700, and tightens one that exists', () => {
    const made = path.join(root, 'a', 'b');
    ensurePrivateDir(made);
    expect(statSync(made).mode & 0o777).toBe(0o700);
    const open = mkdtempSync(path.join(root, 'open-'));
    chmodSync(open, 0o755);
    expect(statSync(open).mode & 0o777).toBe(0o755);
    ensurePrivateDir(open);
    expect(statSync(open).mode & 0o777).toBe(0o700);
  });
});
