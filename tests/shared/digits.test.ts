import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../src-shared/digits.ts';

describe('groupDigits', () => {
  it('writes integers as en-US toLocaleString does', () => {
    for (const n of [0, 7, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 8_388_608, 123_456_789_012, -1, -1234, -1_000_000]) {
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('rounds a fraction to an integer', () => {
    expect(groupDigits(1234.6)).toBe('1,235');
  });
});
