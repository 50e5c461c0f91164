// The engine's small JSON state files as typed lowdb documents: read the way every home file is
// read (not through a link, only this user's regular file, bounded; a FIFO planted there never
// blocks: shim/home-file.mjs), checked against a zod schema or a decoding function, written by
// the atomic writer. One place reads, checks and writes them: catalog/installed.json, pins.json,
// skills.json, the audit's dropped.json. A change of an async document is a read-modify-write
// under its file lock, so two writers (the engine and a CLI, or two CLIs) never lose each other's
// change; the synchronous ones (pins, dropped) are read and written whole by their stores.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Low, LowSync, type Adapter, type SyncAdapter } from 'lowdb';
import type { z } from 'zod';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { readHomeFile, readHomeFileSync } from '../../shim/home-file.mjs';
import { writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions } from './atomic-file.ts';
import { withFileLock } from './file-lock.ts';

/** The largest state document read, in bytes, unless a document says otherwise: they hold names and versions, not data. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

/** How a document's parsed JSON becomes a T: a zod schema, or a function that throws a sentence saying what is wrong. */
export type DocumentDecoder<T> = z.ZodType<T> | ((raw: unknown) => T);

export interface DocumentOptions {
  /** Largest file read, in bytes. Defaults to MAX_DOCUMENT_BYTES (256 KB). */
  maxBytes?: number;
  /** Write the JSON indented by two spaces. Defaults to true. */
  pretty?: boolean;
  /** What a person is told to do with a file that is not a T. Defaults to "fix or move it". */
  fix?: string;
  /** How the synchronous documents are written. Defaults to a new owner-only file (NEW_FILE_MODE) replacing a link. */
  write?: Omit<AtomicWriteOptions, 'beforeRename'>;
}

/** Why a document could not be read: 'read' when the file could not be read, 'content' when it is not a T. */
export class DocumentError extends SwitchboardError {
  constructor(
    readonly kind: 'read' | 'content',
    message: string,
  ) {
    super('io-error', message);
  }
}

function decodeDocument<T>(file: string, text: string, decoder: DocumentDecoder<T>, fix: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new DocumentError('content', `${file} is not valid JSON (${(err as Error).message}); ${fix}.`);
  }
  if (typeof decoder === 'function') {
    try {
      return decoder(parsed);
    } catch (err) {
      if (err instanceof DocumentError) throw err;
      throw new DocumentError('content', `${file} ${(err as Error).message}; ${fix}.`);
    }
  }
  const r = decoder.safeParse(parsed);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new DocumentError('content', `${file} is not as Switchboard wrote it (${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'unexpected content'}); ${fix}.`);
}

/** A failed home-file read: null when the file does not exist, else a DocumentError. */
function missing(err: unknown): null {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw new DocumentError('read', (err as Error).message);
}

const encode = (data: unknown, pretty: boolean): string => (pretty ? JSON.stringify(data, null, 2) : JSON.stringify(data)) + '\n';

/** A lowdb adapter for JSON of type T: null when the file does not exist; a DocumentError saying why when it cannot be read or is not a T. */
export class AtomicJsonFile<T> implements Adapter<T> {
  constructor(
    readonly file: string,
    readonly decoder: DocumentDecoder<T>,
    readonly opts: DocumentOptions = {},
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = (await readHomeFile(this.file, { maxBytes: this.opts.maxBytes ?? MAX_DOCUMENT_BYTES })).toString('utf8');
    } catch (err) {
      return missing(err);
    }
    return decodeDocument(this.file, text, this.decoder, this.opts.fix ?? 'fix or move it');
  }

  async write(data: T): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, encode(data, this.opts.pretty ?? true));
  }
}

/** The same for the engine's synchronous stores (read at start, written on the call path); writes owner-only, into an existing folder. */
export class AtomicJsonFileSync<T> implements SyncAdapter<T> {
  constructor(
    readonly file: string,
    readonly decoder: DocumentDecoder<T>,
    readonly opts: DocumentOptions = {},
  ) {}

  read(): T | null {
    let text: string;
    try {
      text = readHomeFileSync(this.file, { maxBytes: this.opts.maxBytes ?? MAX_DOCUMENT_BYTES }).toString('utf8');
    } catch (err) {
      return missing(err);
    }
    return decodeDocument(this.file, text, this.decoder, this.opts.fix ?? 'fix or move it');
  }

  write(data: T): void {
    writeFileAtomicSync(this.file, encode(data, this.opts.pretty ?? true), this.opts.write ?? { mode: 0o600 });
  }
}

/** A synchronous typed document over `file`; `data` is `fallback` until read (and when the file is missing). */
export function jsonDocumentSync<T>(file: string, decoder: DocumentDecoder<T>, fallback: T, opts?: DocumentOptions): LowSync<T> {
  return new LowSync<T>(new AtomicJsonFileSync(path.resolve(file), decoder, opts), fallback);
}

/** A typed document over `file`; `data` is `fallback` until read (and when the file is missing). */
export function jsonDocument<T>(file: string, decoder: DocumentDecoder<T>, fallback: () => T, opts?: DocumentOptions): Low<T> {
  return new Low<T>(new AtomicJsonFile(path.resolve(file), decoder, opts), fallback());
}

/** Reads a synchronous document: `fallback` when the file is missing; throws a DocumentError when it cannot be read or is not a T. */
export function readDocumentSync<T>(doc: LowSync<T>, fallback: T): T {
  doc.data = fallback;
  doc.read();
  return doc.data;
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
