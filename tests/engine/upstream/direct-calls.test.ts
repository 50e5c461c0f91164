// The upstream half of the tools/call fast path (direct-calls.ts) on real servers: its ids stay
// apart from the SDK Client's on the same pipe, one sweep answers every call over
// callTimeoutSec and tells the server, a late or oversized answer is handled, and only a ready
// 2025-era stdio connection offers the lane.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIRECT_ID_BASE, type DirectCallHandlers } from '../../../src-main/engine/upstream/direct-calls.ts';
import type { SwitchboardError } from '../../../src-shared/errors.ts';
import { waitFor } from '../../helpers/home.ts';
import { fixture, Scratch } from './helpers.ts';

let s: Scratch;
beforeEach(() => {
  s = new Scratch();
});
afterEach(async () => {
  await s.dispose();
});

/** A direct call as a promise of how it ended. */
function ended(): { handlers: DirectCallHandlers; done: Promise<{ result?: Record<string, unknown>; error?: SwitchboardError }> } {
  let settle!: (v: { result?: Record<string, unknown>; error?: SwitchboardError }) => void;
  const done = new Promise<{ result?: Record<string, unknown>; error?: SwitchboardError }>((r) => (settle = r));
  return { handlers: { onResult: (result) => settle({ result }), onError: (error) => settle({ error }) }, done };
}

describe('direct calls', () => {
  it('times out every waiting call in order with one sweep, tells the server, and leaves the SDK path working', async () => {
    const up = s.upstream('hang', fixture('hang.mjs', { callTimeoutSec: 1 }));
    await up.waitReady(15_000);
    const lane = up.direct()!;
    expect(lane).toBeDefined();
    const order: number[] = [];
    const a = ended();
    const idA = lane.call('hang', '{}', a.handlers, undefined);
    await new Promise((r) => setTimeout(r, 150));
    const b = ended();
    const idB = lane.call('hang', undefined, b.handlers, undefined);
    expect([idA, idB]).toEqual([DIRECT_ID_BASE + 1, DIRECT_ID_BASE + 2]);
    void a.done.then(() => order.push(idA));
    void b.done.then(() => order.push(idB));
    // The SDK's own requests share the pipe meanwhile.
    expect(await up.request('ping', {})).toEqual({});
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(order).toEqual([idA, idB]);
    for (const r of [ra, rb]) {
      expect(r.error?.code).toBe('timeout');
      expect(r.error?.message).toBe('hang.hang took longer than 1 s (callTimeoutSec) and was cancelled');
    }
    expect(lane.pending).toBe(0);
    await waitFor(() => up.logTail(20).some((l) => l.includes(`cancelled request ${idB}`)), 5000, 'the server to hear of both');
    expect(up.logTail(20).some((l) => l.includes(`cancelled request ${idA}`))).toBe(true);
    // (Slow to start: this raw server ignores the server/discover probe until it times out.)
  }, 40_000);

  it('answers a call whose answer is over the size limit with that error, and the connection stays', async () => {
    const up = s.upstream('big', fixture('big-result.mjs'), { maxMessageBytes: 1024 * 1024 });
    await up.waitReady(15_000);
    const big = ended();
    up.direct()!.call('big', JSON.stringify({ bytes: 3 * 1024 * 1024 }), big.handlers, undefined);
    const r = await big.done;
    expect(r.error?.code).toBe('upstream-error');
    expect(r.error?.message).toMatch(/^big\.big failed: .*over the 1 MB limit; it was dropped\. Ask for a smaller result\.$/);
    const small = ended();
    up.direct()!.call('big', JSON.stringify({ bytes: 16 }), small.handlers, undefined);
    expect(((await small.done).result?.content as { text: string }[])[0]!.text).toHaveLength(16);
  });

  it('answers calls in flight when the connection ends, and is gone until the server is ready again', async () => {
    const up = s.upstream('crashy', fixture('crash-mid-call.mjs'));
    await up.waitReady(15_000);
    const lane = up.direct()!;
    const boom = ended();
    lane.call('boom', '{}', boom.handlers, undefined);
    const r = await boom.done;
    expect(r.error?.code).toBe('server-unavailable');
    expect(r.error?.message).toMatch(/crashy stopped while the call was running; it is being restarted/);
    expect(lane.open).toBe(false);
    await waitFor(() => up.state === 'ready' && up.direct() !== undefined, 15_000, 'the restarted server');
    expect(up.direct()).not.toBe(lane);
  });

  it('is offered only by 2025-era stdio connections', async () => {
    const modern = s.upstream('modern', fixture('v2-modern.mjs'));
    await modern.waitReady(15_000);
    expect(modern.protocol).toBe('2026-07-28');
    expect(modern.direct()).toBeUndefined();
  });
});
