// One button's slow call at a time: what it is doing (for Busy) and, when it fails, why.
import { describeError } from './api-client.ts';

export class PendingAction {
  busy = $state<string | null>(null);
  error = $state<string | null>(null);

  /** Runs `fn` with `label` shown; a thrown error becomes `error` (a sentence), never a rejection. */
  async run(label: string, fn: () => Promise<void>): Promise<void> {
    this.busy = label;
    this.error = null;
    try {
      await fn();
    } catch (err) {
      this.error = describeError(err);
    } finally {
      this.busy = null;
    }
  }
}
