// The calls made over one upstream connection: each bounded by callTimeoutSec and cancellable by
// its caller, its progress handed on as the server sends it, a task followed to its result, a
// 2026-07-28 `input_required` answered for the call that asked, and the calls in flight known
// (whose a server's request can be).
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { LOG_LEVEL_META_KEY } from './call-logs.ts';
import { CallProgress } from './call-progress.ts';
import type { ConnectionAttempt } from './connection-attempt.ts';
import { answerInputRounds } from './input-rounds.ts';
import { followTask, liftedTask } from './tasks-2026-07-28.ts';
import { CALL_HEADER, type StreamTies } from './stream-ties.ts';
import { callEndedMessage, NotAskedError } from './answer-without-client.ts';
import { sendRequest } from './upstream-client.ts';
import type { CallOptions, ServerRequestExtra } from './upstream-options.ts';

type Params = Record<string, unknown>;

/** What the calls need of their server. */
export interface CallsHost {
  readonly name: string;
  /** Seconds a call may take (callTimeoutSec). */
  timeoutSec(): number;
  /** True when the current connection speaks 2026-07-28. */
  speaksRev20260728(): boolean;
  /** 2025-11-25 tasks: whether the tool runs as a task of the server. */
  taskSupport(tool: string): 'optional' | 'required' | undefined;
  /**
   * The connection to send on: waits until it is ready (at most `ms`, or until `signal`), and
   * throws what the caller should be told when there is none (sign-in needed, not running).
   */
  connection(ms: number, signal: AbortSignal): Promise<ConnectionAttempt & { client: NonNullable<ConnectionAttempt['client']> }>;
  /** Answers a server request that came inside a call's `input_required`. */
  answer(request: { method: string; params?: Params }, extra: ServerRequestExtra): Promise<Params>;
  /** What a call that failed on `attempt` says (sign-in, connection closed, …). */
  failure(err: unknown, what: string, attempt: ConnectionAttempt | undefined): SwitchboardError;
}

export class UpstreamCalls {
  readonly #host: CallsHost;
  /** Our call id → the caller's context, for every call in flight (the fast lane's too). */
  readonly inflight = new Map<number, unknown>();
  #callSeq = 0;
  /** Our calls' progress, taken off the transport in the order it is read (call-progress.ts). */
  readonly progress = new CallProgress();

  constructor(host: CallsHost) {
    this.#host = host;
  }

  async callTool(params: CallToolRequest['params'], opts: CallOptions = {}): Promise<CallToolResult> {
    const host = this.#host;
    if (opts.logLevel !== undefined && host.speaksRev20260728()) {
      params = { ...params, _meta: { ...params._meta, [LOG_LEVEL_META_KEY]: opts.logLevel } };
    }
    if (params.task === undefined && host.taskSupport(params.name) === 'required') return this.#callThroughTask(params, opts);
    const result = await this.send('tools/call', params, opts, `${host.name}.${params.name}`);
    const task = liftedTask(result);
    if (task) return this.#followRev20260728Task(task, `${host.name}.${params.name}`, opts);
    return result as CallToolResult;
  }

  /** A 2026-07-28 server answered with a task (tasks-2026-07-28.ts): its result, within callTimeoutSec. */
  async #followRev20260728Task(task: NonNullable<ReturnType<typeof liftedTask>>, what: string, opts: CallOptions): Promise<CallToolResult> {
    const sec = this.#host.timeoutSec();
    const timeout = AbortSignal.timeout(sec * 1000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    try {
      const get = (taskId: string) => this.send('tasks/get', { taskId }, { signal }, what);
      const cancel = (taskId: string) => void this.send('tasks/cancel', { taskId }, {}, what).catch(() => {});
      return (await followTask(task, what, get, cancel, signal)) as CallToolResult;
    } catch (err) {
      if (opts.signal?.aborted) throw new SwitchboardError('cancelled', `${what} was cancelled`);
      if (timeout.aborted) throw new SwitchboardError('timeout', `${what} took longer than ${sec} s (callTimeoutSec) and was cancelled`);
      throw err;
    }
  }

