// A code-mode run's clock (docs/protocol.md budgets.timeoutMs): a deadline that stops while a call waits
// for a person's approval. Only waiting is free: time the code spends running meanwhile (other
// calls answered) still counts, so a held run cannot spin. Pure, with the time source injected.
export class RunClock {
  #deadline: number;
  /** When the clock was stopped; undefined while it runs. */
  #heldSince: number | undefined;
  /** At the hold: time left until the deadline; and the running time spent since. */
  #leftAtHold = 0;
  #busyWhileHeld = 0;
  #jobStartedAt: number | undefined;

  /** `deadline`: a `now()` time, as RunMessage.deadline is a Date.now() time. */
  constructor(
    deadline: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#deadline = deadline;
  }

  get held(): boolean {
    return this.#heldSince !== undefined;
  }

  /** Stops (`on`) or restarts the clock; true when it restarted (a held run's wait can end). */
  hold(on: boolean): boolean {
    if (on) {
      if (this.#heldSince !== undefined) return false;
      this.#heldSince = this.now();
      this.#leftAtHold = this.#deadline - this.#heldSince;
      this.#busyWhileHeld = 0;
      return false;
    }
    if (this.#heldSince === undefined) return false;
    this.#deadline = this.now() + this.#leftAtHold - this.#busyWhileHeld;
    this.#heldSince = undefined;
    return true;
  }

  /** Brackets the code's running (QuickJS's pending jobs), which counts even while held. */
  jobStarted(): void {
    this.#jobStartedAt = this.now();
  }

  jobEnded(): void {
    if (this.#heldSince !== undefined && this.#jobStartedAt !== undefined) this.#busyWhileHeld += this.now() - this.#jobStartedAt;
    this.#jobStartedAt = undefined;
  }

  pastDeadline(): boolean {
    const now = this.now();
    if (this.#heldSince === undefined) return now > this.#deadline;
    const running = this.#jobStartedAt !== undefined ? now - this.#jobStartedAt : 0;
    return this.#busyWhileHeld + running > this.#leftAtHold;
  }

  /** How long a wait may last before the deadline passes; undefined while held (no deadline then). */
  msLeft(): number | undefined {
    return this.#heldSince === undefined ? Math.max(0, this.#deadline - this.now()) : undefined;
  }
}
