// scripts/smoke-packaged.mjs, which the release workflow runs on each packaged app: its command
// line, how it finds the app electron-builder wrote, and its whole run against a stand-in app
// that runs this checkout's engine, with the real shim.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appArgs, findPackagedApp, mcpToolsList, parseSmokeArgs, smoke, SmokeError, WINDOW_SHOWN } from '../../scripts/smoke-packaged.mjs';
import { BIN, ROOT } from '../helpers/home.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'sb-smoke-test-'));
  dirs.push(d);
  return d;
};
const touch = (file: string, text = '') => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
};

describe('smoke-packaged command line', () => {
  it('waits for the very line the app\'s main prints when its window shows', () => {
    expect(readFileSync(path.join(ROOT, 'src-main/electron/main.ts'), 'utf8')).toContain(`const WINDOW_SHOWN = '${WINDOW_SHOWN}';`);
  });

  it('defaults to release/ for this machine, and takes each option', () => {
    expect(parseSmokeArgs([], { platform: 'linux', arch: 'x64' })).toEqual({ dist: path.join(ROOT, 'release'), platform: 'linux', arch: 'x64', timeoutMs: 90_000 });
    expect(parseSmokeArgs(['--dist', '/d', '--platform', 'darwin', '--arch', 'arm64', '--profile', 'demo-code', '--timeout', '30', '--app', '/a/App', '--skip-window'])).toEqual({
      dist: path.resolve('/d'), platform: 'darwin', arch: 'arm64', profile: 'demo-code', timeoutMs: 30_000, app: path.resolve('/a/App'), skipWindow: true,
    });
  });

  it('refuses what it does not know, saying how it is used', () => {
    for (const [argv, says] of [
      [['--frobnicate'], 'Unknown argument --frobnicate'],
      [['--dist'], '--dist needs a value'],
      [['--dist', '--arch', 'x64'], '--dist needs a value'],
      [['--platform', 'freebsd'], '--platform must be darwin, win32 or linux'],
      [['--arch', 'ia32'], '--arch must be x64 or arm64'],
      [['--timeout', 'soon'], '--timeout takes a number of seconds'],
    ] as const) {
      expect(() => parseSmokeArgs([...argv])).toThrow(SmokeError);
      expect(() => parseSmokeArgs([...argv])).toThrow(says);
      expect(() => parseSmokeArgs([...argv])).toThrow('usage: node scripts/smoke-packaged.mjs');
    }
  });

  it('starts the app hidden on the smoke home, without the Chromium sandbox only on Linux', () => {
    expect(appArgs('/h', 'darwin')).toEqual(['--hidden', '--home', '/h']);
    expect(appArgs('/h', 'win32')).toEqual(['--hidden', '--home', '/h']);
    expect(appArgs('/h', 'linux')).toEqual(['--hidden', '--home', '/h', '--no-sandbox']);
  });
});

describe('finding the packaged app', () => {
  it('finds each platform\'s unpacked app and the shim in its resources, by electron-builder\'s folder names', () => {
    const dist = tmp();
    const cases = [
      ['darwin', 'arm64', 'mac-arm64/Switchboard.app/Contents/MacOS/Switchboard', 'mac-arm64/Switchboard.app/Contents/Resources/bin/switchboard'],
      ['darwin', 'x64', 'mac/Switchboard.app/Contents/MacOS/Switchboard', 'mac/Switchboard.app/Contents/Resources/bin/switchboard'],
      ['win32', 'x64', 'win-unpacked/Switchboard.exe', 'win-unpacked/resources/bin/switchboard.exe'],
      ['win32', 'arm64', 'win-arm64-unpacked/Switchboard.exe', 'win-arm64-unpacked/resources/bin/switchboard.exe'],
      ['linux', 'x64', 'linux-unpacked/switchboard-desktop', 'linux-unpacked/resources/bin/switchboard'],
    ] as const;
    for (const [platform, arch, app, shim] of cases) {
      touch(path.join(dist, app));
      touch(path.join(dist, shim));
      expect(findPackagedApp({ dist, platform, arch })).toEqual({ app: path.join(dist, app), shim: path.join(dist, shim) });
    }
  });

  it('says what is missing: the app, or the shim electron-builder should have copied in', () => {
    const dist = tmp();
    expect(() => findPackagedApp({ dist, platform: 'linux', arch: 'x64' })).toThrow(`No packaged app at ${path.join(dist, 'linux-unpacked', 'switchboard-desktop')}`);
    touch(path.join(dist, 'linux-unpacked', 'switchboard-desktop'));
    expect(() => findPackagedApp({ dist, platform: 'linux', arch: 'x64' })).toThrow('release/shim/linux-x64/ was empty when electron-builder ran');
  });
});

