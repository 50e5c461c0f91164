// Result handles under attack: code that tries to read another profile's kept
// results, to reach files through a handle, or to swamp the host with reads.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { ExecResult } from '../../src-shared/api.ts';
import { SocketControlClient } from '../../src-main/cli/engine-client.ts';
import { homePaths } from '../../src-main/engine/platform/home.ts';
import { cleanupHomes, fixtureServer, makeHome, waitFor } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine, type ServedEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

const home = makeHome({
  servers: { big: fixtureServer('big-result.mjs') },
  profiles: {
    mine: { servers: ['big'], surface: 'code', codeMode: { results: true } },
    theirs: { servers: ['big'], surface: 'code', codeMode: { results: true } },
  },
});
let engine: ServedEngine;

beforeAll(async () => {
  engine = await serveEngine(home);
  await waitFor(async () => {
    const s = await engine.api<{ servers: Record<string, { state: string }> }>('status');
    return s.servers.big?.state === 'ready';
  }, 30_000, 'server ready');
}, 60_000);
afterAll(() => engine?.stop());

async function exec(profile: string, code: string): Promise<ExecResult> {
  const c = await SocketControlClient.connect(homePaths(home));
  if (!c) throw new Error('no engine on the control socket');
  try {
    return await c.call('exec', { profile, code });
  } finally {
    c.close();
  }
}

const tryIt = (expr: string) => `async () => { try { return 'read: ' + JSON.stringify(await ${expr}).slice(0, 80); } catch (e) { return 'refused: ' + e.message; } }`;

describe('result handles', () => {
  hardeningCase('attack', "a kept result is readable only in its own profile, and no handle reaches a file but its own", async (tally) => {
    const made = await exec('theirs', 'async () => "s".repeat(100000)');
    const handle = /kept as "(res_[0-9a-f]{24})"/.exec(made.text)?.[1];
    expect(handle, made.text.slice(-400)).toBeTruthy();
    const attempts: [string, RegExp][] = [
      [`results.get(${JSON.stringify(handle)})`, /^refused: .*no kept result .* in this profile/],
      [`results.query(${JSON.stringify(handle)}, "length")`, /^refused: .*no kept result/],
      ['results.get("../../config.json")', /^refused: .*is not a result handle/],
      ['results.get("res_" + "0".repeat(24) + "/../../../token")', /^refused: .*is not a result handle/],
      ['results.get("/etc/passwd")', /^refused: .*is not a result handle/],
      [`results.get(${JSON.stringify(handle)}.toUpperCase())`, /^refused: .*is not a result handle/],
      ['results.get({ toString() { return "x"; } })', /^refused: .*is not a result handle/],
      ['results.query("res_" + "a".repeat(24), "x".repeat(100000))', /^refused: .*not 1\d{5} characters of arguments/],
    ];
    for (const [expr, expected] of attempts) {
      await tally.attempt(expr.slice(0, 60), async () => {
        const r = await exec('mine', tryIt(expr));
        expect(r.text).toMatch(/^Result:\n"/);
        expect(JSON.parse(r.text.slice('Result:\n'.length))).toMatch(expected);
      });
    }
    // Its own profile still reads it.
    await tally.attempt('own profile reads its handle', async () => {
      const r = await exec('theirs', `async () => (await results.get(${JSON.stringify(handle)}, { offset: 99990 })).text`);
      expect(r.text).toBe('Result:\n"ssssssssss"');
    });
    // Nothing but handle files was ever written under results/.
    const dir = homePaths(home).resultsDir;
    const files = readdirSync(dir).flatMap((d) => readdirSync(path.join(dir, d)));
    expect(files.every((f) => /^res_[0-9a-f]{24}\.json$/.test(f))).toBe(true);
  }, 60_000);

  hardeningCase('attack', 'as many reads of a kept 1 MB result as a run may make, at once, end with the run answered', async (tally) => {
    const made = await exec('mine', 'async () => (await big.big({ bytes: 1048576 }))');
    const handle = /kept as "(res_[0-9a-f]{24})"/.exec(made.text)![1]!;
    await tally.attempt('256 concurrent whole reads', async () => {
      const r = await exec('mine', `async () => { const all = await Promise.all(Array.from({ length: 256 }, () => results.get(${JSON.stringify(handle)}, { offset: 0, limit: 10 }))); return all.length; }`);
      expect(r.text).toBe('Result:\n256');
    });
    await tally.attempt('a 257th lookup is a budget error', async () => {
      const r = await exec('mine', `async () => { for (let i = 0; i < 300; i++) await results.query(${JSON.stringify(handle)}, "length"); }`);
      expect(r.text).toMatch(/^budget: the run made more than 256 catalog lookups \(results reads count as lookups\)/);
    });
  }, 60_000);
});
