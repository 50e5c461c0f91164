// How the engine and the Node shim read a file of the home (home-file.mjs): a small regular file
// of this user only, and never a read that waits. Real files, a real FIFO, a real chown.
import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, constants, openSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openHomeAppendSync, openHomeReadSync, readHomeFile, readHomeFileSync, readHomeText } from '../../src-main/shim/home-file.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-home-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'read';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
};

describe('a home file', () => {
  it('is read when it is a regular file of this user within the bound', () => {
    const f = path.join(dir, 'plain');
    writeFileSync(f, 'x'.repeat(100_000));
    expect(readHomeText(f)).toBe('x'.repeat(100_000));
    expect(readHomeFileSync(f, { maxBytes: 100_000 }).length).toBe(100_000);
    expect(code(() => readHomeFileSync(f, { maxBytes: 99_999 }))).toBe('EFBIG');
    expect(code(() => readHomeFileSync(path.join(dir, 'missing')))).toBe('ENOENT');
  });

  it.skipIf(process.platform === 'win32')('is refused at once when it is a FIFO, a folder or a link', () => {
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const t0 = Date.now();
    // readFileSync would wait here until something opened the pipe for writing.
    expect(code(() => readHomeFileSync(fifo))).toBe('ENOTREG');
    expect(Date.now() - t0).toBeLessThan(1000);
    mkdirSync(path.join(dir, 'folder'));
    expect(code(() => readHomeFileSync(path.join(dir, 'folder')))).toBe('ENOTREG');
    writeFileSync(path.join(dir, 'target'), 'x');
    symlinkSync(path.join(dir, 'target'), path.join(dir, 'link'));
    expect(code(() => readHomeFileSync(path.join(dir, 'link')))).toBe('ELOOP');
    expect(readHomeText(path.join(dir, 'link'))).toBeUndefined();
  });

  it.skipIf(process.getuid?.() !== 0)("is refused when it is another user's", () => {
    const f = path.join(dir, 'foreign');
    writeFileSync(f, 'x');
    chownSync(f, 65534, 65534);
    expect(code(() => readHomeFileSync(f))).toBe('EFOREIGN');
  });
});

const codeOf = async (p: Promise<unknown>) => p.then(() => 'read', (err: NodeJS.ErrnoException) => err.code);

describe.skipIf(process.platform === 'win32')('a file the person keeps (config.json, a client’s file): links followed, pipes never waited on', () => {
  it('is read whole through a link, sized past its stat when unbounded', async () => {
    const f = path.join(dir, 'big.json');
    writeFileSync(f, 'y'.repeat(3 << 20));
    symlinkSync(f, path.join(dir, 'dotfile-link.json'));
    expect((await readHomeFile(path.join(dir, 'dotfile-link.json'), { followLinks: true, maxBytes: Infinity })).length).toBe(3 << 20);
    expect(readHomeFileSync(path.join(dir, 'dotfile-link.json'), { followLinks: true, maxBytes: Infinity }).length).toBe(3 << 20);
    expect(await codeOf(readHomeFile(path.join(dir, 'dotfile-link.json')))).toBe('ELOOP');
    expect(await codeOf(readHomeFile(f, { maxBytes: (3 << 20) - 1 }))).toBe('EFBIG');
  });

  it('is refused at once when it is a pipe, or a link to one, without a thread left waiting', async () => {
    const fifo = path.join(dir, 'config-fifo.json');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, path.join(dir, 'link-to-fifo.json'));
    const t0 = Date.now();
    // fs.promises.readFile would never settle here, and its thread would hold up the process's exit.
    expect(await codeOf(readHomeFile(fifo, { followLinks: true }))).toBe('ENOTREG');
    expect(await codeOf(readHomeFile(path.join(dir, 'link-to-fifo.json'), { followLinks: true }))).toBe('ENOTREG');
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe.skipIf(process.platform === 'win32')('a home file opened to append (a server’s log, a record segment) or to read at offsets', () => {
  it('appends to a regular file of this user, made owner-only when missing', () => {
    const f = path.join(dir, 'server.log');
    for (const line of ['one\n', 'two\n']) {
      const fd = openHomeAppendSync(f);
      writeSync(fd, line);
      closeSync(fd);
    }
    expect(readFileSync(f, 'utf8')).toBe('one\ntwo\n');
    const fd = openHomeReadSync(f);
    closeSync(fd);
  });

  it('is refused at once for a pipe (with or without a reader), a link or a folder', () => {
    const fifo = path.join(dir, 'log-fifo');
    execFileSync('mkfifo', [fifo]);
    const t0 = Date.now();
    // openSync(fifo, 'a') would wait here until something opened the pipe for reading.
    expect(code(() => openHomeAppendSync(fifo))).toBe('ENXIO');
    expect(code(() => openHomeReadSync(fifo))).toBe('ENOTREG');
    // With a reader the open succeeds, and the descriptor's check refuses it.
    const reader = fifoReader(fifo);
    try {
      expect(code(() => openHomeAppendSync(fifo))).toBe('ENOTREG');
    } finally {
      closeSync(reader);
    }
    expect(Date.now() - t0).toBeLessThan(1000);
    writeFileSync(path.join(dir, 'elsewhere.log'), 'keep');
    symlinkSync(path.join(dir, 'elsewhere.log'), path.join(dir, 'linked.log'));
    expect(code(() => openHomeAppendSync(path.join(dir, 'linked.log')))).toBe('ELOOP');
    expect(readFileSync(path.join(dir, 'elsewhere.log'), 'utf8')).toBe('keep');
    mkdirSync(path.join(dir, 'folder.log'));
    expect(code(() => openHomeAppendSync(path.join(dir, 'folder.log')))).toBe('EISDIR');
  });
});

/** A reader on a FIFO that does not wait for a writer (O_NONBLOCK). */
function fifoReader(fifo: string): number {
  return openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
}

