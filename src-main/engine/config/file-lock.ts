// A cross-process lock file: the engine and a CLI run without an engine must never interleave
// their read-modify-write of config.json. The lock is created with O_EXCL and holds the owner's
// pid, so a lock left by a killed process can be recognised and broken.
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { isProcessAlive } from './atomic-file.ts';

export interface FileLockOptions {
  /** A lock whose owner is gone, or older than this, is broken. Defaults to 10 000 ms. */
  staleMs?: number;
  /** How long to wait for a live owner before giving up. Defaults to 15 000 ms. */
  timeoutMs?: number;
}

/** Runs `fn` while holding the lock file at `lockPath`. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: FileLockOptions = {}): Promise<T> {
  const ino = await acquire(lockPath, opts.staleMs ?? 10_000, opts.timeoutMs ?? 15_000);
  try {
    return await fn();
  } finally {
    await release(lockPath, ino);
  }
}

async function acquire(lockPath: string, staleMs: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
        return (await handle.stat()).ino;
      } finally {
        await handle.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await breakIfStale(lockPath, staleMs)) continue;
    if (Date.now() > deadline) {
      const owner = await readOwner(lockPath);
      throw new SwitchboardError(
        'io-error',
        `config.json is being changed by another Switchboard process${owner ? ` (pid ${owner})` : ''}; try again in a moment, or delete ${lockPath} if no Switchboard is running.`,
      );
    }
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
  }
}

async function readOwner(lockPath: string): Promise<number | undefined> {
  const text = await readFile(lockPath, 'utf8').catch(() => '');
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function breakIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  const before = await stat(lockPath).catch(() => undefined);
  if (!before) return true; // released meanwhile: retry at once
  const owner = await readOwner(lockPath);
  const old = Date.now() - before.mtimeMs > staleMs;
  // No pid yet means the owner is between create and write; only age makes that stale.
  const dead = owner !== undefined && !isProcessAlive(owner);
  if (!old && !dead) return false;
  // Move the stale lock aside rather than unlinking it, then check that what moved is the lock
  // judged stale: another breaker may have replaced it with a fresh, live one in between.
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(lockPath, aside);
  } catch {
    return true;
  }
  const moved = await stat(aside).catch(() => undefined);
  if (moved && moved.ino !== before.ino) {
    // link() does not overwrite, so a lock taken meanwhile by a third process is left alone.
    await link(aside, lockPath).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
  return true;
}

async function release(lockPath: string, ino: number): Promise<void> {
  // Only remove the lock if it is still ours (it may have been broken as stale meanwhile).
  const current = await stat(lockPath).catch(() => undefined);
  if (current && current.ino === ino) await unlink(lockPath).catch(() => undefined);
}
