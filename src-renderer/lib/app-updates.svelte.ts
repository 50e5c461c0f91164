// The desktop app's update state for the window (docs/updates.md), from the preload's bridge.
// In a browser on `switchboard serve` there is no bridge: the state stays 'unsupported'.
import type { SwitchboardBridge } from '../../src-shared/ipc.ts';
import type { UpdateNotice } from '../../src-shared/updates.ts';
import { ApiError } from './api-client.ts';

export class AppUpdates {
  notice = $state.raw<UpdateNotice>({ state: 'unsupported' });
  #bridge: SwitchboardBridge['updates'];
  #stop: (() => void) | undefined;

  constructor(bridge: SwitchboardBridge | undefined) {
    this.#bridge = bridge?.updates;
  }

  start(): void {
    const b = this.#bridge;
    if (!b) return;
    this.#stop = b.onchange((n) => (this.notice = n));
    void b.state().then((reply) => {
      if ('result' in reply) this.notice = reply.result as UpdateNotice;
    });
  }

  /** "Restart to update"; throws an ApiError with a sentence when it cannot. */
  async restart(): Promise<void> {
    const reply = await this.#bridge?.restart();
    if (reply && 'error' in reply) throw new ApiError(reply.error);
  }

  dispose(): void {
    this.#stop?.();
  }
}
