// Places in the sandbox pool, shared between profiles: the rules alone, without workers (the
// pool's own tests run them with real workers, sandbox-containment.test.ts).
import { describe, expect, it } from 'vitest';
import { FairQueue, HARD_MAX_WORKERS, MAX_SHARE_WORKERS, MAX_WORKERS, type QueueRefusal } from '../../../src-main/engine/codemode/fair-queue.ts';

const FAR = () => Date.now() + 60_000;

function queue() {
  const given: string[] = [];
  let emptied = 0;
  const q = new FairQueue<string>({
    take: (share) => {
      given.push(share);
      return `place for ${share}`;
    },
    onEmpty: () => emptied++,
  });
  return { q, given, emptied: () => emptied };
}

const settledYet = async <T>(p: Promise<T>): Promise<T | 'waiting'> => Promise.race([p, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 20))]);

describe('FairQueue', () => {
  it(`gives one share at most ${MAX_SHARE_WORKERS} places while others could use them`, async () => {
    const { q } = queue();
    for (let i = 0; i < MAX_SHARE_WORKERS; i++) expect(await q.acquire('A', undefined, FAR())).toBe('place for A');
    const seventh = q.acquire('A', undefined, FAR());
    expect(await settledYet(seventh)).toBe('waiting');
    // Another share still starts at once.
    expect(await q.acquire('B', undefined, FAR())).toBe('place for B');
    q.free('A');
    expect(await seventh).toBe('place for A');
  });

  it(`starts a share with no run going past ${MAX_WORKERS}, up to ${HARD_MAX_WORKERS}`, async () => {
    const { q } = queue();
    for (let i = 0; i < MAX_WORKERS; i++) await q.acquire(`s${i}`, undefined, FAR());
    expect(q.busy).toBe(MAX_WORKERS);
    for (let i = MAX_WORKERS; i < HARD_MAX_WORKERS; i++) expect(await q.acquire(`s${i}`, undefined, FAR())).toBe(`place for s${i}`);
    expect(await settledYet(q.acquire('one more', undefined, FAR()))).toBe('waiting');
  });

  it('serves the waiting share with the fewest runs first, the oldest run within it', async () => {
    const { q, given } = queue();
    for (let i = 0; i < 5; i++) await q.acquire('A', undefined, FAR());
    await q.acquire('B', undefined, FAR());
    for (let i = 0; i < 2; i++) await q.acquire('C', undefined, FAR());
    // The pool is full (8): A asks twice, then B, all of them allowed another place.
    const a1 = q.acquire('A', undefined, FAR());
    const a2 = q.acquire('A', undefined, FAR());
    const b = q.acquire('B', undefined, FAR());
    given.length = 0;
    q.free('C');
    // B (one run going) before A (five), though A asked first.
    expect(await settledYet(b)).toBe('place for B');
    expect(await settledYet(a1)).toBe('waiting');
    q.free('C');
    expect(await a1).toBe('place for A');
    expect(await settledYet(a2)).toBe('waiting');
    expect(given).toEqual(['B', 'A']);
  });

  it('refuses a waiting run at its deadline, saying how long it waited, and one that is cancelled at once', async () => {
    const { q } = queue();
    for (let i = 0; i < MAX_SHARE_WORKERS; i++) await q.acquire('A', undefined, FAR());
    const late = (await q.acquire('A', undefined, Date.now() + 50)) as QueueRefusal;
    expect(late.refused).toBe('timeout');
    expect(late.refused === 'timeout' && late.waitedMs).toBeGreaterThanOrEqual(40);
    const cancel = new AbortController();
    const cancelled = q.acquire('A', cancel.signal, FAR());
    cancel.abort();
    expect(await cancelled).toEqual({ refused: 'cancelled' });
    // Neither holds a place: the next free place goes to a new waiter.
    const next = q.acquire('A', undefined, FAR());
    q.free('A');
    expect(await next).toBe('place for A');
  });

  it('says when no place is held any more, and refuses everyone once closed', async () => {
    const { q, emptied } = queue();
    await q.acquire('A', undefined, FAR());
    q.free('A');
    expect(emptied()).toBe(1);
    for (let i = 0; i < MAX_SHARE_WORKERS; i++) await q.acquire('A', undefined, FAR());
    const waiting = q.acquire('A', undefined, FAR());
    q.close();
    expect(await waiting).toEqual({ refused: 'closed' });
    expect(await q.acquire('B', undefined, FAR())).toEqual({ refused: 'closed' });
  });
});
