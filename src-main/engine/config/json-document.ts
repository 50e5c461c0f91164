// The engine's small JSON state files as typed lowdb documents: read the way every home file is
// read (not through a link, only this user's regular file, bounded; a FIFO planted there never
// blocks: shim/home-file.mjs), checked against a zod schema, written by the atomic writer. One
// place reads, checks and writes them; a change is a read-modify-write under the document's
// file lock, so two writers (the engine and a CLI, or two CLIs) never lose each other's change.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Low, type Adapter } from 'lowdb';
import type { z } from 'zod';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { readHomeFile } from '../../shim/home-file.mjs';
import { writeFileAtomic } from './atomic-file.ts';
import { withFileLock } from './file-lock.ts';

/** The largest state document read, in bytes: they hold names and versions, not data. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

/** A lowdb adapter for JSON of type T: null when the file does not exist; a clear error when it is not a T. */
export class AtomicJsonFile<T> implements Adapter<T> {
  constructor(
    readonly file: string,
    readonly schema: z.ZodType<T>,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = (await readHomeFile(this.file, { maxBytes: MAX_DOCUMENT_BYTES })).toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new SwitchboardError('io-error', (err as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new SwitchboardError('io-error', `${this.file} is not valid JSON (${(err as Error).message}); fix or move it.`);
    }
    const r = this.schema.safeParse(parsed);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new SwitchboardError('io-error', `${this.file} is not as Switchboard wrote it (${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'unexpected content'}); fix or move it.`);
    }
    return r.data;
  }

  async write(data: T): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, JSON.stringify(data, null, 2) + '\n');
  }
}

/** A typed document over `file`; `data` is `fallback` until read (and when the file is missing). */
export function jsonDocument<T>(file: string, schema: z.ZodType<T>, fallback: () => T): Low<T> {
  return new Low<T>(new AtomicJsonFile(path.resolve(file), schema), fallback());
}

/**
 * Reads the document; `onError` says what to use when it cannot be read or is not a T (default:
 * throw the sentence saying why).
 */
export async function readDocument<T>(doc: Low<T>, fallback: () => T, onError?: (err: Error) => T): Promise<T> {
  doc.data = fallback();
  try {
    await doc.read();
    return doc.data;
  } catch (err) {
    if (!onError) throw err;
    doc.data = onError(err as Error);
    return doc.data;
  }
}

/**
 * One change to the document: read under its lock (`<file>.lock`), `mutate` the fresh data
 * (a missing file reads as `fallback()`), write. A document that cannot be read is not written
 * over unless `onError` gives data to start from.
 */
export async function updateDocument<T>(doc: Low<T>, fallback: () => T, mutate: (data: T) => T | void, onError?: (err: Error) => T): Promise<T> {
  const file = (doc.adapter as AtomicJsonFile<T>).file;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  return withFileLock(`${file}.lock`, async () => {
    const current = await readDocument(doc, fallback, onError);
    const next = mutate(current) ?? current;
    doc.data = next;
    await doc.write();
    return next;
  });
}
