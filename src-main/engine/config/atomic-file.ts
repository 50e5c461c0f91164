// A lowdb text adapter whose writes survive crashes and concurrent writers.
//
// lowdb's own TextFile (via steno) writes to one fixed `.name.tmp` and renames it without fsync:
// two processes writing the same file share that temp name and can rename each other's half
// written bytes into place, and a power loss after the rename can leave an empty file. Here
// every write gets its own temp file (pid + random), is fsynced before the rename, and the
// folder is fsynced after it so the rename itself is durable.
import { randomBytes } from 'node:crypto';
import { open, readFile, readdir, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';

/** Mode for files this adapter creates: owner read/write only (config may hold tokens). */
export const NEW_FILE_MODE = 0o600;

const TEMP_SUFFIX = '.tmp';

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
    try {
      return await readFile(this.#file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async write(text: string): Promise<void> {
    // Write through a symlink (dotfile setups) rather than replacing the link with a plain file.
    const target = await realpath(this.#file).catch(() => this.#file);
    const dir = path.dirname(target);
    const mode = await stat(target).then(
      (s) => s.mode & 0o777,
      () => NEW_FILE_MODE,
    );
    const temp = tempName(target);
    const handle = await open(temp, 'wx', mode);
    try {
      try {
        await handle.writeFile(text, 'utf8');
        // The umask may have narrowed the mode we asked for; an existing file's mode is kept exactly.
        if (process.platform !== 'win32') await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await renameWithRetry(temp, target);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    await syncDir(dir);
  }

  /** Removes temp files left by writers that died mid-write (their pid is gone). */
  async removeStaleTemps(): Promise<void> {
    const dir = path.dirname(this.#file);
    const prefix = `.${path.basename(this.#file)}.`;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
      const pid = Number(name.slice(prefix.length).split('.')[0]);
      if (Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid)) await unlink(path.join(dir, name)).catch(() => undefined);
    }
  }
}

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

async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a folder for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (err) {
    // Some file systems (certain network and FUSE mounts) do not support fsync on folders.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EISDIR') throw err;
  } finally {
    await handle.close();
  }
}
