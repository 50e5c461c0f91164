// The time now, ticking every second while anything reads it (countdowns on approval cards).
import { createSubscriber } from 'svelte/reactivity';

export class Clock {
  #subscribe = createSubscriber((update) => {
    const timer = setInterval(update, 1000);
    return () => clearInterval(timer);
  });

  /** Milliseconds since the epoch; reactive, re-read every second. */
  get now(): number {
    this.#subscribe();
    return Date.now();
  }
}
