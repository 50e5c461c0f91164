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

/** @param {string} code @param {string} message */
function refused(code, message) {
  return Object.assign(new Error(message), { code });
}

/**
 * The bytes of `file`, read as above. Throws as readFileSync does (ENOENT when missing, ELOOP for
 * a symbolic link) and with code ENOTREG (not a regular file), EFOREIGN (another user's) or EFBIG
 * (over `maxBytes`), each with a sentence naming the file. `anyOwner` lets another user's file
 * be read (still only a regular file): for the records, which a read-only home may hold as
 * another user's and which are shown, never trusted.
 * @param {string} file @param {{ maxBytes?: number, anyOwner?: boolean }} [opts]
 * @returns {Buffer}
 */
export function readHomeFileSync(file, opts = {}) {
  const max = opts.maxBytes ?? MAX_HOME_FILE_BYTES;
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    checkOpened(file, st, max, opts.anyOwner === true);
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
 * readHomeFileSync without blocking the event loop (the engine's documents,
 * engine/config/json-document.ts): the same open flags and checks, then one bounded read.
 * @param {string} file @param {{ maxBytes?: number, anyOwner?: boolean }} [opts]
 * @returns {Promise<Buffer>}
 */
export async function readHomeFile(file, opts = {}) {
  const max = opts.maxBytes ?? MAX_HOME_FILE_BYTES;
  const handle = await open(file, OPEN_FLAGS);
  try {
    checkOpened(file, await handle.stat(), max, opts.anyOwner === true);
    // One byte over the bound tells a file that grew after the stat.
    const buf = Buffer.allocUnsafe(max + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > max) throw refused('EFBIG', `${file} is larger than ${max} bytes; it was not read.`);
    }
    return buf.subarray(0, n);
  } finally {
    await handle.close();
  }
}

/**
 * The text of `file` (UTF-8) as readHomeFileSync reads it, or undefined when it is missing or
 * refused.
 * @param {string} file @param {{ maxBytes?: number, anyOwner?: boolean }} [opts]
 * @returns {string | undefined}
 */
export function readHomeText(file, opts) {
  try {
    return readHomeFileSync(file, opts).toString('utf8');
  } catch {
    return undefined;
  }
}
