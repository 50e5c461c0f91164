import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtomicTextFile, removeStaleTemps, writeFileAtomic, writeFileAtomicSync } from '../../../src-main/engine/config/atomic-file.ts';

const posix = process.platform !== 'win32';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-atomic-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('AtomicTextFile', () => {
  it('reads null for a file that does not exist', async () => {
    expect(await new AtomicTextFile(path.join(dir, 'nope.json')).read()).toBeNull();
  });

  it('writes the whole text and reads it back', async () => {
    const file = path.join(dir, 'a.json');
    const adapter = new AtomicTextFile(file);
    await adapter.write('{"a": 1}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"a": 1}\n');
    expect(await adapter.read()).toBe('{"a": 1}\n');
  });

  it.runIf(posix)('creates new files readable by the owner only', async () => {
    const file = path.join(dir, 'new.json');
    await new AtomicTextFile(file).write('{}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.runIf(posix)('keeps the mode of an existing file', async () => {
    const file = path.join(dir, 'shared.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o640);
    await new AtomicTextFile(file).write('{"b": 2}');
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it('gives every write its own temp file, so overlapping writers never collide, and leaves none behind', async () => {
    const file = path.join(dir, 'c.json');
    // Two adapters on one file stand in for two processes; a shared temp name would make some
    // of these renames fail or publish a mix of two writes.
    const writers = [new AtomicTextFile(file), new AtomicTextFile(file)];
    const versions = Array.from({ length: 40 }, (_, i) => `${JSON.stringify({ v: i, pad: String(i).repeat(5000) })}\n`);
    await Promise.all(versions.map((text, i) => writers[i % 2]!.write(text)));
    expect(versions).toContain(readFileSync(file, 'utf8'));
    expect(readdirSync(dir)).toEqual(['c.json']);
  });

  it.runIf(posix)('writes through a symlink instead of replacing it', async () => {
    const real = path.join(dir, 'real.json');
    const link = path.join(dir, 'link.json');
    writeFileSync(real, '{}');
    symlinkSync(real, link);
    await new AtomicTextFile(link).write('{"via": "link"}');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe('{"via": "link"}');
  });

  it('removes temp files of writers that died, and keeps those of live ones', async () => {
    const file = path.join(dir, 'd.json');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadTemp = `.d.json.${dead.stdout}.abcdef.tmp`;
    const liveTemp = `.d.json.${process.pid}.abcdef.tmp`;
    writeFileSync(path.join(dir, deadTemp), 'half');
    writeFileSync(path.join(dir, liveTemp), 'busy');
    await new AtomicTextFile(file).removeStaleTemps();
    expect(readdirSync(dir)).toEqual([liveTemp]);
  });
});

describe('writeFileAtomic', () => {
  it('leaves the old file whole when the writer is killed between write and rename, and the next open cleans its temp file', async () => {
    const file = path.join(dir, 'pins.json');
    writeFileSync(file, 'old\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'die-before-rename.ts'), file, 'new\n'], {
      encoding: 'utf8',
    });
    expect(child.signal).toBe('SIGKILL');
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    const left = readdirSync(dir).filter((n) => n !== 'pins.json');
    expect(left).toHaveLength(1);
    expect(readFileSync(path.join(dir, left[0]!), 'utf8')).toBe('new\n');
    await removeStaleTemps(file);
    expect(readdirSync(dir)).toEqual(['pins.json']);
  });

  it('keeps the old file and removes its temp file when the check before the rename refuses', async () => {
    const file = path.join(dir, 'client.json');
    writeFileSync(file, 'theirs');
    const refused = new Error('changed meanwhile');
    await expect(writeFileAtomic(file, 'ours', { beforeRename: async () => Promise.reject(refused) })).rejects.toBe(refused);
    expect(readFileSync(file, 'utf8')).toBe('theirs');
    expect(readdirSync(dir)).toEqual(['client.json']);
  });

  it('removes its temp file when the write itself fails', async () => {
    const target = path.join(dir, 'a-folder');
    mkdirSync(target);
    // Renaming a file over a folder fails after the temp file is written.
    await expect(writeFileAtomic(target, 'x')).rejects.toThrow();
    expect(() => writeFileAtomicSync(target, 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['a-folder']);
  });

  it.runIf(posix)('creates owner-only files by default, and with keepMode keeps an existing mode exactly', async () => {
    const fresh = path.join(dir, 'secrets.json');
    writeFileAtomicSync(fresh, '{}');
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const shared = path.join(dir, 'settings.json');
    writeFileSync(shared, '{}');
    chmodSync(shared, 0o664);
    await writeFileAtomic(shared, '{"a":1}', { mode: 0o644, keepMode: true });
    expect(statSync(shared).mode & 0o777).toBe(0o664);
    expect(readFileSync(shared, 'utf8')).toBe('{"a":1}');
  });

  it.runIf(posix)('replaces a symlink unless told to follow it', async () => {
    const real = path.join(dir, 'real.json');
    const link = path.join(dir, 'link.json');
    writeFileSync(real, 'real');
    symlinkSync(real, link);
    writeFileAtomicSync(link, 'followed', { followSymlinks: true });
    expect(readFileSync(real, 'utf8')).toBe('followed');
    writeFileAtomicSync(link, 'replaced');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(real, 'utf8')).toBe('followed');
  });
});
