// Progress of the calls in flight on one upstream connection, handed on in the order the server
// sent it. The SDK's client runs a notification's handler a microtask after it read it, but
// dispatches a response at once, and the response removes its call's progress handler: progress
// read together with its call's result (a burst, or a pipe a loaded engine read late) was dropped
// whole (a client saw no progress at all). Here each call gets a token of ours, and
// its progress is taken off the transport as it is read, so it is handed on before the result.
import type { Transport } from '@modelcontextprotocol/client';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';

/** Tokens are strings of our own: never one the SDK gives (its are its request ids, numbers). */
const TOKEN_PREFIX = 'switchboard-progress-';

export class CallProgress {
  #seq = 0;
  readonly #sinks = new Map<string, (progress: Progress) => void>();

  /**
   * Takes the progress of our calls off `transport` as each message is read; everything else goes
   * on to the client. Called once the client connected it (its `onmessage` is set).
   */
  tap(transport: Transport): void {
    const inner = transport.onmessage;
    if (!inner) return;
    transport.onmessage = ((message: unknown, extra?: unknown) => {
      const m = message as { method?: unknown; params?: { progressToken?: unknown } } | undefined;
      const token = m?.method === 'notifications/progress' ? m.params?.progressToken : undefined;
      const sink = typeof token === 'string' ? this.#sinks.get(token) : undefined;
      if (sink) {
        const { progressToken: _t, ...progress } = m!.params as Record<string, unknown>;
        sink(progress as Progress);
        return;
      }
      (inner as (m: unknown, e?: unknown) => void)(message, extra);
    }) as Transport['onmessage'];
  }

  /** A token for one call's progress, and `params` carrying it; `close` once the call ended. */
  open(params: unknown, sink: (progress: Progress) => void): { params: Record<string, unknown>; close(): void } {
    const token = `${TOKEN_PREFIX}${++this.#seq}`;
    this.#sinks.set(token, sink);
    const p = (params ?? {}) as Record<string, unknown>;
    const meta = (p._meta ?? {}) as Record<string, unknown>;
    return { params: { ...p, _meta: { ...meta, progressToken: token } }, close: () => void this.#sinks.delete(token) };
  }
}
