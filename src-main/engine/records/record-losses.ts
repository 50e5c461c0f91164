// A record store that lost a write (disk full, read-only home) says so once in the log and keeps
// saying so in `status` (recordLosses), while calls and runs go on answering.
import type { StatusReport } from '../../../src-shared/api.ts';

export type RecordLoss = NonNullable<StatusReport['recordLosses']>[number];

export class RecordLosses {
  readonly #losses: RecordLoss[] = [];
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** The onError of one store's writes. */
  reporter(store: string): (err: Error) => void {
    return (err) => {
      const message = `${store}: records are not being saved (${err.message}); calls and runs still answer.`;
      this.#log(message);
      const seen = this.#losses.find((l) => l.store === store);
      if (seen) seen.count++;
      else this.#losses.push({ store, message, since: new Date().toISOString(), count: 1 });
    };
  }

  list(): RecordLoss[] {
    return this.#losses.map((l) => ({ ...l }));
  }
}
