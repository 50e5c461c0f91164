// The client half of the tools/call fast path, for a 2025 client on the shim's socket: a plain
// tools/call is taken off the line transport before the SDK's Server sees it, resolved through
// the profile view, sent through the gateway's one call pipeline (call-pipeline.ts: filter,
// pin check, readiness, audit) straight onto the server's connection, and answered with one
// serialisation and the client's own id. Anything else — task-augmented calls, odd shapes, a
// name to look up once starting servers settle, a server without a direct lane, the code
// surface's search_tools and get_schema — is left to the SDK path, which answers it as it always
// did. A code profile's `execute` takes the fast path too: it is the one call of that surface.
import type { JSONRPCMessage, Progress, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { SwitchboardError } from '../../../src-shared/errors.ts';
import { EXECUTE } from './code-tools.ts';
import { errorResult } from './profile-requests.ts';
import type { GatewayPort, SessionBase } from './session-base.ts';

interface ToolCallMessage {
  id?: unknown;
  method?: unknown;
  params?: {
    name?: unknown;
    arguments?: unknown;
    task?: unknown;
    _meta?: { progressToken?: unknown } | null;
    requestId?: unknown;
  };
}

export class FastToolCalls {
  readonly #session: SessionBase & { readonly initialized: boolean };
  readonly #gateway: GatewayPort;
  readonly #write: (line: string) => boolean;
  /** Calls in flight by the client's request id, to cancel them. */
  readonly #calls = new Map<RequestId, { cancel(): void }>();

  constructor(session: SessionBase & { readonly initialized: boolean }, gateway: GatewayPort, write: (line: string) => boolean) {
    this.#session = session;
    this.#gateway = gateway;
    this.#write = write;
  }

  /** Handles the message and returns true, or returns false to leave it to the SDK's Server. */
  take(message: JSONRPCMessage): boolean {
    const m = message as ToolCallMessage;
    if (m.method === 'notifications/cancelled') return this.#cancel(m.params?.requestId);
    if (m.method !== 'tools/call') return false;
    const id = m.id;
    const p = m.params;
    if ((typeof id !== 'string' && typeof id !== 'number') || !p || typeof p.name !== 'string' || p.task !== undefined) return false;
    const args = p.arguments;
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return false;
    const meta = p._meta;
    if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return false;
    const token = meta?.progressToken;
    if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') return false;
    const gateway = this.#gateway;
    const session = this.#session;
    if (!gateway.callToolDirect || this.#calls.has(id) || !session.initialized) return false;
    const view = session.clientView;
    if (!view) return false;
    if (view.surface === 'code') return p.name === EXECUTE && this.#execute(id, view, args as Record<string, unknown> | undefined, token);
    if (view.surface !== 'tools') return false;
    const target = view.resolveTool(p.name);
    if (!target) return false;
    const idJson = JSON.stringify(id);
    let answered = false;
    const handle = gateway.callToolDirect(
      view,
      target.server,
      target.tool,
      args as Record<string, unknown> | undefined,
      {
        session,
        requestId: id,
        client: session.clientName,
        ...(token !== undefined ? { progress: (pr: Progress) => this.#progress(token, pr) } : {}),
      },
      (outcome) => {
        answered = true;
        this.#calls.delete(id);
        const result = 'result' in outcome ? outcome.result : errorResult((outcome.error as SwitchboardError).toData());
        this.#write(`{"jsonrpc":"2.0","id":${idJson},"result":${JSON.stringify(result)}}\n`);
      },
    );
    if (!handle) return false;
    session.lastActive = Date.now();
    if (!answered) this.#calls.set(id, handle);
    return true;
  }

  /**
   * `execute` of a code profile, run as the SDK path runs it (gateway.execute); a call without a
   * string `code` is left to the SDK path, which says what is missing.
   */
  #execute(id: string | number, view: NonNullable<SessionBase['clientView']>, args: Record<string, unknown> | undefined, token: string | number | undefined): boolean {
    const code = args?.code;
    if (typeof code !== 'string' || this.#gateway.knobs?.fastPath === false) return false;
    if (this.#gateway.stats) this.#gateway.stats.fastExecutes++;
    const session = this.#session;
    const ctrl = new AbortController();
    this.#calls.set(id, { cancel: () => ctrl.abort() });
    session.lastActive = Date.now();
    const idJson = JSON.stringify(id);
    const progress = token === undefined ? undefined : (pr: Progress) => this.#progress(token, pr);
    this.#gateway.execute(view, session, code, ctrl.signal, id, session.clientName, progress).then(
      (result) => {
        // A cancelled call gets no answer (as on the SDK path).
        if (ctrl.signal.aborted) return;
        this.#calls.delete(id);
        this.#write(`{"jsonrpc":"2.0","id":${idJson},"result":${JSON.stringify(result)}}\n`);
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        this.#calls.delete(id);
        // What the SDK's Server answers for a handler that throws.
        const e = err as { code?: unknown; message?: unknown; data?: unknown };
        const error = { code: Number.isSafeInteger(e?.code) ? e.code : -32603, message: typeof e?.message === 'string' ? e.message : 'Internal error', ...(e?.data !== undefined ? { data: e.data } : {}) };
        this.#write(`{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(error)}}\n`);
      },
    );
    return true;
  }

  /** The client's cancellation of a fast call: the server is told; the client gets no answer (as on the SDK path). */
  #cancel(requestId: unknown): boolean {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return false;
    const call = this.#calls.get(requestId);
    if (!call) return false;
    this.#calls.delete(requestId);
    call.cancel();
    return true;
  }

  #progress(token: string | number, p: Progress): void {
    this.#write(`{"jsonrpc":"2.0","method":"notifications/progress","params":${JSON.stringify({ ...p, progressToken: token })}}\n`);
  }

  /** The session ended: its calls are cancelled, as the SDK path aborts its handlers. */
  closeAll(): void {
    const calls = [...this.#calls.values()];
    this.#calls.clear();
    for (const c of calls) c.cancel();
  }
}
