// The hardening table's tally: tried and held are counted apart, so a case that
// fails never shows as held, and one failed attempt does not hide the others.
import { describe, expect, it } from 'vitest';
import { newTally, type HardeningMeta } from './hardening-case.ts';
import { tallyRow } from './table-reporter.ts';

const meta = (tried: number, held: number, failed?: boolean, failures: string[] = []): HardeningMeta['hardening'] => ({ category: 'attack', tally: { tried, held, notes: [] }, failed, failures });

describe('tally', () => {
  it('counts an attempt that throws as tried and not held, and runs the rest', async () => {
    const failures: string[] = [];
    const t = newTally(failures);
    await t.attempt('first', () => {});
    await t.attempt('second', () => {
      throw new Error('escaped');
    });
    await t.attempt('third', async () => {});
    expect([t.tried, t.held]).toEqual([3, 2]);
    expect(failures).toEqual(['second: escaped']);
    // Plain data for the reporter: the helper does not travel with the meta.
    expect(JSON.parse(JSON.stringify(t))).toEqual({ tried: 3, held: 2, notes: [] });
  });

  it('never shows a failed case as all held, whatever its counters say', () => {
    // A case that counted tried and held together and then failed (tried = held by construction).
    expect(tallyRow('x', 'attack', 'failed', meta(3, 3, true))).toMatchObject({ outcome: 'FAIL', tried: 4, held: 3 });
    // A case whose body never ran (its beforeAll failed) still counts as one tried, none held.
    expect(tallyRow('x', 'attack', 'failed', undefined)).toMatchObject({ outcome: 'FAIL', tried: 1, held: 0 });
    // One attempt failed: the counters already differ and are shown as they are, with the reason.
    expect(tallyRow('x', 'attack', 'failed', meta(5, 4, true, ['second: escaped\nstack']))).toMatchObject({ outcome: 'FAIL', tried: 5, held: 4, notes: 'not held: second: escaped' });
    expect(tallyRow('x', 'attack', 'passed', meta(5, 5))).toMatchObject({ outcome: 'pass', tried: 5, held: 5 });
    expect(tallyRow('x', 'attack', 'skipped', meta(0, 0))).toMatchObject({ outcome: 'skipped', tried: 0, held: 0 });
  });
});
