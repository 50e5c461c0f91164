// What Switchboard remembers about each client file it wrote: the last write (for undo) and the
// entries it put there (to report drift when someone else changes them). One small JSON file per
// client under <home>/clients/, written atomically.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isNotOurs, readHomeFile } from '../../shim/home-file.mjs';
import { OWN_FILE_READ, writeFileAtomic } from '../config/atomic-file.ts';

export interface WriteRecord {
  /** The client file we wrote. */
  file: string;
  /** sha256 (hex) of the bytes we wrote, to tell whether anyone touched the file since. */
  sha256: string;
  /** Copy of the file as it was before our write; null when there was no file. */
  backup: string | null;
  time: string;
}

export interface EntryRecord {
  /** The entry exactly as we wrote it. */
  entry: unknown;
  /**
   * What our connect had to create around the entry: 'container' when the servers object did not
   * exist, 'empty-file' when the whole file was empty. Disconnect removes what connect added.
   */
  created: 'none' | 'container' | 'empty-file';
}

export interface ClientState {
  lastWrite?: WriteRecord;
  /** Keyed by profile name. */
  entries: Record<string, EntryRecord>;
}

export function clientStateFile(home: string, client: string): string {
  return path.join(home, 'clients', `${client}.json`);
}

export function backupDir(home: string, client: string): string {
  return path.join(home, 'backups', client);
}

export async function readClientState(home: string, client: string): Promise<ClientState> {
  try {
    const raw = JSON.parse((await readHomeFile(clientStateFile(home, client), OWN_FILE_READ)).toString('utf8')) as Partial<ClientState>;
    return { entries: raw.entries ?? {}, ...(raw.lastWrite ? { lastWrite: raw.lastWrite } : {}) };
  } catch (err) {
    // A missing or damaged record (or something planted in its place) only costs undo/drift
    // history; it never blocks a connect.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || isNotOurs(err) || err instanceof SyntaxError) return { entries: {} };
    throw err;
  }
}

export async function writeClientState(home: string, client: string, state: ClientState): Promise<void> {
  const file = clientStateFile(home, client);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}
