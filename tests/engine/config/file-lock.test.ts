import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tryLock, withFileLock } from '../../../src-main/engine/config/file-lock.ts';

let dir: string;
let lock: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-lock-'));
  lock = path.join(dir, 'engine.lock');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('tryLock', () => {
  it('takes a free lock with our pid in it and leaves nothing behind on release', () => {
    const held = tryLock(lock);
    expect(held.ok).toBe(true);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
    if (held.ok) held.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a lock held by a live process and names it', () => {
    writeFileSync(lock, '1\n'); // pid 1 is always alive
    expect(tryLock(lock)).toEqual({ ok: false, owner: 1 });
    expect(readFileSync(lock, 'utf8')).toBe('1\n');
  });

  it('breaks a lock whose owner is dead, and one without a pid', () => {
    writeFileSync(lock, `${deadPid()}\n`);
    const a = tryLock(lock);
    expect(a.ok).toBe(true);
    if (a.ok) a.release();
    writeFileSync(lock, 'not a pid');
    const b = tryLock(lock);
    expect(b.ok).toBe(true);
    if (b.ok) b.release();
  });

  it('breaks a lock naming our own pid only when told (an earlier life of a reused pid)', () => {
    writeFileSync(lock, `${process.pid}\n`);
    expect(tryLock(lock)).toEqual({ ok: false, owner: process.pid });
    const held = tryLock(lock, { reclaimOwnPid: true });
    expect(held.ok).toBe(true);
    if (held.ok) held.release();
  });

  it('breaks a live owner\'s lock once it is older than staleMs', () => {
    writeFileSync(lock, '1\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(tryLock(lock, { staleMs: 120_000 }).ok).toBe(false);
    expect(tryLock(lock, { staleMs: 10_000 }).ok).toBe(true);
  });

  it("breaks a live owner's lock dated further ahead than staleMs, but not one a clock's jitter ahead", () => {
    writeFileSync(lock, '1\n');
    const soon = new Date(Date.now() + 5_000);
    utimesSync(lock, soon, soon);
    expect(tryLock(lock, { staleMs: 10_000 }).ok).toBe(false);
    const nextYear = new Date(Date.now() + 365 * 24 * 3600_000);
    utimesSync(lock, nextYear, nextYear);
    expect(tryLock(lock, { staleMs: 10_000 }).ok).toBe(true);
  });

  it('does not remove a lock someone else took after ours was broken', () => {
    const held = tryLock(lock);
    if (!held.ok) throw new Error('not taken');
    // Another process's lock replaces ours (created while ours exists, so it has another inode).
    writeFileSync(`${lock}.theirs`, '1\n');
    renameSync(`${lock}.theirs`, lock);
    held.release();
    expect(readFileSync(lock, 'utf8')).toBe('1\n');
  });
});

describe('withFileLock', () => {
  it('runs one holder at a time within a process', async () => {
    const order: string[] = [];
    const run = (name: string) =>
      withFileLock(lock, async () => {
        order.push(`${name}+`);
        await new Promise((r) => setTimeout(r, 20));
        order.push(`${name}-`);
      });
    await Promise.all([run('a'), run('b')]);
    expect(order.join(' ')).toMatch(/^(a\+ a- b\+ b-|b\+ b- a\+ a-)$/);
  });

  it('gives up on a live owner after timeoutMs with a sentence naming the pid', async () => {
    writeFileSync(lock, '1\n');
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 100 })).rejects.toThrow(/pid 1/);
  });
});

describe('withFileLock across processes', () => {
  // Was: a lock released between a waiter's stat and its read of the pid was judged ownerless,
  // so the waiter moved aside the next lock its owner took, which on ext4 reuses the freed
  // inode, and deleted it: two holders at once. 4 processes × 300 increments lost 212–801 of
  // 1,200 in 5 of 6 runs.
  it('never lets two processes hold it at once: 4 processes × 300 locked increments all count', async () => {
    const counter = path.join(dir, 'counter');
    writeFileSync(counter, '0');
    const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'lock-counter.ts');
    const codes = await Promise.all(
      Array.from({ length: 4 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', fixture, counter, lock, '300'], { stdio: ['ignore', 'ignore', 'inherit'] });
        return new Promise<number | null>((resolve) => child.on('close', resolve));
      }),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(Number(readFileSync(counter, 'utf8'))).toBe(1200);
    expect(readdirSync(dir).sort()).toEqual(['counter']);
  }, 120_000);
});
