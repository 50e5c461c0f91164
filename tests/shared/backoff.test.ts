import { describe, expect, it } from 'vitest';
import { backoffDelay, failuresInARow, RESTART_BACKOFF } from '../../src-shared/backoff.ts';

describe('the restart backoff', () => {
  it('waits 0.5 s after the first failure, doubling to at most 30 s', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffDelay(RESTART_BACKOFF, n));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('counts failures in a row until a run lasts the stable period, then starts again at one', () => {
    let failures = 0;
    for (const ranMs of [10, 10, 10]) failures = failuresInARow(RESTART_BACKOFF, failures, ranMs);
    expect(failures).toBe(3);
    expect(failuresInARow(RESTART_BACKOFF, failures, RESTART_BACKOFF.stableAfterMs - 1)).toBe(4);
    expect(failuresInARow(RESTART_BACKOFF, failures, RESTART_BACKOFF.stableAfterMs)).toBe(1);
  });
});
