// The welcome shown on the first start of a home. "Done" lives in that home's config.json
// (settings.welcomeDone), so the desktop app and a served UI of the same home agree, and a new
// home gets its welcome again. Writing it goes through config.set like any other setting.
import type { ControlClient } from '../../src-shared/api.ts';
import { describeError } from './api-client.ts';

export const WELCOME_DONE_PATH = 'settings.welcomeDone';

export class WelcomeGate {
  /** Null until known; true when the welcome is still to be shown in this home. */
  due = $state<boolean | null>(null);
  #client: ControlClient;
  #loading = false;

  constructor(client: ControlClient) {
    this.#client = client;
  }

  /** Reads "done" once; a failed read (engine still starting) leaves `due` null to be asked again. */
  async load(): Promise<void> {
    if (this.#loading || this.due !== null) return;
    this.#loading = true;
    try {
      const r = await this.#client.call('config.get', { path: WELCOME_DONE_PATH });
      this.due = r.value !== true;
    } catch {
      /* asked again on the next status */
    } finally {
      this.#loading = false;
    }
  }

  /** Finished or skipped: remembered in the home. Still closes when config.json cannot be written. */
  async finish(): Promise<string | null> {
    this.due = false;
    try {
      await this.#client.call('config.set', { path: WELCOME_DONE_PATH, value: true });
      return null;
    } catch (err) {
      return describeError(err);
    }
  }
}
