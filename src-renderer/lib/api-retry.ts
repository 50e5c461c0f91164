// Which API requests the browser page sends again when the engine cannot be reached for a
// moment, and how. When an engine is taken over by a new one (an update), its port is free for a
// few milliseconds before the new engine binds it: the page must not show an error for that.
import { backoffDelay } from '../../src-shared/backoff.ts';

/** Tries after the first: 100 ms doubling to 800 ms, about 2.3 s in all. */
const RETRIES = 5;
const RETRY_BACKOFF = { initialMs: 100, maxMs: 800 };
const READS = /^(status|config\.(get|text)|[a-z]+\.(list|get|log|tools|search|catalog|clientLimits))$/;

/**
 * Whether a call changes nothing, so that it may be sent again: one whose request failed on its
 * way back may have been carried out, so a change is never sent twice.
 */
export function isReadOnly(method: string): boolean {
  return READS.test(method);
}

/** Runs `send` until it does not throw (a network failure), at most RETRIES more times; the last failure is thrown. */
export async function retryUnreachable<T>(send: () => Promise<T>, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): Promise<T> {
  for (let failures = 0; ; ) {
    try {
      return await send();
    } catch (err) {
      failures++;
      if (failures > RETRIES) throw err;
      await sleep(backoffDelay(RETRY_BACKOFF, failures));
    }
  }
}