describe('the exchange with a shim', () => {
  it('fails with a sentence when the shim exits or writes something else than JSON-RPC', async () => {
    await expect(mcpToolsList(process.execPath, ['-e', 'process.stderr.write("no engine for you\\n"); process.exit(4)'], 10_000)).rejects.toThrow(
      /The shim exited \(code 4\) before answering initialize\.\nThe shim said: no engine for you/,
    );
    await expect(mcpToolsList(process.execPath, ['-e', 'console.log("hello"); setTimeout(() => {}, 5000)'], 10_000)).rejects.toThrow('not JSON-RPC on stdout: hello');
    await expect(mcpToolsList(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], 500)).rejects.toThrow('did not answer initialize within 1 s');
  });
});

describe.skipIf(process.platform === 'win32')('a whole smoke run', () => {
  /**
   * An unpacked "app" that runs this checkout's engine, with a shim that runs this checkout's
   * shim. Started again, it tells the running one, which "shows its window" as the real app's
   * main prints it; with `showsWindow` false it never does.
   */
  function standInDist(showsWindow = true): string {
    const dist = tmp();
    const dir = path.join(dist, 'linux-unpacked');
    touch(
      path.join(dir, 'switchboard-desktop'),
      `#!${process.execPath}\n` +
        `const fs = require('node:fs'), path = require('node:path'), { spawn } = require('node:child_process');\n` +
        `const argv = process.argv.slice(2), home = argv[argv.indexOf('--home') + 1];\n` +
        `const lock = path.join(home, 'stand-in.pid'), open = path.join(home, 'stand-in.open');\n` +
        `if (fs.existsSync(lock)) { fs.writeFileSync(open, ''); process.exit(0); }\n` +
        `fs.writeFileSync(lock, String(process.pid));\n` +
        `const engine = spawn(${JSON.stringify(process.execPath)}, [${JSON.stringify(BIN)}, 'engine', '--home', home], { stdio: 'inherit' });\n` +
        `setInterval(() => { if (${showsWindow} && fs.existsSync(open)) { console.log(${JSON.stringify(WINDOW_SHOWN)}); fs.rmSync(open); } }, 100);\n` +
        `process.on('SIGTERM', () => { engine.kill(); process.exit(0); });\n`,
    );
    touch(path.join(dir, 'resources', 'bin', 'switchboard'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    return dist;
  }

  it('starts the app on a new home, sees its engine in status, and lists tools through its shim', async () => {
    const found = findPackagedApp({ dist: standInDist(), platform: 'linux', arch: 'x64' });
    const lines: string[] = [];
    const r = await smoke({ ...found, platform: 'linux', timeoutMs: 60_000, log: (l) => void lines.push(l) });
    expect(r.profile).toBe('demo');
    expect(r.tools.length).toBeGreaterThan(0);
    expect(lines.at(-2)).toMatch(/ tools on demo /);
    expect(lines.at(-1)).toBe('the window shows');
  }, 120_000);

  it('fails saying the window did not show when the running app ignores being opened again, unless told to skip that', async () => {
    const found = findPackagedApp({ dist: standInDist(false), platform: 'linux', arch: 'x64' });
    await expect(smoke({ ...found, platform: 'linux', timeoutMs: 25_000, log: () => undefined })).rejects.toThrow(
      /The window did not show within 25 s of opening the app again \(no "switchboard: window shown" from it\)\. The app is still running\./,
    );
    const lines: string[] = [];
    await smoke({ ...found, platform: 'linux', timeoutMs: 25_000, skipWindow: true, log: (l) => void lines.push(l) });
    expect(lines.at(-1)).toMatch(/ tools on demo /);
  }, 120_000);

  it('fails saying the engine never came up, with the app\'s own output, when the app dies', async () => {
    const dist = tmp();
    touch(path.join(dist, 'linux-unpacked', 'switchboard-desktop'), '#!/bin/sh\necho "cannot open display" >&2\nexit 3\n');
    touch(path.join(dist, 'linux-unpacked', 'resources', 'bin', 'switchboard'), '#!/bin/sh\nexit 1\n');
    const found = findPackagedApp({ dist, platform: 'linux', arch: 'x64' });
    const t0 = Date.now();
    await expect(smoke({ ...found, platform: 'linux', timeoutMs: 30_000, log: () => undefined })).rejects.toThrow(
      /The engine did not come up: `switchboard status --json` says pid null and 0 profiles\. The app exited \(code 3\)\.\nIts last output:\ncannot open display/,
    );
    // It does not wait out its timeout for an app that is gone.
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 60_000);
});
