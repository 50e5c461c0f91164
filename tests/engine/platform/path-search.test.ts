// One PATH search (platform/path-search.ts): a client's program (clients/connector.ts) and a
// server's command (upstream/command-resolve.ts) are found by the same rules.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../../src-main/engine/clients/connector.ts';
import { findCommandSync, resolveCommand, searchPlan } from '../../../src-main/engine/platform/path-search.ts';
import { resolveCommand as upstreamResolve } from '../../../src-main/engine/upstream/command-resolve.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'sb-path-search-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function dir(name: string): string {
  const d = path.join(root, name);
  mkdirSync(d, { recursive: true });
  return d;
}

function file(d: string, name: string, mode: number): string {
  const f = path.join(d, name);
  writeFileSync(f, '#!/bin/sh\necho hi\n');
  chmodSync(f, mode);
  return f;
}

describe.skipIf(process.platform === 'win32')('finding a program on PATH', () => {
  it('skips a folder of that name and a file that is not executable, for clients and servers alike', async () => {
    const folder = dir('a');
    mkdirSync(path.join(folder, 'tool'));
    file(dir('b'), 'tool', 0o644);
    const real = file(dir('c'), 'tool', 0o755);
    const env = { PATH: [folder, '', path.join(root, 'b'), path.join(root, 'c')].join(':') };
    expect(findOnPath('tool', { env, platform: process.platform })).toBe(real);
    expect(findCommandSync('tool', { env })).toBe(real);
    expect((await resolveCommand('tool', { env })).path).toBe(real);
    expect((await upstreamResolve('tool', { env })).searched).toEqual([folder, path.join(root, 'b'), path.join(root, 'c')]);
  });

  it('takes a command with a slash relative to the working folder, never from PATH', async () => {
    const bin = dir('rel/bin');
    const tool = file(bin, 'run', 0o755);
    file(dir('onpath'), 'run', 0o755);
    const env = { PATH: path.join(root, 'onpath') };
    expect((await resolveCommand('bin/run', { env, cwd: path.join(root, 'rel') })).path).toBe(tool);
    expect(findCommandSync('./bin/run', { env, cwd: path.join(root, 'rel') })).toBe(tool);
    expect(findCommandSync('nothing-here', { env })).toBeNull();
    expect((await resolveCommand('npx', { env: { PATH: '' } })).hint).toMatch(/Install Node\.js/);
  });
});

describe('the Windows rules', () => {
  const win = (command: string, env: NodeJS.ProcessEnv, cwd = 'C:\\work') => searchPlan(command, { env, cwd, platform: 'win32' });

  it('reads PATH and PATHEXT in any case and tries each extension, never the bare name', () => {
    const plan = win('npx', { pAtH: 'C:\\node;;C:\\bin', PathExt: '.EXE;.CMD' });
    expect(plan.dirs).toEqual([
      { dir: 'C:\\node', files: ['C:\\node\\npx.exe', 'C:\\node\\npx.cmd'] },
      { dir: 'C:\\bin', files: ['C:\\bin\\npx.exe', 'C:\\bin\\npx.cmd'] },
    ]);
    expect(win('npx', { Path: 'C:\\node' }).dirs[0]!.files).toEqual(['C:\\node\\npx.com', 'C:\\node\\npx.exe', 'C:\\node\\npx.bat', 'C:\\node\\npx.cmd']);
  });

  it('takes a name with an extension as written, and a path with a backslash from the working folder', () => {
    expect(win('code.cmd', { Path: 'C:\\vs' }).dirs[0]!.files).toEqual(['C:\\vs\\code.cmd']);
    expect(win('tools\\x', { Path: 'C:\\vs' }).files).toEqual(['C:\\work\\tools\\x.com', 'C:\\work\\tools\\x.exe', 'C:\\work\\tools\\x.bat', 'C:\\work\\tools\\x.cmd']);
  });
});
