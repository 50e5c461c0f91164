import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginShellPath, resolveCommand } from '../../../src-main/engine/upstream/command-resolve.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-resolve-'));
  for (const d of ['a', 'b']) mkdirSync(path.join(dir, d));
  writeFileSync(path.join(dir, 'b', 'tool'), '#!/bin/sh\necho hi\n');
  chmodSync(path.join(dir, 'b', 'tool'), 0o755);
  writeFileSync(path.join(dir, 'a', 'tool'), 'not executable');
  writeFileSync(path.join(dir, 'a', 'npx.cmd'), '@echo off');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveCommand', () => {
  it('finds the first executable on PATH, skipping files that cannot run', async () => {
    const pathEnv = [path.join(dir, 'a'), path.join(dir, 'b')].join(':');
    const r = await resolveCommand('tool', { env: { PATH: pathEnv }, platform: 'linux' });
    expect(r).toEqual({ path: path.join(dir, 'b', 'tool'), searched: [path.join(dir, 'a'), path.join(dir, 'b')], pathEnv });
  });

  it('says where it looked and what to do when a command is missing', async () => {
    const r = await resolveCommand('npx', { env: { PATH: path.join(dir, 'b') }, platform: 'linux' });
    expect(r.path).toBeNull();
    expect(r.searched).toEqual([path.join(dir, 'b')]);
    expect(r.hint).toContain('Install Node.js');
  });

  it('resolves a relative path against cwd', async () => {
    const r = await resolveCommand('./b/tool', { env: { PATH: '' }, cwd: dir, platform: 'linux' });
    expect(r.path).toBe(path.join(dir, 'b', 'tool'));
  });

  // Windows paths only resolve on Windows; elsewhere this documents the behaviour.
  it.runIf(process.platform === 'win32')('tries PATHEXT on Windows so npm .cmd shims are found (runs on Windows only; skipped elsewhere)', async () => {
    writeFileSync(path.join(dir, 'a', 'npx'), '#!/bin/sh');
    const r = await resolveCommand('npx', { env: { Path: path.join(dir, 'a'), PATHEXT: '.COM;.EXE;.CMD' }, platform: 'win32' });
    expect(r.path?.toLowerCase()).toBe(path.join(dir, 'a', 'npx.cmd').toLowerCase());
  });
});

describe('loginShellPath', () => {
  it('includes this process PATH and is computed once', async () => {
    const p = await loginShellPath();
    for (const d of (process.env.PATH ?? '').split(':').filter(Boolean)) expect(p.split(':')).toContain(d);
    expect(loginShellPath()).toBe(loginShellPath());
  });
});