  /**
   * A caller that wants a plain result from a tool that runs only as a task: start the task,
   * wait for its result (tasks/result blocks until it ends), and cancel it when the caller gives up.
   */
  async #callThroughTask(params: CallToolRequest['params'], opts: CallOptions): Promise<CallToolResult> {
    const what = `${this.#host.name}.${params.name}`;
    const created = (await this.send('tools/call', { ...params, task: {} }, opts, what)) as { task?: { taskId?: unknown } };
    const taskId = created.task?.taskId;
    if (typeof taskId !== 'string') return created as CallToolResult;
    try {
      return (await this.send('tasks/result', { taskId }, opts, what)) as CallToolResult;
    } catch (err) {
      if (opts.signal?.aborted || (err instanceof SwitchboardError && err.code === 'timeout')) {
        void this.send('tasks/cancel', { taskId }, {}, what).catch(() => {});
      }
      throw err;
    }
  }

  /**
   * Whose call a request the server sent on the wire belongs to (ServerRequestExtra): the call
   * whose Streamable HTTP stream (`ties`) carried it, else every call in flight (stdio and the old
   * SSE transport carry no link between a request and a call). `note` logs one nobody is asked.
   */
  tieOf(ties: StreamTies | undefined, requestId: unknown, note: (line: string) => void): Pick<ServerRequestExtra, 'call' | 'calls'> {
    const call = ties?.take(requestId);
    if (call === undefined) return { calls: [...this.inflight.values()] };
    if (!this.inflight.has(call)) {
      note(`a question came on the stream of a call that has ended; nobody was asked`);
      throw new NotAskedError(callEndedMessage(this.#host.name));
    }
    return { call: { context: this.inflight.get(call) }, calls: [] };
  }

  /** One request to the server, bounded by callTimeoutSec; `what` names it in errors. */
  async send(method: string, params: unknown, opts: CallOptions, what: string): Promise<Params> {
    const sec = this.#host.timeoutSec();
    const deadline = Date.now() + sec * 1000;
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort(new Error(`${what} took longer than ${sec} s (callTimeoutSec) and was cancelled`));
    }, sec * 1000);
    const onAbort = () => ctrl.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const id = ++this.#callSeq;
    this.inflight.set(id, opts.context);
    // Progress goes to the caller as the server sends it, ahead of the result (call-progress.ts).
    const progress = opts.onProgress ? this.progress.open(params, opts.onProgress) : undefined;
    if (progress) params = progress.params;
    let attempt: ConnectionAttempt | undefined;
    try {
      opts.signal?.throwIfAborted();
      const conn = await this.#host.connection(deadline - Date.now(), ctrl.signal);
      attempt = conn;
      const client = conn.client;
      const subs = conn.subscriptions;
      if (subs && (method === 'resources/subscribe' || method === 'resources/unsubscribe')) {
        // 2026-07-28 has no resources/subscribe: the same wish is a listen stream naming the URI.
        const uri = String((params as { uri?: unknown } | undefined)?.uri ?? '');
        await (method === 'resources/subscribe' ? subs.subscribe(uri) : subs.unsubscribe(uri));
        return {};
      }
      const rev20260728 = client.getProtocolEra() === 'modern';
      const options = {
        signal: ctrl.signal,
        // Our own timer decides; this only keeps the SDK's 60 s default out of the way.
        timeout: sec * 1000 + 60_000,
        // 2026-07-28: an `input_required` result comes back to us, to be answered for this call
        // alone (input-rounds.ts); the SDK's own loop would not say whose call asked.
        ...(rev20260728 ? { allowInputRequired: true } : {}),
        // Streamable HTTP: the server's requests on this call's stream are this call's.
        ...(conn.ties ? { headers: { [CALL_HEADER]: String(id) } } : {}),
      };
      const send = (p: unknown): Promise<Params> => sendRequest(client, method, p, options);
      const first = await send(params);
      if (!rev20260728) return first;
      const answer = (ask: { method: string; params?: Params }, signal: AbortSignal) => this.#host.answer(ask, { signal, call: { context: opts.context }, calls: [] });
      return await answerInputRounds(first, params as Params | undefined, { what, signal: ctrl.signal, answer, retry: send });
    } catch (err) {
      if (timedOut) throw new SwitchboardError('timeout', `${what} took longer than ${sec} s (callTimeoutSec) and was cancelled`);
      if (opts.signal?.aborted) throw new SwitchboardError('cancelled', `${what} was cancelled`);
      throw this.#host.failure(err, what, attempt);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      this.inflight.delete(id);
      progress?.close();
    }
  }
}

/** `promise`, or the signal's reason once it is aborted. */
export async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
  ]);
}
