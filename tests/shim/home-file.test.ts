// How the engine and the Node shim read a file of the home (home-file.mjs): a small regular file
// of this user only, and never a read that waits. Real files, a real FIFO, a real chown.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHomeFileSync, readHomeText } from '../../src-main/shim/home-file.mjs';

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
