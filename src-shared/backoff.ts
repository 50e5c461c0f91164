// The one restart policy: upstream servers (engine) and the engine process (Electron) both
// restart after a crash or a failed start with exponential backoff, and a run that lasted long
// enough counts as healthy so that the next failure starts again from the first delay.

export interface BackoffPolicy {
  /** Delay before the first retry, in ms; it doubles for each failure in a row. */
  initialMs: number;
  /** Longest delay between retries, in ms. */
  maxMs: number;
  /** A run that lasted at least this long (ms) was healthy: the failures before it are forgotten. */
  stableAfterMs: number;
}

/** 0.5 s doubling to 30 s; a run of 30 s or more resets it (README "Servers"). */
export const RESTART_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({ initialMs: 500, maxMs: 30_000, stableAfterMs: 30_000 });

/** The delay before retrying after `failures` failures in a row (1 for the first), in ms. */
export function backoffDelay(policy: Pick<BackoffPolicy, 'initialMs' | 'maxMs'>, failures: number): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, failures - 1));
}

/** Failures in a row after one more, when the run that just failed lasted `ranMs`. */
export function failuresInARow(policy: Pick<BackoffPolicy, 'stableAfterMs'>, before: number, ranMs: number): number {
  return ranMs >= policy.stableAfterMs ? 1 : before + 1;
}
