// How responsive the engine stays, as a real client sees it: a `status` request over the
// control socket every 50 ms while some work runs, keeping the longest time between two answers
// (about 50 ms when the engine answers at once; a freeze of its main thread adds its length).
import { SocketControlClient } from '../../src-main/cli/engine-client.ts';
import { homePaths } from '../../src-main/engine/platform/home.ts';

/** A control-socket client of the engine serving `home`. */
export async function controlClient(home: string): Promise<SocketControlClient> {
  const c = await SocketControlClient.connect(homePaths(home));
  if (!c) throw new Error('no engine on the control socket');
  return c;
}

/** Runs `work` while polling the engine of `home`; returns its value, the worst gap and the number of polls. */
export async function whilePolling<T>(home: string, work: () => Promise<T>): Promise<{ value: T; worstMs: number; polls: number }> {
  const c = await controlClient(home);
  let stop = false;
  let worstMs = 0;
  let polls = 0;
  let last = performance.now();
  const loop = (async () => {
    while (!stop) {
      const t0 = performance.now();
      await c.call('status', {});
      const now = performance.now();
      worstMs = Math.max(worstMs, now - last);
      last = now;
      polls++;
      await new Promise((r) => setTimeout(r, Math.max(0, 50 - (now - t0))));
    }
  })();
  let value: T;
  try {
    value = await work();
  } finally {
    stop = true;
    // The last poll answers after the work ended, so a freeze at its very end counts too.
    await loop;
    c.close();
  }
  return { value, worstMs, polls };
}
