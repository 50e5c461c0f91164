import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../src-main/engine/config/store.ts';
import { makeVersion } from './fixtures/versions.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');

let dir: string;
let children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-config-mp-'));
});

afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children = [];
  rmSync(dir, { recursive: true, force: true });
});

function startChild(script: string, args: string[]): { child: ChildProcess; output: () => string; ready: Promise<void>; closed: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures', script), ...args], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const check = (): void => {
      if (out.includes('ready\n')) resolve();
    };
    child.stdout!.on('data', check);
    closed.then(() => reject(new Error(`child exited before it was ready: ${err}`)), () => undefined);
  });
  return { child, output: () => (err ? `${out}\n[stderr]\n${err}` : out), ready, closed };
}

describe('config store across processes', () => {
  it('serialises two writer processes with the lock file so no change is lost', async () => {
    const file = path.join(dir, 'config.json');
    writeFileSync(file, '{"servers": {}, "profiles": {}}\n');
    const a = startChild('set-many.ts', [file, dir, 'a', '50']);
    const b = startChild('set-many.ts', [file, dir, 'b', '50']);
    await Promise.all([a.ready, b.ready]);
    a.child.stdin!.write('go\n');
    b.child.stdin!.write('go\n');
    const [codeA, codeB] = await Promise.all([a.closed, b.closed]);
    expect(codeA, a.output()).toBe(0);
    expect(codeB, b.output()).toBe(0);

    const extra = (JSON.parse(readFileSync(file, 'utf8')) as { extra: Record<string, number> }).extra;
    const expected: Record<string, number> = {};
    for (let i = 0; i < 50; i++) {
      expected[`a${i}`] = i;
      expected[`b${i}`] = i;
    }
    expect(Object.keys(extra)).toHaveLength(100);
    expect(extra).toEqual(expected);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'config.last-good.json']);
  }, 60_000);

  it('leaves a complete saved version in config.json whenever a writer is killed with SIGKILL', async () => {
    const file = path.join(dir, 'config.json');
    writeFileSync(file, `${JSON.stringify(makeVersion('0:0'), null, 2)}\n`);
    let saves = 0;
    for (let round = 1; round <= 30; round++) {
      const c = startChild('save-loop.ts', [file, dir, String(round)]);
      await c.ready;
      await new Promise((r) => setTimeout(r, Math.random() * 150));
      c.child.kill('SIGKILL');
      await c.closed;

      const text = readFileSync(file, 'utf8');
      const saved = [...c.output().matchAll(/^saved (\S+)$/gm)].map((m) => m[1]!);
      saves += saved.length;
      const onDisk = JSON.parse(text) as { version: string };
      expect(onDisk).toEqual(makeVersion(onDisk.version));
      // What the child reported as saved is on disk: the newest report or the one being written after it.
      const last = saved.at(-1);
      if (last) {
        const [, n] = last.split(':').map(Number);
        expect([`${round}:${n}`, `${round}:${n! + 1}`]).toContain(onDisk.version);
      }
    }
    expect(saves).toBeGreaterThan(0);

    // A later store cleans up the temp files and the lock the killed writers left behind.
    const store = await ConfigStore.open({ file, stateDir: dir, watch: false });
    await store.set('servers', {});
    store.dispose();
    expect(readdirSync(dir).filter((n) => n !== 'config.json' && n !== 'config.last-good.json')).toEqual([]);
  }, 180_000);
});
