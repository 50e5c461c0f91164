// Requests an upstream makes of its client (sampling, elicitation, roots), routed to the client
// whose call they belong to, and only to it (docs/protocol.md).
import type { ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { answerWithoutClient, callEndedMessage, NotAskedError } from '../upstream/answer-without-client.ts';
import type { InputBridge } from './input-bridge.ts';
import type { RootsRouter } from '../upstream/roots.ts';
import { SessionBase, type CallOrigin } from './session-base.ts';

/** What the connection proves of a request: the call itself, else the calls in flight to that server. */
export interface RequestTie {
  call?: { context: unknown };
  calls: unknown[];
}

export interface RequestRouterDeps {
  sessions: ReadonlySet<SessionBase>;
  inputs: InputBridge;
  roots: RootsRouter<SessionBase>;
}

export class ServerRequestRouter {
  readonly #deps: RequestRouterDeps;

  constructor(deps: RequestRouterDeps) {
    this.#deps = deps;
  }

  /**
   * `tie` is what the upstream's connection proves: the call itself (a 2026-07-28
   * `input_required`, a request on a call's Streamable HTTP stream), else the calls in flight to
   * that server (stdio carries no link). Untied, it is that client's only when one call is in
   * flight, or when all of them are one 2025 session's; else it is refused, never guessed. Made
   * outside any call, it goes to the most recently active 2025 client of a profile including the
   * server, else the gateway answers (declined). Roots are the RootsRouter's (roots.ts).
   */
  async route(server: string, request: ServerRequest, signal: AbortSignal | undefined, tie: RequestTie): Promise<unknown> {
    // Roots never follow "whoever is active" (roots.ts), nor reach a server during another client's call.
    if (request.method === 'roots/list') {
      const during = (tie.call ? [tie.call.context] : tie.calls).map((c) => {
        const o = this.#origin(c);
        return o instanceof Object ? o.session : undefined;
      });
      return this.#deps.roots.answer(server, signal, during);
    }
    const origin = tie.call ? this.#tiedOrigin(server, tie.call.context) : tie.calls.length > 0 ? this.#provenOrigin(server, tie.calls) : undefined;
    // null: a call no client made (Switchboard's own); the gateway answers for it.
    const target = origin === null ? undefined : origin ? origin.session : this.#mostRecentlyActive(server);
    if (target && target.accepts(request.method)) return target.forwardRequest(request, signal, origin?.requestId);
    return answerWithoutClient(request.method);
  }

  /** Outside any call: the most recently active 2025 client of a profile including the server (a 2026-07-28 one can be asked only within its own call). */
  #mostRecentlyActive(server: string): SessionBase | undefined {
    let target: SessionBase | undefined;
    for (const s of this.#deps.sessions) {
      if (s.era === 'legacy' && s.view?.includes(server) && (!target || s.lastActive > target.lastActive)) target = s;
    }
    return target;
  }

  /** A call's context as a live client call; null for a call no client made (the gateway's own). */
  #origin(context: unknown): CallOrigin | null | 'ended' {
    const o = context as CallOrigin | undefined;
    if (!(o instanceof Object) || !(o.session instanceof SessionBase)) return null;
    return this.#deps.sessions.has(o.session) || this.#deps.inputs.owns(o.requestId) ? o : 'ended';
  }

  #tiedOrigin(server: string, context: unknown): CallOrigin | null {
    const o = this.#origin(context);
    if (o === 'ended') throw new NotAskedError(callEndedMessage(server));
    return o;
  }

  /**
   * Whose a request is that the connection did not tie to a call, when the calls in flight prove
   * it: the only call, calls that all come from one 2025 session (which can be asked outside a
   * particular call), or calls that all serve one request of a 2026-07-28 client (a code run's).
   * Anything else is refused.
   */
  #provenOrigin(server: string, calls: unknown[]): CallOrigin | null {
    if (calls.length === 1) return this.#tiedOrigin(server, calls[0]);
    const origins = calls.map((c) => this.#origin(c));
    const first = origins[0];
    // A 2026-07-28 client is asked within one request: all calls must serve that one (a code run's).
    const same = (o: (typeof origins)[number]) => o instanceof Object && first instanceof Object && o.session === first.session && (first.session.era === 'legacy' || o.requestId === first.requestId);
    if (first instanceof Object && origins.every(same)) return first;
    throw new NotAskedError(
      `Switchboard cannot tell which call this question belongs to: ${calls.length} calls of different clients are running on ${server}, and its connection does not say which call asked. ` +
        'Nobody was asked; ask again when only one call is running (a server reached over Streamable HTTP can tie its questions to their call).',
    );
  }
}
