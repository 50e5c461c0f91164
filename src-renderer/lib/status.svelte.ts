// Live engine status: polled every 1.5 s (an event stream may replace this later).
import type { ControlClient, StatusReport } from '../../src-shared/api.ts';
import { describeError } from './api-client.ts';

export const STATUS_POLL_MS = 1500;

export class StatusPoller {
  status = $state.raw<StatusReport | null>(null);
  error = $state<string | null>(null);
  #client: ControlClient;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;

  constructor(client: ControlClient) {
    this.#client = client;
  }

  start(): void {
    void this.refresh();
  }

  async refresh(): Promise<void> {
    clearTimeout(this.#timer);
    try {
      this.status = await this.#client.call('status', {});
      this.error = null;
    } catch (err) {
      this.error = describeError(err);
    }
    if (!this.#disposed) this.#timer = setTimeout(() => void this.refresh(), STATUS_POLL_MS);
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }
}
