// Live engine status: polled every 1.5 s (an event stream may replace this later). A status call
// that fails or hangs for STATUS_TIMEOUT_MS marks the engine as away at once, and polling goes on,
// so the page says so within a few seconds and comes back by itself when the engine does.
import type { ControlClient, StatusReport } from '../../src-shared/api.ts';
import { ApiError, describeError } from './api-client.ts';

export const STATUS_POLL_MS = 1500;
/** A status answer slower than this (ms) counts as the engine not answering. */
export const STATUS_TIMEOUT_MS = 3000;

export class StatusPoller {
  /** The last status the engine gave; kept while it is away so pages keep what they showed. */
  status = $state.raw<StatusReport | null>(null);
  error = $state<string | null>(null);
  /** The engine (or, under `serve`, Switchboard itself) is not answering right now. */
  away = $state(false);
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
    let hung: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        hung = setTimeout(() => reject(new ApiError({ code: 'engine-unavailable', message: 'Switchboard did not answer in time.' })), STATUS_TIMEOUT_MS);
      });
      this.status = await Promise.race([this.#client.call('status', {}), timeout]);
      this.error = null;
      this.away = false;
    } catch (err) {
      this.error = describeError(err);
      this.away = err instanceof ApiError ? err.code === 'engine-unavailable' || err.code === 'timeout' : true;
    } finally {
      clearTimeout(hung);
    }
    if (!this.#disposed) this.#timer = setTimeout(() => void this.refresh(), STATUS_POLL_MS);
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }
}
