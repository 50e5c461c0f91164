// The control API over the engine process's message port: ControlRequest out, ControlResponse
// back, matched by id. Calls fail with a sentence (not a hang) when the engine is away.
import type { ControlClient, ControlMethod, ControlParams, ControlRequest, ControlResponse, ControlResult } from '../../src-shared/api.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';
import type { EngineProcess, Timers } from './engine-supervisor.ts';
import { realTimers } from './engine-supervisor.ts';

export interface EngineRpc extends ControlClient {
  /** Wire a (new) engine process: its replies resolve calls; its exit fails the pending ones. */
  attach(proc: EngineProcess): void;
  dispose(): void;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: unknown;
}

/** `timeoutMs`: longest wait for one reply; `exec` runs get their own budget on top. Defaults to 60000. */
export function createEngineRpc(timers: Timers = realTimers, timeoutMs = 60_000): EngineRpc {
  let proc: EngineProcess | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (message: string) => {
    for (const [id, p] of pending) {
      if (p.timer !== undefined) timers.clearTimeout(p.timer);
      p.reject(new SwitchboardError('engine-unavailable', message));
      pending.delete(id);
    }
  };

  return {
    attach(p) {
      proc = p;
      p.on('message', (msg) => {
        const r = msg as ControlResponse;
        if (!r || typeof r !== 'object' || typeof r.id !== 'number') return;
        const waiting = pending.get(r.id);
        if (!waiting) return;
        pending.delete(r.id);
        if (waiting.timer !== undefined) timers.clearTimeout(waiting.timer);
        if ('error' in r) waiting.reject(new SwitchboardError(r.error.code, r.error.message, r.error.problems));
        else waiting.resolve(r.result);
      });
      p.on('exit', () => {
        if (proc === p) proc = null;
        failAll('The Switchboard engine stopped while answering. It restarts by itself; try again in a few seconds.');
      });
    },
    call<M extends ControlMethod>(method: M, params: ControlParams<M>): Promise<ControlResult<M>> {
      const target = proc;
      if (!target) {
        return Promise.reject(new SwitchboardError('engine-unavailable', 'The Switchboard engine is starting. Try again in a few seconds.'));
      }
      const id = nextId++;
      const req: ControlRequest = { id, method, params };
      return new Promise((resolve, reject) => {
        // `exec` is bounded by the profile's own timeoutMs in the engine; a second, shorter
        // limit here would cut long but legitimate runs.
        const timer =
          method === 'exec'
            ? undefined
            : timers.setTimeout(() => {
                pending.delete(id);
                reject(new SwitchboardError('timeout', 'The Switchboard engine did not answer in time.'));
              }, timeoutMs);
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
        target.postMessage(req);
      });
    },
    dispose() {
      failAll('Switchboard is quitting.');
      proc = null;
    },
  };
}
