// Mid-call input for 2026-07-28 clients. A server of either era may need input while a call
// runs (a 2025 server sends `elicitation/create` / `sampling/createMessage` / `roots/list`; a
// 2026-07-28 one returns `input_required`, which the upstream client turns into the same request).
// A 2026-07-28 client cannot be sent requests: the gateway answers its tools/call with an
// `input_required` result naming what the server asked, keeps the upstream call running, and
// when the client retries with `inputResponses` and the echoed `requestState`, hands the
// answers to the waiting server and answers the retry with the result (or the next question).
// The state is a random token bound to the profile and the client's name; it expires.
import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** A client that does not come back within this long gets its call cancelled, in ms (human-paced). */
export const INPUT_WAIT_MS = 10 * 60_000;

interface Ask {
  key: string;
  method: string;
  params: unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** A round of a call: done with its result, or the questions to put to the client and the state to echo. */
export type InputRound<R> =
  | { result: R; inputRequests?: undefined; requestState?: undefined }
  | { result?: undefined; inputRequests: Record<string, { method: string; params?: unknown }>; requestState: string };

class Pending<R> {
  readonly token = randomUUID();
  /** Passed as the upstream call's request id: server requests of this call come back here. */
  readonly origin = `input:${this.token}`;
  readonly abort = new AbortController();
  done!: Promise<{ ok: true; value: R } | { ok: false; error: unknown }>;
  readonly asked = new Map<string, Ask>();
  fresh: Ask[] = [];
  wake: (() => void) | undefined;
  timer: NodeJS.Timeout | undefined;
  seq = 0;

  constructor(
    readonly profile: string,
    readonly client: string,
  ) {}

  /** Starts the call (after the bridge knows this origin: the call may ask at once). */
  begin(run: (origin: string, signal: AbortSignal) => Promise<R>): void {
    this.done = Promise.resolve()
      .then(() => run(this.origin, this.abort.signal))
      .then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    void this.done.then(() => this.wake?.());
  }
}

export class InputBridge {
  readonly #waitMs: number;
  readonly #byToken = new Map<string, Pending<unknown>>();
  readonly #byOrigin = new Map<string, Pending<unknown>>();

  constructor(waitMs = INPUT_WAIT_MS) {
    this.#waitMs = waitMs;
  }

  /** Starts a call that may ask for input; resolves with its result or its first questions. */
  start<R>(profile: string, client: string, run: (origin: string, signal: AbortSignal) => Promise<R>, signal: AbortSignal): Promise<InputRound<R>> {
    const p = new Pending<R>(profile, client);
    this.#byToken.set(p.token, p as Pending<unknown>);
    this.#byOrigin.set(p.origin, p as Pending<unknown>);
    p.begin(run);
    return this.#round(p, signal);
  }

  /** A retry: answers the questions of the last round, then waits for the next outcome. */
  resume<R>(state: string, profile: string, client: string, responses: Record<string, unknown> | undefined, signal: AbortSignal): Promise<InputRound<R>> {
    const p = this.#byToken.get(state) as Pending<R> | undefined;
    if (!p || p.profile !== profile || p.client !== client) {
      throw new McpError(ErrorCode.InvalidParams, 'This requestState is unknown or has expired (the call it belonged to ended); make the call again.');
    }
    clearTimeout(p.timer);
    for (const [key, ask] of p.asked) {
      p.asked.delete(key);
      const answer = responses?.[key];
      if (answer === undefined) ask.reject(new McpError(ErrorCode.InvalidParams, `The client gave no answer for "${key}".`));
      else ask.resolve(answer);
    }
    return this.#round(p, signal);
  }

  /** Whether a server request belongs to a call waiting here (by the call's request id). */
  owns(origin: unknown): boolean {
    return typeof origin === 'string' && this.#byOrigin.has(origin);
  }

  /** A server asks for input during the call `origin`: queued until the client is asked. */
  ask(origin: string, method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const p = this.#byOrigin.get(origin);
    if (!p) return Promise.reject(new Error('The call that asked has ended.'));
    return new Promise((resolve, reject) => {
      const ask: Ask = { key: `input_${++p.seq}`, method, params, resolve, reject };
      p.fresh.push(ask);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      p.wake?.();
    });
  }

  async #round<R>(p: Pending<R>, signal: AbortSignal): Promise<InputRound<R>> {
    const onAbort = () => p.abort.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (p.fresh.length > 0) {
          const asks = p.fresh;
          p.fresh = [];
          const inputRequests: Record<string, { method: string; params?: unknown }> = {};
          for (const a of asks) {
            p.asked.set(a.key, a);
            inputRequests[a.key] = { method: a.method, params: a.params };
          }
          p.timer = setTimeout(() => this.#expire(p), this.#waitMs);
          p.timer.unref?.();
          return { inputRequests, requestState: p.token };
        }
        const settled = await Promise.race([p.done, new Promise<undefined>((r) => (p.wake = () => r(undefined)))]);
        p.wake = undefined;
        if (settled) {
          this.#forget(p);
          if (!settled.ok) throw settled.error;
          return { result: settled.value };
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  #expire(p: Pending<unknown>): void {
    for (const ask of p.asked.values()) ask.reject(new Error('The client did not answer in time.'));
    p.asked.clear();
    p.abort.abort(new Error('The client did not answer the input request in time.'));
    this.#forget(p);
  }

  #forget(p: Pending<unknown>): void {
    clearTimeout(p.timer);
    this.#byToken.delete(p.token);
    this.#byOrigin.delete(p.origin);
  }
}
