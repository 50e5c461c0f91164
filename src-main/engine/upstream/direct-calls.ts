// The upstream half of the tools/call fast path: calls written straight onto a 2025-era stdio
// connection and answered by id, past the SDK's Protocol (no zod run on the request or the
// result, no per-call AbortController or timer). Ids of its own (from 2^30 up, far from the
// SDK's, which count from 0) keep both kinds of call apart on the shared pipe; one sweep timer
// per connection enforces callTimeoutSec; the end of the connection answers every call still
// waiting. Everything else on the connection (the server's own requests, notifications, other
// methods) stays with the SDK Client.
import { ProtocolError } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { ChildStdioTransport } from './stdio-transport.ts';

/** First id of a direct call; JSON-RPC peers written in languages with 32-bit ints still read it. */
export const DIRECT_ID_BASE = 2 ** 30;

export interface DirectProgress {
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

/** How a direct call ends: exactly one of onResult and onError, unless it is cancelled. */
export interface DirectCallHandlers {
  /** The server's result, as it sent it. */
  onResult(result: Record<string, unknown>): void;
  /** A timeout, the connection's end, or the server's error, worded as the SDK path words it. */
  onError(err: SwitchboardError): void;
  /** Given only when the call asked for progress. */
  onProgress?(progress: DirectProgress): void;
}

export interface DirectCallsOptions {
  /** The server's name, for error wording. */
  name: string;
  /** callTimeoutSec of the server. */
  timeoutSec: number;
  /** Context of each call in flight, shared with the SDK path's calls (server requests find their caller in it). */
  inflight: Map<number, unknown>;
  /** The error of a call whose connection ended. */
  closedError(): SwitchboardError;
  /** A call's failure as the SDK path names it (`callError` of the connection). */
  failure(err: unknown, what: string): SwitchboardError;
}

interface Pending {
  what: string;
  deadline: number;
  handlers: DirectCallHandlers;
}

export class DirectCalls {
  readonly #transport: ChildStdioTransport;
  readonly #opts: DirectCallsOptions;
  readonly #pending = new Map<number, Pending>();
  #seq = DIRECT_ID_BASE;
  #sweep: NodeJS.Timeout | undefined;
  #sweepAt = Infinity;
  #closed = false;
  /** Calls made over this connection (a test reads it to see the fast path taken). */
  calls = 0;

  constructor(transport: ChildStdioTransport, opts: DirectCallsOptions) {
    this.#transport = transport;
    this.#opts = opts;
    transport.intercept = (m) => this.#intercept(m);
    transport.onend = () => this.close();
  }

  get open(): boolean {
    return !this.#closed;
  }

  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Sends `tools/call` for `tool`. `argsJson` is the arguments already serialised (once: the
   * audit measures the same string). Returns the id to cancel with.
   */
  call(tool: string, argsJson: string | undefined, handlers: DirectCallHandlers, context: unknown): number {
    const id = ++this.#seq;
    const what = `${this.#opts.name}.${tool}`;
    const line =
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(tool)}` +
      (argsJson !== undefined ? `,"arguments":${argsJson}` : '') +
      // The SDK path's Client does the same: the request's own id is its progress token.
      (handlers.onProgress ? `,"_meta":{"progressToken":${id}}` : '') +
      '}}\n';
    this.calls++;
    if (this.#closed || !this.#transport.writeLine(line)) {
      const err = this.#opts.closedError();
      queueMicrotask(() => handlers.onError(err));
      return id;
    }
    const deadline = Date.now() + this.#opts.timeoutSec * 1000;
    this.#pending.set(id, { what, deadline, handlers });
    this.#opts.inflight.set(id, context);
    if (deadline < this.#sweepAt) this.#arm(deadline);
    return id;
  }

  /** The caller gave up (its client cancelled): the server is told, and no answer is delivered. */
  cancel(id: number, reason: string): void {
    if (!this.#forget(id)) return;
    this.#tellCancelled(id, reason);
  }

  /** The connection ended: every call still waiting gets the connection's error. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#sweep);
    this.#sweep = undefined;
    this.#sweepAt = Infinity;
    if (this.#pending.size === 0) return;
    const err = this.#opts.closedError();
    const calls = [...this.#pending.entries()];
    for (const [id] of calls) this.#forget(id);
    for (const [, p] of calls) p.handlers.onError(err);
  }

  #forget(id: number): Pending | undefined {
    const p = this.#pending.get(id);
    if (!p) return undefined;
    this.#pending.delete(id);
    this.#opts.inflight.delete(id);
    return p;
  }

  #intercept(m: JSONRPCMessage): boolean {
    const msg = m as { id?: unknown; method?: unknown; params?: { progressToken?: unknown }; result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (msg.method === undefined) {
      if (typeof msg.id !== 'number' || msg.id <= DIRECT_ID_BASE) return false;
      const p = this.#forget(msg.id);
      if (!p) return msg.id <= this.#seq; // an answer to a call that timed out or was cancelled
      if (msg.error !== undefined) {
        const e = msg.error;
        p.handlers.onError(this.#opts.failure(ProtocolError.fromError(Number(e.code), String(e.message ?? ''), e.data), p.what));
      } else if (msg.result === null || typeof msg.result !== 'object' || Array.isArray(msg.result)) {
        p.handlers.onError(this.#opts.failure(new Error('the server\'s result is not an object'), p.what));
      } else {
        p.handlers.onResult(msg.result as Record<string, unknown>);
      }
      return true;
    }
    if (msg.method === 'notifications/progress') {
      const token = msg.params?.progressToken;
      if (typeof token !== 'number' || token <= DIRECT_ID_BASE) return false;
      const p = this.#pending.get(token);
      if (!p) return token <= this.#seq;
      const { progressToken: _t, ...progress } = msg.params as Record<string, unknown>;
      p.handlers.onProgress?.(progress as DirectProgress);
      return true;
    }
    return false;
  }

  #tellCancelled(id: number, reason: string): void {
    this.#transport.writeLine(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":${JSON.stringify(reason)}}}\n`);
  }

  /** One timer per connection, due at the earliest deadline of the calls waiting. */
  #arm(at: number): void {
    clearTimeout(this.#sweep);
    this.#sweepAt = at;
    this.#sweep = setTimeout(() => this.#expire(), Math.max(0, at - Date.now()));
    this.#sweep.unref();
  }

  #expire(): void {
    this.#sweep = undefined;
    this.#sweepAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    const due: [number, Pending][] = [];
    for (const [id, p] of this.#pending) {
      if (p.deadline <= now) due.push([id, p]);
      else if (p.deadline < next) next = p.deadline;
    }
    if (next !== Infinity) this.#arm(next);
    const sec = this.#opts.timeoutSec;
    for (const [id, p] of due) {
      this.#forget(id);
      const message = `${p.what} took longer than ${sec} s (callTimeoutSec) and was cancelled`;
      this.#tellCancelled(id, message);
      p.handlers.onError(new SwitchboardError('timeout', message));
    }
  }
}
