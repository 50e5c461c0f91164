// Places in the sandbox pool, shared fairly between shares (profiles): one share holds at most
// MAX_SHARE_WORKERS while others could use them, a share with no run going always gets one (up
// to HARD_MAX_WORKERS), and waiting runs are served the share with the fewest runs first. Knows
// nothing of workers: what a place comes with is made by `take`, called as the place is given.

/** Workers at most; further runs wait for one (they are mostly waiting on tool calls, not CPU). */
export const MAX_WORKERS = 8;
/**
 * Workers one share may hold at most while others could use them: however many runs a profile
 * starts, two workers stay for other profiles.
 */
export const MAX_SHARE_WORKERS = MAX_WORKERS - 2;
/**
 * A share with no run going starts one at once, past MAX_WORKERS up to this many: each profile
 * always gets a run going, even when others fill the pool with runs that spin until their timeout.
 */
export const HARD_MAX_WORKERS = MAX_WORKERS + 4;

/** Why a waiting run got no place. */
export type QueueRefusal =
  | { refused: 'cancelled' }
  | { refused: 'timeout'; waitedMs: number }
  | { refused: 'closed' };

export interface FairQueueOptions<T> {
  /** Makes what a place comes with (a worker), synchronously as the place is given. */
  take(share: string): T;
  /** No place is held any more. */
  onEmpty?(): void;
}

interface Waiter<T> {
  share: string;
  settle(got: T | QueueRefusal): void;
}

export class FairQueue<T> {
  readonly #take: (share: string) => T;
  readonly #onEmpty: (() => void) | undefined;
  /** Places held per share. */
  readonly #held = new Map<string, number>();
  #busy = 0;
  /** Oldest first; served fairly between shares (#pump). */
  readonly #waiters: Waiter<T>[] = [];
  #closed = false;

  constructor(opts: FairQueueOptions<T>) {
    this.#take = opts.take;
    this.#onEmpty = opts.onEmpty;
  }

  /** Places held (runs starting, running, or with a worker still stopping). */
  get busy(): number {
    return this.#busy;
  }

  canStart(share: string): boolean {
    const mine = this.#held.get(share) ?? 0;
    if (mine === 0) return this.#busy < HARD_MAX_WORKERS;
    return this.#busy < MAX_WORKERS && mine < MAX_SHARE_WORKERS;
  }

  /**
   * A place for `share`: at once when one is free to it, else once it is this run's turn;
   * refused when `signal` fires (the run leaves the queue at once) or `deadline` (a Date.now()
   * time) passes first.
   */
  acquire(share: string, signal: AbortSignal | undefined, deadline: number): Promise<T | QueueRefusal> {
    if (this.#closed) return Promise.resolve({ refused: 'closed' });
    if (this.canStart(share)) return Promise.resolve(this.#give(share));
    const queuedAt = Date.now();
    return new Promise<T | QueueRefusal>((resolve) => {
      const waiter: Waiter<T> = {
        share,
        settle: (got) => {
          const i = this.#waiters.indexOf(waiter);
          if (i >= 0) this.#waiters.splice(i, 1);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(got);
        },
      };
      const onAbort = (): void => waiter.settle({ refused: 'cancelled' });
      const timer = setTimeout(() => waiter.settle({ refused: 'timeout', waitedMs: Date.now() - queuedAt }), Math.max(0, deadline - Date.now()));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Gives back a place of `share`, and starts waiting runs the places now allow. */
  free(share: string): void {
    const left = (this.#held.get(share) ?? 1) - 1;
    if (left > 0) this.#held.set(share, left);
    else this.#held.delete(share);
    this.#busy--;
    if (this.#busy === 0) this.#onEmpty?.();
    this.#pump();
  }

  /** Refuses every waiting run and any later one. */
  close(): void {
    this.#closed = true;
    for (const w of this.#waiters.splice(0)) w.settle({ refused: 'closed' });
  }

  #give(share: string): T {
    this.#held.set(share, (this.#held.get(share) ?? 0) + 1);
    this.#busy++;
    return this.#take(share);
  }

  /**
   * The share with the fewest runs going first, the oldest run within it, so a share that fills
   * the pool gets the next place only when no other share is waiting.
   */
  #pump(): void {
    if (this.#closed) return;
    for (;;) {
      let pick = -1;
      let fewest = Infinity;
      for (let i = 0; i < this.#waiters.length; i++) {
        const share = this.#waiters[i]!.share;
        const mine = this.#held.get(share) ?? 0;
        if (mine < fewest && this.canStart(share)) {
          pick = i;
          fewest = mine;
        }
      }
      if (pick < 0) return;
      const waiter = this.#waiters[pick]!;
      waiter.settle(this.#give(waiter.share));
    }
  }
}
