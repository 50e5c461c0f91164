import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtomicTextFile } from '../../../src-main/engine/config/atomic-file.ts';

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
