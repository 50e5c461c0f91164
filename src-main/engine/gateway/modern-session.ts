// A client of the 2026-07-28 generation: no initialize and no session on the wire; every
// request carries its own `_meta` (protocol version, clientInfo, capabilities), change
// notifications reach it only on its `subscriptions/listen` streams, and there are no
// server→client requests (input is asked for with `input_required` results). Served by a v2-SDK
// Server; the SDK's serving entries (serveStdio for the shim's socket, createMcpHandler for
// HTTP) validate the envelope, answer `server/discover` and run the listen streams.
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CallToolResult, RequestId, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import * as requests from './profile-requests.ts';
import { profileCapabilities, profileServerInfo, SessionBase, type SessionInit } from './session-base.ts';

/**
 * List results change whenever a server's catalog does; listeners are told at once, so the
 * lists are never cached past the answer, and never shared across clients (each has its own
 * token and profile).
 */
const LIST_CACHE = { ttlMs: 0, cacheScope: 'private' } as const;

export class ModernSession extends SessionBase {
  readonly era = 'modern' as const;
  readonly server: Server;
  #clientName = 'unknown';
  #clientCaps: Record<string, unknown> | undefined;

  constructor(init: SessionInit) {
    super(init);
    this.server = new Server(profileServerInfo(init.profile, init.gateway.version), {
      capabilities: profileCapabilities('modern'),
      cacheHints: { 'tools/list': LIST_CACHE, 'resources/list': LIST_CACHE, 'resources/templates/list': LIST_CACHE, 'prompts/list': LIST_CACHE },
    });
    this.#install();
  }

  /** The client named by the latest request's `_meta.clientInfo`. */
  get clientName(): string {
    return this.#clientName;
  }

  /** Reads who is asking from the request's envelope: each request speaks for itself. */
  #caller(ctx: ServerContext): string {
    const env = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const info = env?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
    if (typeof info?.name === 'string') this.#clientName = info.name;
    const caps = env?.[CLIENT_CAPABILITIES_META_KEY];
    if (caps && typeof caps === 'object') this.#clientCaps = caps as Record<string, unknown>;
    this.lastActive = Date.now();
    return typeof info?.name === 'string' ? info.name : this.#clientName;
  }

  #install(): void {
    const s = this.server;
    const g = this.gateway;
    s.setRequestHandler('tools/list', async (_req, ctx) => {
      this.#caller(ctx);
      return (await requests.listTools(this, ctx.mcpReq.signal)) as never;
    });
    s.setRequestHandler('tools/call', async (req, ctx) => {
      const client = this.#caller(ctx);
      const token = ctx.mcpReq._meta?.progressToken;
      const result: CallToolResult = await requests.callTool(g, this, {
        name: req.params.name,
        args: req.params.arguments as Record<string, unknown> | undefined,
        signal: ctx.mcpReq.signal,
        requestId: ctx.mcpReq.id,
        client,
        onProgress:
          token === undefined ? undefined : (p) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => {}),
      });
      return result as never;
    });
    s.setRequestHandler('resources/list', async (_req, ctx) => {
      this.#caller(ctx);
      return (await requests.listResources(this, ctx.mcpReq.signal)) as never;
    });
    s.setRequestHandler('resources/templates/list', async (_req, ctx) => {
      this.#caller(ctx);
      return (await requests.listResourceTemplates(this, ctx.mcpReq.signal)) as never;
    });
    s.setRequestHandler('resources/read', async (req, ctx) => {
      this.#caller(ctx);
      return (await requests.relayResource(g, this, 'resources/read', req.params, ctx.mcpReq.signal)) as never;
    });
    s.setRequestHandler('prompts/list', async (_req, ctx) => {
      this.#caller(ctx);
      return (await requests.listPrompts(this, ctx.mcpReq.signal)) as never;
    });
    s.setRequestHandler('prompts/get', async (req, ctx) => {
      this.#caller(ctx);
      return (await requests.getPrompt(g, this, req.params, ctx.mcpReq.signal)) as never;
    });
    s.setRequestHandler('completion/complete', async (req, ctx) => {
      this.#caller(ctx);
      return (await requests.complete(g, this, req.params as never, ctx.mcpReq.signal)) as never;
    });
  }

  accepts(_method: string): boolean {
    // No server→client requests in this era; mid-call input is a bridge of its own (not yet).
    void this.#clientCaps;
    return false;
  }

  protected elicitationCapability(): Record<string, unknown> | undefined {
    return this.#clientCaps?.elicitation as Record<string, unknown> | undefined;
  }

  forwardRequest(_request: ServerRequest, _signal?: AbortSignal, _related?: RequestId): Promise<unknown> {
    return Promise.reject(new Error('A 2026-07-28 client takes no server→client requests'));
  }

  forwardNotification(server: string, notification: ServerNotification): void {
    // Only what a listen stream can carry reaches the client (the entry routes it onto the
    // streams that asked for it); logging and the like have no channel outside a call.
    if (notification.method === 'notifications/resources/updated') {
      if (this.view?.resourceOwner(String(notification.params.uri)) !== server) return;
      this.server.sendResourceUpdated(notification.params as never).catch(() => {});
    }
  }

  notifyListChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    const send =
      kind === 'tools' ? () => this.server.sendToolListChanged() : kind === 'resources' ? () => this.server.sendResourceListChanged() : () => this.server.sendPromptListChanged();
    send().catch(() => {
      // No listener, or the client is gone: nothing to tell.
    });
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => {});
  }
}
