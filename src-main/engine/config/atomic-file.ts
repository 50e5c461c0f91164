// The one way Switchboard replaces a file it owns or edits (config, client files, pins, secrets,
// client state, record indexes): the bytes go to a temp file of their own beside the target
// (pid + random, so two writers never share one), are fsynced, renamed over the target, and the
// folder is fsynced so the rename itself survives a power loss. A crash at any point leaves the
// old file or the new one, never a mix; a failed write removes its temp file.
//
// lowdb's own TextFile (via steno) writes to one fixed `.name.tmp` and renames it without fsync:
// two processes writing the same file share that temp name and can rename each other's half
// written bytes into place, and a power loss after the rename can leave an empty file. The
// config store therefore runs lowdb over AtomicTextFile, an adapter on this writer.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, readdir, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { readHomeFile } from '../../shim/home-file.mjs';

/**
 * How a file the person keeps is read (config.json, clients' files, what Switchboard keeps
 * beside them): never an open or read that waits on a pipe planted under its name, only a
 * regular file, through a link when it is one (dotfiles), up to 64 MB (far above any real one).
 * Not an owner check: a file written with sudo is still the person's.
 */
export const OWN_FILE_READ = { maxBytes: 64 << 20, anyOwner: true, followLinks: true } as const;

/** Mode for files this writer creates: owner read/write only (config may hold tokens). */
export const NEW_FILE_MODE = 0o600;

const TEMP_SUFFIX = '.tmp';

export interface AtomicWriteOptions {
  /** Mode of the new file, narrowed by the umask as for any file created. Defaults to NEW_FILE_MODE (0o600). */
  mode?: number;
  /** Give the file an existing target's mode exactly instead of `mode`. Defaults to false. */
  keepMode?: boolean;
  /** Write to what a symlink points at rather than replacing the link (dotfile setups). Defaults to false. */
  followSymlinks?: boolean;
  /** Runs once the temp file is durable, before the rename; if it throws, the old file stays and the temp is removed. */
  beforeRename?: () => Promise<void>;
}

/** Replaces `file` with `data` atomically and durably (see the top of this file). */
export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const target = opts.followSymlinks ? await realpath(file).catch(() => file) : file;
  const existing = opts.keepMode ? await stat(target).then((s) => s.mode & 0o777, () => undefined) : undefined;
  const mode = existing ?? opts.mode ?? NEW_FILE_MODE;
  const temp = tempName(target);
  let renamed = false;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      // The umask may have narrowed the mode of the temp file; an existing file's mode is kept exactly.
      if (existing !== undefined && process.platform !== 'win32') await handle.chmod(existing);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await opts.beforeRename?.();
    await renameWithRetry(temp, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
  await syncDir(path.dirname(target));
}

/**
 * writeFileAtomic for the callers whose API is synchronous (pins, secrets, segment indexes):
 * the same steps, blocking; the files are small and written rarely.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, opts: Omit<AtomicWriteOptions, 'beforeRename'> = {}): void {
  const target = opts.followSymlinks ? tryOr(() => realpathSync(file), file) : file;
  const existing = opts.keepMode ? tryOr(() => statSync(target).mode & 0o777, undefined) : undefined;
  const mode = existing ?? opts.mode ?? NEW_FILE_MODE;
  const temp = tempName(target);
  let renamed = false;
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      writeFileSync(fd, data);
      if (existing !== undefined && process.platform !== 'win32') fchmodSync(fd, existing);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // Rare enough, and inside a synchronous API, that the Windows retry is not worth a busy wait.
    renameSync(temp, target);
    renamed = true;
  } finally {
    if (!renamed) tryOr(() => unlinkSync(temp), undefined);
  }
  syncDirSync(path.dirname(target));
}

/** A lowdb adapter for a text file, over writeFileAtomic; an existing file's mode and symlinks are kept. */
export class AtomicTextFile implements Adapter<string> {
  readonly #file: string;

  constructor(file: string) {
    this.#file = path.resolve(file);
  }

  get file(): string {
    return this.#file;
  }

  /** The file's text, or null when it does not exist. */
  async read(): Promise<string | null> {
    return (await this.readBytes())?.toString('utf8') ?? null;
  }

  /** The file's bytes (read as OWN_FILE_READ says), or null when it does not exist. */
  async readBytes(): Promise<Buffer | null> {
    try {
      return await readHomeFile(this.#file, OWN_FILE_READ);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Writes `text` (or bytes already encoded as UTF-8, written as they are). */
  async write(text: string | Uint8Array): Promise<void> {
    await writeFileAtomic(this.#file, text, { keepMode: true, followSymlinks: true });
  }

  /** Removes temp files left by writers that died mid-write (their pid is gone). */
  async removeStaleTemps(): Promise<void> {
    await removeStaleTemps(this.#file);
  }
}

/** Removes the temp files of `file` left by writers that died mid-write (their pid is gone). */
export async function removeStaleTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid)) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

/** `.<name>.<pid>.<random>.tmp` beside the target: the pid lets removeStaleTemps tell a dead writer's. */
function tempName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

/** True while `pid` exists (EPERM means it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  // Windows refuses to replace a file another process (an editor, an indexer) holds open for a
  // moment; elsewhere rename over an existing file is atomic and needs no retry.
  const attempts = process.platform === 'win32' ? 10 : 1;
  for (let i = 1; ; i++) {
    try {
      await rename(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (i >= attempts || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw err;
      await new Promise((r) => setTimeout(r, 20 * i));
    }
  }
}

/** Some file systems (certain network and FUSE mounts) do not support fsync on folders. */
function dirSyncUnsupported(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EINVAL' || code === 'ENOTSUP' || code === 'EISDIR';
}

async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a folder for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (err) {
    if (!dirSyncUnsupported(err)) throw err;
  } finally {
    await handle.close();
  }
}

function syncDirSync(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } catch (err) {
    if (!dirSyncUnsupported(err)) throw err;
  } finally {
    closeSync(fd);
  }
}

function tryOr<T, F>(fn: () => T, fallback: F): T | F {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
