// Catalog lookups from code take turns on the engine's thread: one lookup per turn of its event
// loop, the runs in turn. Each lookup is bounded (catalog-limits.ts), and whatever number a run
// asks for at once, the engine answers everything else between them.

export class HostTurns {
  /** Lookups waiting, per run, in the order the runs first asked. */
  readonly #jobs = new Map<number, (() => void)[]>();
  #scheduled = false;

  add(runId: number, job: () => void): void {
    let jobs = this.#jobs.get(runId);
    if (!jobs) this.#jobs.set(runId, (jobs = []));
    jobs.push(job);
    this.#schedule();
  }

  /** Drops every lookup still waiting. */
  clear(): void {
    this.#jobs.clear();
  }

  #schedule(): void {
    if (this.#scheduled || this.#jobs.size === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const first = this.#jobs.entries().next();
      if (first.done) return;
      const [runId, jobs] = first.value;
      const job = jobs.shift()!;
      // The run goes to the back of the line for its next lookup.
      this.#jobs.delete(runId);
      if (jobs.length > 0) this.#jobs.set(runId, jobs);
      job();
      this.#schedule();
    });
  }
}
