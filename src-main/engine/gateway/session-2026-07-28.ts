// A client of the 2026-07-28 generation: no initialize and no session on the wire; every
// request carries its own `_meta` (protocol version, clientInfo, capabilities), change
// notifications reach it only on its `subscriptions/listen` streams, and there are no
// server→client requests (input is asked for with `input_required` results). Served by a v2-SDK
// Server; the SDK's serving entries (serveStdio for the shim's socket, createMcpHandler for
// HTTP) validate the envelope, answer `server/discover` and run the listen streams.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  MissingRequiredClientCapabilityError,
  Server,
  inputRequired,
  type HandlerResultTypeMap,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TASKS_EXTENSION } from './task-bridge.ts';
import { LOG_LEVEL_META_KEY } from '../upstream/call-logs.ts';
import { ErrorCode, McpError, type CallToolResult, type RequestId, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { clientText, MAX_CLIENT_VERSION_CHARS } from '../../../src-shared/terminal-text.ts';
import * as requests from './profile-requests.ts';
import { profileCapabilities, profileServerInfo, SessionBase, type SessionInit } from './session-base.ts';
import { inputRequestsForRev20260728, taskAnswerForRev20260728, toolsForRev20260728 } from './sdk-boundary.ts';

/**
 * List results change whenever a server's catalog does; listeners are told at once, so the
 * lists are never cached past the answer, and never shared across clients (each has its own
 * token and profile).
 */
const LIST_CACHE = { ttlMs: 0, cacheScope: 'private' } as const;

const TASK_PARAMS = z.looseObject({ taskId: z.string() });

export class Rev20260728Session extends SessionBase {
  readonly era = 'modern' as const;
  readonly server: Server;
  #clientName = 'unknown';
  #clientCaps: Record<string, unknown> | undefined;

  constructor(init: SessionInit) {
    super(init);
    this.server = new Server(profileServerInfo(init.profile, init.gateway.version), {
      capabilities: profileCapabilities('modern', init.extensions),
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
    const info = env?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
    // What the client says of itself is cleaned and bounded here, before anything keeps it.
    const name = clientText(info?.name);
    if (name !== undefined) this.#clientName = name;
    // No session on HTTP: `status` lists the clients seen lately instead (recent-clients.ts).
    if (this.transportKind === 'http') this.gateway.recentClients.seen(this.profile, this.#clientName, clientText(info?.version, MAX_CLIENT_VERSION_CHARS));
    const caps = env?.[CLIENT_CAPABILITIES_META_KEY];
    if (caps && typeof caps === 'object') this.#clientCaps = caps as Record<string, unknown>;
    this.lastActive = Date.now();
    return name ?? this.#clientName;
  }

  #install(): void {
    const s = this.server;
    const g = this.gateway;
    s.setRequestHandler('tools/list', async (_req, ctx) => {
      this.#caller(ctx);
      return toolsForRev20260728(await requests.listTools(this, ctx.mcpReq.signal));
    });
    s.setRequestHandler('tools/call', async (req, ctx) => {
      const client = this.#caller(ctx);
      const release = this.#hearLogs(ctx, req.params.name);
      try {
        return await this.#callTool(req, ctx, client);
      } finally {
        release?.();
      }
    });
    s.setRequestHandler('resources/list', async (_req, ctx) => {
      this.#caller(ctx);
      return await requests.listResources(this, ctx.mcpReq.signal);
    });
    s.setRequestHandler('resources/templates/list', async (_req, ctx) => {
      this.#caller(ctx);
      return await requests.listResourceTemplates(this, ctx.mcpReq.signal);
    });
    s.setRequestHandler('resources/read', async (req, ctx) => {
      this.#caller(ctx);
      return await requests.relayResource(g, this, 'resources/read', req.params, ctx.mcpReq.signal);
    });
    s.setRequestHandler('prompts/list', async (_req, ctx) => {
      this.#caller(ctx);
      return await requests.listPrompts(this, ctx.mcpReq.signal);
    });
    s.setRequestHandler('prompts/get', async (req, ctx) => {
      this.#caller(ctx);
      return await requests.getPrompt(g, this, req.params, ctx.mcpReq.signal);
    });
    s.setRequestHandler('completion/complete', async (req, ctx) => {
      this.#caller(ctx);
      return await requests.complete(g, this, req.params, ctx.mcpReq.signal);
    });
    // The tasks extension (task-bridge.ts): only for clients that declare it on the request.
    const owner = (ctx: ServerContext) => {
      const client = this.#caller(ctx);
      if (!this.#declaresTasks()) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
      return requests.taskOwner(this, client);
    };
    s.setRequestHandler('tasks/get', { params: TASK_PARAMS }, async (params, ctx) => g.tasks.detailed(owner(ctx), params.taskId, ctx.mcpReq.signal));
    s.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, async (params, ctx) => {
      await g.tasks.cancel(owner(ctx), params.taskId, ctx.mcpReq.signal);
      return {};
    });
    // The tasks the gateway relays never wait for input (detailed() says so): nothing to hand on.
    s.setRequestHandler('tasks/update', { params: TASK_PARAMS.extend({ inputResponses: z.record(z.string(), z.unknown()).optional() }) }, async (params, ctx) => {
      const who = owner(ctx);
      if (!g.tasks.has(who, params.taskId)) throw new McpError(ErrorCode.InvalidParams, `There is no task "${params.taskId}".`);
      return {};
    });
  }

  async #callTool(req: { params: { name: string; arguments?: unknown } }, ctx: ServerContext, client: string): Promise<HandlerResultTypeMap['tools/call']> {
    const g = this.gateway;
    const token = ctx.mcpReq._meta?.progressToken;
    const logLevel = this.#logLevel(ctx);
    const onProgress =
      token === undefined ? undefined : (p: object) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => {});
    // The call runs under the input bridge: a server that asks for input mid-call gets its
    // question put to this client as `input_required`, and the retry carries the answer.
    const run = (origin: string, signal: AbortSignal): Promise<CallToolResult> =>
      requests.callTool(g, this, { name: req.params.name, args: req.params.arguments as Record<string, unknown> | undefined, signal, requestId: origin, client, onProgress, logLevel });
    const state = ctx.mcpReq.requestState();
    // A client that declared the tasks extension gets the server's task when its tool runs as one.
    if (typeof state !== 'string' && this.#declaresTasks()) {
      const task = await requests.callToolAsRev20260728Task(g, this, {
        name: req.params.name,
        args: req.params.arguments as Record<string, unknown> | undefined,
        signal: ctx.mcpReq.signal,
        requestId: String(ctx.mcpReq.id),
        client,
      });
      if (task) return taskAnswerForRev20260728(task);
    }
    const round =
      typeof state === 'string'
        ? await g.inputs.resume<CallToolResult>(state, this.profile, client, ctx.mcpReq.inputResponses, ctx.mcpReq.signal)
        : await g.inputs.start(this.profile, client, run, ctx.mcpReq.signal);
    if (round.inputRequests) return inputRequired({ inputRequests: inputRequestsForRev20260728(round.inputRequests), requestState: round.requestState });
    return round.result;
  }

  #logLevel(ctx: ServerContext): string | undefined {
    const level = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY];
    return typeof level === 'string' ? level : undefined;
  }

  /**
   * A request that names a log level hears its servers' messages on its own stream while it
   * runs (the SDK's ctx log applies the level); one without hears none, as the revision says.
   */
  #hearLogs(ctx: ServerContext, tool: string): (() => void) | undefined {
    if (this.#logLevel(ctx) === undefined) return undefined;
    const view = this.requireView();
    const target = view.surface === 'code' ? undefined : view.resolveTool(tool);
    const servers = target ? [target.server] : view.servers;
    return this.gateway.callLogs.open(servers, (server, p) => void ctx.mcpReq.log(p.level, p.data, p.logger ?? server).catch(() => {}));
  }

  #declaresTasks(): boolean {
    const ext = this.#clientCaps?.extensions as Record<string, unknown> | undefined;
    return ext?.[TASKS_EXTENSION] !== undefined;
  }

  /**
   * Mid-call input this client said (in its request's capabilities) it can give. Not roots:
   * those are asked outside any call (roots.ts), which this era cannot carry; the server's
   * configured roots answer instead.
   */
  accepts(method: string): boolean {
    const caps = this.#clientCaps;
    if (method === 'elicitation/create') return Boolean(caps?.elicitation);
    if (method === 'sampling/createMessage') return Boolean(caps?.sampling);
    return false;
  }

  protected elicitationCapability(): Record<string, unknown> | undefined {
    return this.#clientCaps?.elicitation as Record<string, unknown> | undefined;
  }

  /** No server→client requests in this era: the question waits for the call's next round. */
  forwardRequest(request: ServerRequest, signal?: AbortSignal, related?: RequestId): Promise<unknown> {
    if (typeof related !== 'string' || !this.gateway.inputs.owns(related)) {
      return Promise.reject(new Error('A 2026-07-28 client can be asked for input only during one of its calls'));
    }
    return this.gateway.inputs.ask(related, request.method, request.params, signal);
  }

  forwardNotification(server: string, notification: ServerNotification): void {
    // Only what a listen stream can carry reaches the client (the entry routes it onto the
    // streams that asked for it); log messages reach the calls that asked for them (call-logs.ts).
    if (notification.method === 'notifications/resources/updated') {
      if (this.view?.resourceOwner(String(notification.params.uri)) !== server) return;
      this.server.sendResourceUpdated(notification.params).catch(() => {});
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
