import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireEngineLock, EngineRunningError, readOrCreateToken, removeEngineInfo, writeEngineInfo } from '../../src-main/engine/engine-files.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-run-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('engine files', () => {
  it('refuses the engine lock while a live engine holds it, naming its pid', () => {
    const lock = path.join(dir, 'engine.lock');
    writeFileSync(lock, '1\n');
    expect(() => acquireEngineLock(lock)).toThrow(EngineRunningError);
    expect(() => acquireEngineLock(lock)).toThrow(/pid 1\)/);
  });

  it('takes over a lock left by an earlier life of its own pid (containers reuse pids), and releases it', () => {
    const lock = path.join(dir, 'engine.lock');
    writeFileSync(lock, `${process.pid}\n`);
    const release = acquireEngineLock(lock);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('makes an owner-only token once and reads the same one back', () => {
    const file = path.join(dir, 'token');
    const token = readOrCreateToken(file);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateToken(file)).toBe(token);
    writeFileSync(file, 'short');
    expect(readOrCreateToken(file)).not.toBe(token);
  });

  it('writes engine.json whole and removes it', () => {
    const file = path.join(dir, 'engine.json');
    const info = { pid: 7, socket: '/s', http: null, version: '1', startedAt: 'now' };
    writeEngineInfo(file, info);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(info);
    removeEngineInfo(file);
    removeEngineInfo(file);
    expect(readdirSync(dir)).toEqual([]);
  });
});
