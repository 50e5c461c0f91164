// Durations and sizes in the units people use.
import { describe, expect, it } from 'vitest';
import { duration, size } from '../../../src-renderer/lib/units.ts';

describe('units', () => {
  it('says durations in seconds and minutes, never milliseconds', () => {
    expect([0.2, 39.08, 1000, 1500, 3458.82, 42_400, 60_000, 125_000].map(duration)).toEqual(['<0.01 s', '0.04 s', '1 s', '1.5 s', '3.46 s', '42 s', '1 min', '2 min 5 s']);
  });

  it('says sizes in bytes, KB and MB', () => {
    expect([1, 16, 3277, 65_536, 1_572_864].map(size)).toEqual(['1 byte', '16 bytes', '3.2 KB', '64 KB', '1.5 MB']);
  });
});
