// @ts-check
// The one way the engine and the Node shim read a small file of the home (boot answers, the
// engine lock and start claim, the token, pins): only a regular file, owned by this user, of a
// bounded size, and never with a read that can block. Anything that can write in the home can
// leave something else under a known name: a named pipe there blocked the engine's event loop
// and the shims at a client's initialize until something opened it.
//
// The file is opened first (O_NONBLOCK: a FIFO opens at once; O_NOFOLLOW: a symbolic link does
// not open) and the opened descriptor checked, so nothing can be swapped in between the check
// and the read. native/shim/src/home_file.rs does the same in the native shim.
//
// Plain JavaScript with no dependencies: the shim imports it without a TypeScript loader, and
// the engine imports the same file.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** The largest home file read when the caller names no bound, in bytes. */
export const MAX_HOME_FILE_BYTES = 1 << 20;

// Windows has neither flag (nor FIFOs that an open blocks on); the descriptor checks still apply.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
// For a file the user may keep as a link (config.json and clients' files in a dotfiles setup):
// still never an open that waits for a writer.
const OPEN_FLAGS_FOLLOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
// Appending to a home file (a server's log, the records' active segment): a FIFO with no reader
// fails at once (ENXIO) instead of waiting for one, and one with a reader is refused by fstat.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** @typedef {{ maxBytes?: number, anyOwner?: boolean, followLinks?: boolean }} HomeReadOptions */

/**
 * The codes a home file is refused with as something not of ours: a link (ELOOP), a pipe nobody
 * reads (ENXIO, appending), not a regular file, another user's, too large.
 */
const NOT_OURS = new Set(['ELOOP', 'ENXIO', 'ENOTREG', 'EFOREIGN', 'EFBIG']);

/**
 * Whether `err` refused a home file as something planted in its place (see NOT_OURS), rather
 * than failing to read or write one (a missing file, a full disk, no permission).
 * @param {unknown} err
 */
export function isNotOurs(err) {
  return NOT_OURS.has(/** @type {{ code?: string } | null} */ (err)?.code ?? '');
}

/** @param {string} code @param {string} message */
function refused(code, message) {
  return Object.assign(new Error(message), { code });
}

/**
 * The bytes of `file`, read as above. Throws as readFileSync does (ENOENT when missing, ELOOP for
 * a symbolic link) and with code ENOTREG (not a regular file), EFOREIGN (another user's) or EFBIG
 * (over `maxBytes`), each with a sentence naming the file. `anyOwner` lets another user's file
 * be read (still only a regular file): for the records, which a read-only home may hold as
 * another user's and which are shown, never trusted. `followLinks` opens what a symbolic link
 * points at (still only a regular file): for the files a person may keep as links.
 * @param {string} file @param {HomeReadOptions} [opts]
 * @returns {Buffer}
 */
export function readHomeFileSync(file, opts = {}) {
  const max = opts.maxBytes ?? MAX_HOME_FILE_BYTES;
  const { fd, st } = openChecked(file, opts.followLinks ? OPEN_FLAGS_FOLLOW : OPEN_FLAGS, max, opts.anyOwner === true);
  try {
    // Read to the end, bounded again: the file may grow after the fstat.
    let buf = Buffer.allocUnsafe(Math.min(st.size, max) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > max) throw refused('EFBIG', `${file} is larger than ${max} bytes; it was not read.`);
      if (n === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(Math.min(buf.length, max + 1 - n))], Math.min(buf.length * 2, max + 1));
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * The checks on an opened home file (see readHomeFileSync).
 * @param {string} file @param {import('node:fs').Stats} st @param {number} max @param {boolean} anyOwner
 */
function checkOpened(file, st, max, anyOwner) {
  if (!st.isFile()) throw refused('ENOTREG', `${file} is not a regular file; it was not read.`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid !== undefined && st.uid !== uid && !anyOwner) throw refused('EFOREIGN', `${file} belongs to another user (uid ${st.uid}); it was not read.`);
  if (st.size > max) throw refused('EFBIG', `${file} is larger than ${max} bytes; it was not read.`);
}

/**
 * readHomeFileSync without blocking the event loop (config.json, the engine's documents,
 * clients' files): the same open flags and checks, then a read bounded the same way. Nothing in
 * the thread pool waits on a pipe either: a thread stuck there would also hold up the process's
 * exit, past any stop deadline.
 * @param {string} file @param {HomeReadOptions} [opts]
 * @returns {Promise<Buffer>}
 */
export async function readHomeFile(file, opts = {}) {
  const max = opts.maxBytes ?? MAX_HOME_FILE_BYTES;
  const handle = await open(file, opts.followLinks ? OPEN_FLAGS_FOLLOW : OPEN_FLAGS);
  try {
    const st = await handle.stat();
    checkOpened(file, st, max, opts.anyOwner === true);
    // Sized by the stat, one byte over to tell a file that grew after it; grown up to the bound.
    let buf = Buffer.allocUnsafe(Math.min(st.size, max) + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > max) throw refused('EFBIG', `${file} is larger than ${max} bytes; it was not read.`);
      if (n === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(Math.min(buf.length, max + 1 - n))], Math.min(buf.length * 2, max + 1));
    }
    return buf.subarray(0, n);
  } finally {
    await handle.close();
  }
}

/**
 * Opens a home file for appending (made with mode 0600 when missing), never waiting on a pipe
 * and never through a symbolic link: returns the descriptor of a regular file of this user, or
 * throws (ENXIO for a pipe nobody reads, ELOOP for a link, ENOTREG or EFOREIGN as above).
 * @param {string} file
 * @returns {number}
 */
export function openHomeAppendSync(file) {
  return openChecked(file, APPEND_FLAGS, Number.MAX_SAFE_INTEGER, false, 0o600).fd;
}

/**
 * Opens a home file for reading at offsets (the records' segments), with the same checks as
 * readHomeFileSync; the caller closes the descriptor.
 * @param {string} file @param {{ anyOwner?: boolean }} [opts]
 * @returns {number}
 */
export function openHomeReadSync(file, opts = {}) {
  return openChecked(file, OPEN_FLAGS, Number.MAX_SAFE_INTEGER, opts.anyOwner === true).fd;
}

/**
 * Opens `file` with `flags` and checks the descriptor (checkOpened); closed again when refused.
 * @param {string} file @param {number} flags @param {number} max @param {boolean} anyOwner @param {number} [mode]
 * @returns {{ fd: number, st: import('node:fs').Stats }}
 */
function openChecked(file, flags, max, anyOwner, mode) {
  const fd = openSync(file, flags, mode);
  try {
    const st = fstatSync(fd);
    checkOpened(file, st, max, anyOwner);
    return { fd, st };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * The text of `file` (UTF-8) as readHomeFileSync reads it, or undefined when it is missing or
 * refused.
 * @param {string} file @param {HomeReadOptions} [opts]
 * @returns {string | undefined}
 */
export function readHomeText(file, opts) {
  try {
    return readHomeFileSync(file, opts).toString('utf8');
  } catch {
    return undefined;
  }
}
