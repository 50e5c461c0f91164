// The 2026-07-28 face of each /mcp/<profile> endpoint. That revision keeps no sessions: every
// POST stands alone, carrying its `_meta` envelope and the `Mcp-Method` / `Mcp-Name` /
// `MCP-Protocol-Version` headers, and change notifications flow only on `subscriptions/listen`
// streams. The v2 SDK's HTTP entry (createMcpHandler) checks all of that and answers with the
// revision's error codes; we give it a fresh Rev20260728Session per request and tell its listen
// streams what changed. 2025 traffic (initialize, Mcp-Session-Id) stays on the session endpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { EventEmitter } from 'node:events';
import type { GatewayPort } from '../gateway/session-base.ts';
import type { Rev20260728Session } from '../gateway/session-2026-07-28.ts';
import { ListenBridge } from '../gateway/listen-bridge.ts';

/** What the endpoint needs of the gateway (the Gateway is one; a small interface keeps the modules apart). */
export interface Rev20260728EndpointGateway extends GatewayPort {
  readonly events: EventEmitter<{ listChanged: [profile: string, kind: 'tools' | 'resources' | 'prompts']; resourceUpdated: [server: string, uri: string] }>;
  rev20260728RequestSession(profile: string): Rev20260728Session | undefined;
  unknownProfileMessage(profile: string): string;
}

export class Rev20260728Endpoint {
  readonly #gateway: Rev20260728EndpointGateway;
  readonly #handlers = new Map<string, McpHttpHandler>();
  readonly #onList = (profile: string, kind: 'tools' | 'resources' | 'prompts') => {
    const n = this.#handlers.get(profile)?.notify;
    if (!n) return;
    if (kind === 'tools') n.toolsChanged();
    else if (kind === 'resources') n.resourcesChanged();
    else n.promptsChanged();
  };
  readonly #onUpdated = (server: string, uri: string) => {
    for (const [profile, handler] of this.#handlers) {
      if (this.#gateway.view(profile)?.resourceOwner(uri) === server) handler.notify.resourceUpdated(uri);
    }
  };

  constructor(gateway: Rev20260728EndpointGateway) {
    this.#gateway = gateway;
    gateway.events.on('listChanged', this.#onList);
    gateway.events.on('resourceUpdated', this.#onUpdated);
  }

  /** A POST the 2026-07-28 entry must answer (the SDK's own routing rule: it carries the era's claim). */
  static async isRev20260728(request: Request, parsedBody: unknown): Promise<boolean> {
    return !(await isLegacyRequest(request, parsedBody));
  }

  async serve(request: Request, parsedBody: unknown, profile: string, res: ServerResponse, req: IncomingMessage): Promise<void> {
    // A listen stream lives as long as its response: the upstream subscriptions it needs too.
    const release = new ListenBridge(this.#gateway, profile).inbound(parsedBody);
    try {
      const response = await this.#handler(profile).fetch(request, { parsedBody });
      await writeFetchResponse(response, req, res);
    } finally {
      release?.();
    }
  }

  #handler(profile: string): McpHttpHandler {
    let h = this.#handlers.get(profile);
    if (!h) {
      h = createMcpHandler(
        () => {
          const session = this.#gateway.rev20260728RequestSession(profile);
          if (!session) throw new Error(this.#gateway.unknownProfileMessage(profile));
          return session.server;
        },
        // 2025 requests never get here (the session endpoint serves them), so none is served stateless.
        { legacy: 'reject' },
      );
      this.#handlers.set(profile, h);
    }
    return h;
  }

  async close(): Promise<void> {
    this.#gateway.events.off('listChanged', this.#onList);
    this.#gateway.events.off('resourceUpdated', this.#onUpdated);
    await Promise.all([...this.#handlers.values()].map((h) => h.close().catch(() => {})));
    this.#handlers.clear();
  }
}

/** A fetch Request for a Node request whose body was already read. */
export function toFetchRequest(req: IncomingMessage, base: string, body: Buffer | undefined): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', base), { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body });
}

/** Streams a fetch Response (JSON or SSE) to a Node response; a client that leaves cancels it. */
async function writeFetchResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  res.on('close', stop);
  req.on('close', () => {
    if (!res.writableEnded) stop();
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The stream ended early (client gone, or the handler closed): nothing more to send.
  } finally {
    res.off('close', stop);
    res.end();
  }
}
