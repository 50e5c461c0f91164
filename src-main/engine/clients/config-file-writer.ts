// The only way Switchboard changes another program's config file: read a snapshot, compute the
// new text, then back up, write a temp file, check nobody changed the original meanwhile, rename
// over it, and read it back. Callers edit text (never re-serialise a parsed object) so that
// everything outside their own entry stays byte for byte.
import { createHash } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import { access, mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { readHomeFile } from '../../shim/home-file.mjs';
import { OWN_FILE_READ, writeFileAtomic } from '../config/atomic-file.ts';
import { ClientFileError, fsErrorToClientError } from './client-errors.ts';
import { backupDir, type WriteRecord } from './client-state.ts';

export interface ClientFile {
  path: string;
  exists: boolean;
  /** Exactly the bytes read (empty when the file does not exist). */
  bytes: Buffer;
  /** The decoded text without its BOM. */
  text: string;
  bom: boolean;
  eol: '\n' | '\r\n';
  /** One level of indentation as the file uses it (two spaces when it cannot tell). */
  indent: string;
  /** Permission bits, to give the rewritten file the same ones. */
  mode: number | null;
}

/** Backups kept per client; older ones are deleted after each write. */
export const MAX_BACKUPS = 20;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function readClientFile(file: string): Promise<ClientFile> {
  let bytes: Buffer;
  let mode: number | null = null;
  try {
    bytes = await readHomeFile(file, OWN_FILE_READ);
    mode = (await stat(file)).mode & 0o7777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { path: file, exists: false, bytes: Buffer.alloc(0), text: '', bom: false, eol: '\n', indent: '  ', mode: null };
    }
    throw fsErrorToClientError(err, file, 'read');
  }
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    // Re-encoding text that was not UTF-8 would silently change bytes we promised to keep.
    throw new ClientFileError('unparseable', `${file} is not UTF-8 text; Switchboard left it unchanged.`);
  }
  const bom = decoded.charCodeAt(0) === 0xfeff;
  const text = bom ? decoded.slice(1) : decoded;
  return { path: file, exists: true, bytes, text, bom, eol: detectEol(text), indent: detectIndent(text), mode };
}

export function detectEol(text: string): '\n' | '\r\n' {
  const lf = text.indexOf('\n');
  return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n';
}

export function detectIndent(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  if (!m) return '  ';
  return m[1]!.startsWith('\t') ? '\t' : m[1]!;
}

export function encodeText(file: ClientFile, text: string): Buffer {
  return Buffer.from((file.bom ? '\ufeff' : '') + text, 'utf8');
}

export interface WriteOptions {
  home: string;
  client: string;
  /** Checks the file as read back after the rename; returns a problem sentence or null. */
  verify?: (text: string) => string | null;
}

/**
 * Replaces `file` with `newText` (BOM kept). Throws ClientFileError and leaves the file as it was
 * when it is read-only, not writable, or changed since `file` was read.
 */
export async function writeClientFile(file: ClientFile, newText: string, opts: WriteOptions): Promise<WriteRecord> {
  const target = file.path;
  const dir = path.dirname(target);
  await assertWritable(file);
  const backup = file.exists ? await makeBackup(file, opts.home, opts.client) : null;
  const bytes = encodeText(file, newText);
  await mkdir(dir, { recursive: true }).catch((err: unknown) => {
    throw fsErrorToClientError(err, dir, 'create the folder');
  });
  await replaceAtomically(target, bytes, file.mode ?? 0o644, async () => {
    const now = await readClientFile(target);
    if (now.exists !== file.exists || !now.bytes.equals(file.bytes)) {
      throw new ClientFileError(
        'changed-during-write',
        `${target} was changed by another program while Switchboard was editing it. Switchboard left it as that program wrote it; try again.`,
      );
    }
  });
  const written = await readHomeFile(target, OWN_FILE_READ);
  const problem = opts.verify?.(utf8.decode(written).replace(/^\ufeff/, '')) ?? null;
  if (problem) throw new ClientFileError('verify-failed', `${target} was written but reads back wrong: ${problem}`);
  return { file: target, sha256: sha256(written), backup, time: new Date().toISOString() };
}

export async function assertWritable(file: ClientFile): Promise<void> {
  if (file.exists && file.mode !== null && (file.mode & 0o222) === 0) {
    // Root could still replace it; a file marked read-only was locked by its owner on purpose.
    throw new ClientFileError(
      'read-only',
      `${file.path} is read-only, so Switchboard did not change it. Make it writable (for example chmod u+w) and try again.`,
    );
  }
  const probe = file.exists ? file.path : await nearestExisting(path.dirname(file.path));
  try {
    await access(probe, fsc.W_OK);
    if (file.exists) await access(path.dirname(file.path), fsc.W_OK);
  } catch (err) {
    throw fsErrorToClientError(err, file.exists ? file.path : probe, 'write to');
  }
}

async function nearestExisting(dir: string): Promise<string> {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      await stat(d);
      return d;
    } catch {
      if (path.dirname(d) === d) return d;
    }
  }
}

/** Writes `bytes` over `target` atomically (an existing file keeps its mode); `check` runs just before the rename and may refuse it. */
export async function replaceAtomically(target: string, bytes: Buffer, mode: number, check?: () => Promise<void>): Promise<void> {
  try {
    await writeFileAtomic(target, bytes, { mode, keepMode: true, beforeRename: check });
  } catch (err) {
    throw err instanceof ClientFileError ? err : fsErrorToClientError(err, target, 'write');
  }
}

/** Copies the file's bytes as read into <home>/backups/<client>/<timestamp><ext>. */
export async function makeBackup(file: Pick<ClientFile, 'path' | 'bytes'>, home: string, client: string): Promise<string> {
  const dir = backupDir(home, client);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const ext = path.extname(file.path) || '.bak';
  for (let n = 0; ; n++) {
    const name = `${stamp}${n ? `-${n}` : ''}${ext}`;
    const dest = path.join(dir, name);
    try {
      const fh = await open(dest, 'wx', 0o600);
      try {
        await fh.writeFile(file.bytes);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await pruneBackups(dir);
      return dest;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

async function pruneBackups(dir: string): Promise<void> {
  const names = (await readdir(dir)).sort();
  for (const name of names.slice(0, Math.max(0, names.length - MAX_BACKUPS))) {
    await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

/**
 * Puts the file back as it was before `record`'s write. Refuses when the file no longer holds
 * exactly what we wrote: restoring then would throw away someone else's change.
 */
export async function restoreBackup(record: WriteRecord): Promise<void> {
  const now = await readClientFile(record.file);
  if (!now.exists || sha256(now.bytes) !== record.sha256) {
    throw new ClientFileError(
      'changed-since-write',
      `${record.file} was changed after Switchboard's last write (${record.time}), so undo would lose those changes. Nothing was restored.`,
    );
  }
  if (record.backup === null) {
    await unlink(record.file).catch((err: unknown) => {
      throw fsErrorToClientError(err, record.file, 'remove');
    });
    return;
  }
  const backup = record.backup;
  const before = await readHomeFile(backup, OWN_FILE_READ).catch((err: unknown) => {
    throw fsErrorToClientError(err, backup, 'read');
  });
  await assertWritable(now);
  await replaceAtomically(record.file, before, now.mode ?? 0o644);
}

