// The one cross-process lock file: the engine lock of a home (held for the engine's life), and
// the short locks around a read-modify-write of config.json or a UI build (the engine and a CLI
// run without an engine must never interleave). The lock file holds the owner's pid from the
// moment it exists (written to a temp file, then linked into place: link() never overwrites),
// so a lock left by a killed process is recognised by its dead pid and broken.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, openSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { isProcessAlive } from './atomic-file.ts';
import { readHomeFileSync } from '../../shim/home-file.mjs';

export interface LockOptions {
  /** A lock older than this, in ms (or dated further ahead), is broken even when its pid is alive (a reused pid, a hung owner). Defaults to never. */
  staleMs?: number;
  /** A lock naming this process's own pid is left by an earlier life of that pid (containers reuse pids): break it. Defaults to false. */
  reclaimOwnPid?: boolean;
}

export type LockAttempt = { ok: true; release: () => void } | { ok: false; owner: number | undefined };

/** Takes the lock at `lockPath` if it is free or stale; never waits. */
export function tryLock(lockPath: string, opts: LockOptions = {}): LockAttempt {
  // A few rounds: breaking a stale lock races other breakers, and the winner may be us or them.
  for (let round = 0; round < 3; round++) {
    const ino = create(lockPath);
    if (ino !== undefined) return { ok: true, release: () => release(lockPath, ino) };
    if (!breakIfStale(lockPath, opts)) break;
  }
  const owner = readOwner(lockPath);
  return { ok: false, owner: owner === 'gone' ? undefined : owner };
}

export interface FileLockOptions {
  /** A lock whose owner is gone, or older than this, is broken. Defaults to 10 000 ms. */
  staleMs?: number;
  /** How long to wait for a live owner before giving up. Defaults to 15 000 ms. */
  timeoutMs?: number;
  /** What the lock guards, for the give-up sentence. Defaults to "config.json is being changed". */
  busy?: string;
}

/** Runs `fn` while holding the lock file at `lockPath`, waiting for a live owner to finish. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: FileLockOptions = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const attempt = tryLock(lockPath, { staleMs: opts.staleMs ?? 10_000 });
    if (attempt.ok) {
      try {
        return await fn();
      } finally {
        attempt.release();
      }
    }
    if (Date.now() > deadline) {
      throw new SwitchboardError(
        'io-error',
        `${opts.busy ?? 'config.json is being changed'} by another Switchboard process${attempt.owner ? ` (pid ${attempt.owner})` : ''}; try again in a moment, or delete ${lockPath} if no Switchboard is running.`,
      );
    }
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
  }
}

/** Creates the lock with our pid in it; its inode, or undefined when the lock exists. */
function create(lockPath: string): number | undefined {
  // Named like the atomic writer's temp files, so removeStaleTemps(lockPath) clears a killed taker's.
  const temp = path.join(path.dirname(lockPath), `.${path.basename(lockPath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeFileSync(fd, `${process.pid}\n`);
    const ino = fstatSync(fd).ino;
    linkSync(temp, lockPath);
    return ino;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  } finally {
    closeSync(fd);
    unlinkQuietly(temp);
  }
}

/** The pid a lock names; undefined for a lock without one, 'gone' when it was released meanwhile. */
function readOwner(lockPath: string): number | undefined | 'gone' {
  let text: string;
  try {
    text = readHomeFileSync(lockPath).toString('utf8');
  } catch (err) {
    // Missing: released. Anything but our own small regular file (a pipe would block the read)
    // names no owner, so it is judged as a lock without a pid.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** True when the lock was stale and is gone (or was released meanwhile): try again at once. */
function breakIfStale(lockPath: string, opts: LockOptions): boolean {
  let before;
  try {
    before = statSync(lockPath);
  } catch {
    return true;
  }
  const owner = readOwner(lockPath);
  // Released between the stat and the read: free now, nothing to break. (Judging it stale here
  // would move aside the next lock its owner takes, which may reuse the inode.)
  if (owner === 'gone') return true;
  // Locks are complete from birth, so one without a pid was written by something else.
  const dead = owner === undefined || (owner === process.pid ? opts.reclaimOwnPid === true : !isProcessAlive(owner));
  // Judged by distance, not sign: a lock dated ahead (a clock set back, a copied or touched file)
  // would otherwise never grow old, and its live pid may be a reused one of another program.
  const old = opts.staleMs !== undefined && Math.abs(Date.now() - before.mtimeMs) > opts.staleMs;
  if (!dead && !old) return false;
  // Move the stale lock aside rather than unlinking it, then check that what moved is the lock
  // judged stale: another breaker may have replaced it with a fresh, live one in between.
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true;
  }
  try {
    // What moved must be the lock judged stale: the same inode (a freed one is soon reused) and
    // the same owner. Anything else is a lock taken meanwhile: put it back. link() does not
    // overwrite, so a lock taken by yet another process in between is left alone.
    if (statSync(aside).ino !== before.ino || readOwner(aside) !== owner) linkSync(aside, lockPath);
  } catch {
    // Gone, or the lock was taken meanwhile: either way the next round decides.
  }
  unlinkQuietly(aside);
  return true;
}

function release(lockPath: string, ino: number): void {
  // Only remove the lock if it is still ours (it may have been broken as stale meanwhile).
  try {
    if (statSync(lockPath).ino === ino) unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Never created, or already removed.
  }
}
