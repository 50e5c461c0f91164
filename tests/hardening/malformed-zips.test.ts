// Malformed bundle zips (issue 29, finding 10): whatever is wrong with a .mcpb's bytes — a Zip64
// extra field shorter than it claims, a file cut anywhere, bytes flipped anywhere — the bundle is
// refused with its one sentence (or, where the damage is harmless, read whole), never a crash.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { readBundle } from '../../src-main/engine/catalog/bundle.ts';
import { markManifest, markServer, zip } from '../engine/catalog/bundle-zip.ts';
import { runCli } from '../engine/catalog/run-cli.ts';
import { cleanupHomes, makeHome } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

const REFUSAL = /^This is not a bundle Switchboard can install: .+\. Nothing was written\.$/s;

/**
 * The 75 bytes: an end-of-central-directory record whose comment holds the central
 * directory (so it is well-formed), then one entry whose sizes and offset say "see Zip64" and
 * whose Zip64 extra field claims 16 bytes but has 2.
 */
function shortZip64Extra(): Buffer {
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8); // entries on this disk
  eocd.writeUInt16LE(1, 10); // entries in all
  eocd.writeUInt32LE(53, 12); // central directory size
  eocd.writeUInt32LE(22, 16); // central directory offset
  eocd.writeUInt16LE(53, 20); // comment length: the rest of the file
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(45, 6);
  central.writeUInt32LE(0xffffffff, 20); // compressed size: in the Zip64 field
  central.writeUInt32LE(0xffffffff, 24); // size: in the Zip64 field
  central.writeUInt16LE(1, 28); // name length
  central.writeUInt16LE(6, 30); // extra field length
  central.writeUInt32LE(0xffffffff, 42); // local header offset: in the Zip64 field
  const extra = Buffer.from([0x01, 0x00, 0x10, 0x00, 0xaa, 0xbb]); // id 1, claims 16 bytes, has 2
  return Buffer.concat([eocd, central, Buffer.from('a'), extra]);
}

/** A small PRNG with a fixed seed (mulberry32), so every run flips the same bytes. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How readBundle ended for `bytes`: read, refused with the sentence, or something else (the bug). */
async function outcome(bytes: Uint8Array): Promise<'read' | 'refused' | string> {
  try {
    await readBundle(bytes, 'linux');
    return 'read';
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof Error && (err as { code?: string }).code === 'bad-request' && REFUSAL.test(message)) return 'refused';
    return `${err instanceof Error ? err.name : typeof err}: ${message}`;
  }
}

describe('malformed bundle zips', () => {
  hardeningCase('attack', 'a 75-byte zip whose Zip64 extra field is shorter than it claims is refused with the bundle\'s sentence', async (tally) => {
    const home = makeHome({ servers: {}, profiles: {} });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-hard-zip64-'));
    try {
      const bytes = shortZip64Extra();
      expect(bytes.length).toBe(75);
      await tally.attempt('read in the engine: the refusal sentence', async () => {
        expect(await outcome(bytes)).toBe('refused');
      });
      await tally.attempt('switchboard install FILE --yes: fails with the sentence, nothing written', async () => {
        const file = path.join(dir, 'short.mcpb');
        writeFileSync(file, bytes);
        const r = await runCli(home, ['install', file, '--yes']);
        expect(r.code).not.toBe(0);
        expect(r.stderr.trim()).toMatch(/^switchboard: This is not a bundle Switchboard can install: it is not a readable zip file \(.+\)\. Nothing was written\.$/);
        expect(r.stderr).not.toContain('RangeError');
        expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).servers).toEqual({});
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  hardeningCase('attack', 'every truncation and 3,000 seeded byte flips of a bundle are refused with the sentence or read whole, never a crash', async (tally) => {
    const valid = zip({ 'manifest.json': JSON.stringify(markManifest('weather', '1.0.0')), 'server.js': markServer('FUZZ'), 'lib/data.txt': 'x'.repeat(300) });
    expect(await outcome(valid)).toBe('read');
    const strays: unknown[] = [];
    const onStray = (err: unknown) => strays.push(err);
    process.on('unhandledRejection', onStray);
    process.on('uncaughtException', onStray);
    const counts = { read: 0, refused: 0 };
    const check = async (label: string, variants: Iterable<[string, Uint8Array]>) => {
      await tally.attempt(label, async () => {
        const wrong: string[] = [];
        for (const [what, bytes] of variants) {
          const o = await outcome(bytes);
          if (o === 'read' || o === 'refused') counts[o]++;
          else if (wrong.push(`${what}: ${o.slice(0, 200)}`) >= 5) break;
        }
        expect(wrong).toEqual([]);
      });
    };
    try {
      await check(`every truncation (0 to ${valid.length - 1} of ${valid.length} bytes)`, (function* () {
        for (let n = 0; n < valid.length; n++) yield [`cut at ${n}`, valid.subarray(0, n)] as [string, Uint8Array];
      })());
      const rand = random(29);
      await check('3,000 copies with 1 to 4 random bytes flipped (seed 29)', (function* () {
        for (let k = 0; k < 3000; k++) {
          const bytes = Buffer.from(valid);
          const flips: string[] = [];
          for (let f = 1 + Math.floor(rand() * 4); f > 0; f--) {
            const at = Math.floor(rand() * bytes.length);
            bytes[at] = bytes[at]! ^ (1 + Math.floor(rand() * 255));
            flips.push(String(at));
          }
          yield [`flipped at ${flips.join(',')}`, bytes] as [string, Uint8Array];
        }
      })());
      await check('the last 200 bytes (the central directory) each set to 0x00 and 0xff', (function* () {
        for (let at = Math.max(0, valid.length - 200); at < valid.length; at++) {
          for (const v of [0x00, 0xff]) {
            const bytes = Buffer.from(valid);
            bytes[at] = v;
            yield [`byte ${at} = ${v}`, bytes] as [string, Uint8Array];
          }
        }
      })());
      await new Promise((r) => setTimeout(r, 50));
      await tally.attempt('no unhandled rejection or exception on the way', () => {
        expect(strays.map(String)).toEqual([]);
      });
      tally.notes!.push(`${counts.refused} refused, ${counts.read} read whole`);
    } finally {
      process.off('unhandledRejection', onStray);
      process.off('uncaughtException', onStray);
    }
  }, 120_000);
});
