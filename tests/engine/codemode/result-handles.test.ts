import { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_KEPT_RESULTS_PER_PROFILE,
  MAX_KEPT_RESULT_CHARS,
  RESULT_TTL_MS,
  ResultHandles,
  ResultTooLarge,
} from '../../../src-main/engine/codemode/result-handles.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function store(now?: () => number): ResultHandles {
  const d = mkdtempSync(path.join(os.tmpdir(), 'sb-results-'));
  dirs.push(d);
  return new ResultHandles(path.join(d, 'results'), { now });
}

describe('kept results (result handles)', () => {
  it('are read whole, by page or by path, in the profile that made them only', async () => {
    const s = store();
    const h = s.newHandle();
    await s.keep('a', h, { rows: [1, 2, 3] });
    expect(await s.get('a', h)).toEqual({ rows: [1, 2, 3] });
    expect(await s.get('a', h, { offset: 1, limit: 1 })).toEqual({ kind: 'object', total: 1, offset: 1, next: null, entries: {} });
    expect(await s.query('a', h, 'rows[2]')).toBe(3);
    await expect(s.get('b', h)).rejects.toThrow(/no kept result .* in this profile/);
    await expect(s.get('A', h)).rejects.toThrow(/no kept result/);
  });

  it('are owner-only files named by the handle, and a name that is no handle never reaches the disk', async () => {
    const s = store();
    const h = s.newHandle();
    await s.keep('a', h, [1]);
    const [profileDir] = readdirSync(s.dir);
    const file = path.join(s.dir, profileDir!, `${h}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(s.dir, profileDir!)).mode & 0o777).toBe(0o700);
    for (const bad of ['../../etc/passwd', `${h}/../x`, 'res_1234', 42, undefined]) {
      await expect(s.get('a', bad)).rejects.toThrow(/is not a result handle/);
    }
  });

  it('answer many reads at once, in order, one failing read not holding up the rest', async () => {
    const s = store();
    const h = s.newHandle();
    await s.keep('a', h, Array.from({ length: 1000 }, (_, i) => i));
    const reads = Array.from({ length: 50 }, (_, i) => (i === 7 ? s.get('a', 'nope') : s.get('a', h, { offset: i * 10, limit: 2 })));
    const settled = await Promise.allSettled(reads);
    expect(settled[7]!.status).toBe('rejected');
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(49);
    expect((settled[49] as PromiseFulfilledResult<{ items: number[] }>).value.items).toEqual([490, 491]);
  });

  it(`expire after ${RESULT_TTL_MS / 3_600_000} hours`, async () => {
    let now = Date.now();
    const s = store(() => now);
    const h = s.newHandle();
    await s.keep('a', h, 'x');
    now += RESULT_TTL_MS + 1000;
    await expect(s.get('a', h)).rejects.toThrow(/kept for 24 hours/);
  });

  it('expire when dated a day ahead too (a clock set back, a planted date), and are pruned wherever they sort', async () => {
    let now = Date.now();
    const s = store(() => now);
    const ahead = s.newHandle();
    await s.keep('a', ahead, 'from the future');
    const [profileDir] = readdirSync(s.dir);
    const aheadFile = path.join(s.dir, profileDir!, `${ahead}.json`);
    const future = new Date(now + 2 * RESULT_TTL_MS);
    utimesSync(aheadFile, future, future);
    await expect(s.get('a', ahead)).rejects.toThrow(/kept for 24 hours/);
    // Planted again: the next keep prunes it although it sorts after every other file.
    await s.keep('a', ahead, 'again');
    utimesSync(aheadFile, future, future);
    now += 1000;
    await s.keep('a', s.newHandle(), 'next');
    expect(readdirSync(path.join(s.dir, profileDir!))).not.toContain(`${ahead}.json`);
  });

  it.skipIf(process.platform === 'win32')('are read only from the file the store wrote, never through a link planted under a handle', async () => {
    const s = store();
    const h = s.newHandle();
    await s.keep('a', h, 'mine');
    const [profileDir] = readdirSync(s.dir);
    const file = path.join(s.dir, profileDir!, `${h}.json`);
    const secret = path.join(s.dir, 'secret.json');
    writeFileSync(secret, JSON.stringify({ key: 'not for the model' }));
    rmSync(file);
    symlinkSync(secret, file);
    await expect(s.get('a', h)).rejects.toThrow(/is gone/);
  });

  it(`are capped: over ${MAX_KEPT_RESULT_CHARS / 1024 / 1024} MB a result is not kept; past ${MAX_KEPT_RESULTS_PER_PROFILE} the oldest go`, async () => {
    const s = store();
    await expect(s.keep('a', s.newHandle(), 'x'.repeat(MAX_KEPT_RESULT_CHARS))).rejects.toBeInstanceOf(ResultTooLarge);
    const first = s.newHandle();
    await s.keep('a', first, 0);
    for (let i = 1; i <= MAX_KEPT_RESULTS_PER_PROFILE; i++) await s.keep('a', s.newHandle(), i);
    const [profileDir] = readdirSync(s.dir);
    expect(readdirSync(path.join(s.dir, profileDir!))).toHaveLength(MAX_KEPT_RESULTS_PER_PROFILE);
    await expect(s.get('a', first)).rejects.toThrow(/no kept result/);
  }, 60_000);
});
