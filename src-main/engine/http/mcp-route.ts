// Each profile as Streamable HTTP under /mcp/<profile>: a 2026-07-28 request goes to the
// stateless endpoint (endpoint-2026-07-28.ts), anything else to a 2025 session kept by its
// `mcp-session-id` until it closes or idles out.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Gateway } from '../gateway/gateway.ts';
import { MAX_MESSAGE_BYTES } from '../gateway/line-transport.ts';
import { loadRev20260728 } from './load-rev-2026-07-28.ts';
import { readCappedBody, sendJson, TOO_LARGE } from './bodies.ts';
import { BoundedEventStore } from './event-store.ts';
import type { Rev20260728Endpoint } from './endpoint-2026-07-28.ts';

/** An HTTP MCP session with no request for this long is closed, in ms (30 minutes). */
const SESSION_IDLE_MS = 30 * 60_000;
/** Bytes of a refused body read and dropped so the client can read the 413 (a bigger upload is cut off). */
const MAX_DISCARD_BYTES = 4 * MAX_MESSAGE_BYTES;

export class McpRoute {
  readonly #engine: { readonly gateway: Gateway };
  /** The server's base URL, for the requests handed to the 2026-07-28 endpoint. */
  readonly #baseUrl: () => string;
  readonly #sessions = new Map<string, { transport: StreamableHTTPServerTransport; profile: string; lastSeen: number }>();
  #rev20260728: Rev20260728Endpoint | undefined;

  constructor(engine: { readonly gateway: Gateway }, baseUrl: () => string) {
    this.#engine = engine;
    this.#baseUrl = baseUrl;
  }

  async handle(req: IncomingMessage, res: ServerResponse, profile: string): Promise<void> {
    const gateway = this.#engine.gateway;
    if (!gateway.view(profile)) {
      sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: gateway.unknownProfileMessage(profile) } });
      return;
    }
    // The SDK caps bodies at 4 MB by default; every transport allows 64 MB messages (docs/configuration.md).
    // The body is read here, up to that, so a larger one gets an answer that says what to do.
    let body: unknown;
    let raw: Buffer | undefined;
    if (req.method === 'POST') {
      const read = await readCappedBody(req, MAX_MESSAGE_BYTES);
      if (read === TOO_LARGE) return tooLarge(req, res);
      raw = read;
      try {
        body = JSON.parse(read.toString('utf8'));
      } catch {
        sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' } });
        return;
      }
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const entry = this.#sessions.get(sid);
      if (!entry || entry.profile !== profile) {
        sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unknown or expired session; initialize again.' } });
        return;
      }
      entry.lastSeen = Date.now();
      await entry.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Start a session with an initialize POST.' } });
      return;
    }
    // Which generation: a 2026-07-28 request carries its era's claim (envelope, headers) and
    // goes to the stateless endpoint; everything else to a 2025 session as before.
    // (The SDK's rule for telling them apart comes with the 2026-07-28 side, loaded on the first such POST.)
    const { Rev20260728Endpoint, toFetchRequest } = await loadRev20260728();
    const request = toFetchRequest(req, this.#baseUrl(), raw);
    if (await Rev20260728Endpoint.isRev20260728(request, body)) {
      this.#rev20260728 ??= new Rev20260728Endpoint(gateway);
      await this.#rev20260728.serve(request, body, profile, res, req);
      return;
    }
    // Loaded on the first HTTP MCP session: most users only connect through the shim.
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      // Tells clients how soon to reconnect when a stream closes (SSE `retry`), in ms.
      retryInterval: 1000,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { transport, profile, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await gateway.connect(profile, transport, { kind: 'http' });
    await transport.handleRequest(req, res, body);
    if (!transport.sessionId) await transport.close();
  }

  /**
   * HTTP clients often go away without a DELETE; a session idle this long is closed, so it
   * stops counting as a connected client or as a target for server requests.
   */
  expireIdleSessions(): void {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, entry] of this.#sessions) {
      if (entry.lastSeen < cutoff) {
        this.#sessions.delete(id);
        void entry.transport.close().catch(() => {});
      }
    }
  }

  async close(): Promise<void> {
    for (const { transport } of this.#sessions.values()) await transport.close().catch(() => {});
    this.#sessions.clear();
    await this.#rev20260728?.close();
  }
}

function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  const mb = MAX_MESSAGE_BYTES / (1024 * 1024);
  // Closing at once would make a client that is still uploading see EPIPE instead of the answer:
  // the rest is read and dropped (up to a bound).
  let dropped = 0;
  req.on('data', (c: Buffer) => {
    dropped += c.length;
    if (dropped > MAX_DISCARD_BYTES) req.destroy();
  });
  req.resume();
  sendJson(res, 413, {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: `The request is larger than ${mb} MB, the largest MCP message Switchboard accepts; send less data per call (split it, or pass a file path instead of its contents).` },
  });
}
