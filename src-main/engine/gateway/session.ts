// One connected MCP client: an SDK Server bound to a profile view, relaying to the upstreams
// through the gateway.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  EmptyResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ERROR_META, SwitchboardError, toErrorData, type ErrorData } from '../../../src-shared/errors.ts';
import { EXECUTE, GET_SCHEMA, SEARCH_TOOLS } from '../codemode/code-tools.ts';
import type { Gateway } from './gateway.ts';
import type { ProfileView, ToolTarget } from './profile-view.ts';
import { limitedClientFor, type LimitedClientId } from '../../../src-shared/client-limits.ts';

const RESUME_ID = '__switchboard_resume__';

/**
 * list_changed notifications of one list within this window reach a client as one, in ms: a cold
 * start readies several servers within a few hundred ms, and some announce changes of their own
 * while starting. Short enough that a client refreshes well before a person notices.
 */
export const LIST_CHANGED_WINDOW_MS = 100;

type ListKind = 'tools' | 'resources' | 'prompts';

export interface SessionInit {
  id: string;
  profile: string;
  view: ProfileView;
  gateway: Gateway;
  transportKind: 'socket' | 'http';
}

export class ClientSession {
  readonly id: string;
  readonly profile: string;
  readonly transportKind: 'socket' | 'http';
  readonly since = new Date().toISOString();
  readonly server: Server;
  view: ProfileView | undefined;
  lastActive = Date.now();
  onclose?: () => void;

  readonly #gateway: Gateway;
  /** Client requests with upstream calls in flight, per server, oldest first. */
  readonly #inflightRequests = new Map<string, RequestId[]>();
  /** Lists the client holds (it listed them, or held them before a resume): only those can go stale. */
  readonly #holdsList: Record<ListKind, boolean> = { tools: false, resources: false, prompts: false };
  /** list_changed notifications waiting for their window to close. */
  readonly #changeTimers = new Map<ListKind, NodeJS.Timeout>();

  constructor(init: SessionInit) {
    this.id = init.id;
    this.profile = init.profile;
    this.view = init.view;
    this.transportKind = init.transportKind;
    this.#gateway = init.gateway;
    this.server = new Server(
      { name: `switchboard-${init.profile}`, title: `Switchboard · ${init.profile}`, version: init.gateway.version },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { listChanged: true, subscribe: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
        },
      },
    );
    this.#install();
  }

  get clientName(): string {
    return this.server.getClientVersion()?.name ?? 'unknown';
  }

  /** Which client with known limits this is (from its clientInfo), if any. */
  get limitedClient(): LimitedClientId | undefined {
    return limitedClientFor(this.clientName);
  }

  /** The profile as this client gets it: with the profile's `clients` entry for it applied. */
  get clientView(): ProfileView | undefined {
    return this.view?.forClient(this.limitedClient);
  }

  #requireView(): ProfileView {
    const view = this.clientView;
    if (!view) throw new McpError(ErrorCode.InvalidRequest, `The profile "${this.profile}" was removed from config.json.`);
    this.lastActive = Date.now();
    return view;
  }

  /** The client got (or is about to get) a list computed now. */
  #listed(kind: ListKind): void {
    this.#holdsList[kind] = true;
  }

  /** The view once the profile's starting servers settled (bounded): what a cold engine answers from. */
  async #settledView(signal?: AbortSignal): Promise<ProfileView> {
    await this.#gateway.settle(this.#requireView(), signal);
    return this.#requireView();
  }

  #install(): void {
    const s = this.server;
    s.setNotificationHandler(RootsListChangedNotificationSchema, async () => this.#gateway.clientRootsChanged(this));
    s.setRequestHandler(ListToolsRequestSchema, async (_req, extra) => {
      const view = await this.#settledView(extra.signal);
      this.#listed('tools');
      return { tools: view.listTools() };
    });

    s.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
      const view = this.#requireView();
      const name = req.params.name;
      const args = req.params.arguments;
      if (view.surface === 'code') return this.#callCodeTool(view, name, args, extra.signal, extra.requestId);
      let target = view.resolveTool(name);
      if (!target) target = (await this.#settledView(extra.signal)).resolveTool(name);
      if (!target) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool "${name}" in profile "${view.name}". Call tools/list for the available tools.`,
        );
      }
      const token = req.params._meta?.progressToken;
      try {
        return await this.#gateway.callTool(view, target.server, target.tool, args, {
          session: this,
          requestId: extra.requestId,
          client: this.clientName,
          signal: extra.signal,
          onProgress:
            token === undefined
              ? undefined
              : (p) => void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } }),
        });
      } catch (err) {
        if (err instanceof SwitchboardError) return errorResult(err.toData());
        throw err;
      }
    });

    s.setRequestHandler(ListResourcesRequestSchema, async (_req, extra) => {
      const view = await this.#settledView(extra.signal);
      this.#listed('resources');
      return { resources: view.listResources() };
    });
    s.setRequestHandler(ListResourceTemplatesRequestSchema, async (_req, extra) => {
      const view = await this.#settledView(extra.signal);
      this.#listed('resources');
      return { resourceTemplates: view.listResourceTemplates() };
    });
    s.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
      const server = await this.#resourceServer(req.params.uri, extra.signal);
      return (await this.#relay(server, 'resources/read', req.params, extra.signal)) as never;
    });
    s.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
      const server = await this.#resourceServer(req.params.uri, extra.signal);
      return (await this.#relay(server, 'resources/subscribe', req.params, extra.signal)) as never;
    });
    s.setRequestHandler(UnsubscribeRequestSchema, async (req, extra) => {
      const server = await this.#resourceServer(req.params.uri, extra.signal);
      return (await this.#relay(server, 'resources/unsubscribe', req.params, extra.signal)) as never;
    });
    s.setRequestHandler(ListPromptsRequestSchema, async (_req, extra) => {
      const view = await this.#settledView(extra.signal);
      this.#listed('prompts');
      return { prompts: view.listPrompts() };
    });
    s.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
      const target = await this.#promptTarget(req.params.name, extra.signal);
      return (await this.#relay(target.server, 'prompts/get', { ...req.params, name: target.tool }, extra.signal)) as never;
    });
    s.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
      const ref = req.params.ref;
      if (ref.type === 'ref/prompt') {
        const target = await this.#promptTarget(ref.name, extra.signal);
        return (await this.#relay(target.server, 'completion/complete', { ...req.params, ref: { ...ref, name: target.tool } }, extra.signal)) as never;
      }
      const server = await this.#resourceServer(ref.uri, extra.signal);
      return (await this.#relay(server, 'completion/complete', req.params, extra.signal)) as never;
    });
  }

  // A name the client learned earlier (or from its own config) may belong to a server that is
  // still starting on a cold engine: look again once it settled before calling it unknown.

  async #promptTarget(name: string, signal: AbortSignal): Promise<ToolTarget> {
    const target = this.#requireView().promptTarget(name) ?? (await this.#settledView(signal)).promptTarget(name);
    if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${name}".`);
    return target;
  }

  async #resourceServer(uri: string, signal: AbortSignal): Promise<string> {
    const server = this.#requireView().resourceOwner(uri) ?? (await this.#settledView(signal)).resourceOwner(uri);
    if (!server) throw new McpError(ErrorCode.InvalidParams, `No server of profile "${this.profile}" offers the resource "${uri}".`);
    return server;
  }

  async #relay(server: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    try {
      return await this.#gateway.request(server, method, params, signal);
    } catch (err) {
      if (err instanceof McpError) throw err;
      const error = toErrorData(err);
      throw new McpError(ErrorCode.InternalError, error.message, error);
    }
  }

  async #callCodeTool(
    view: ProfileView,
    name: string,
    args: Record<string, unknown> | undefined,
    signal: AbortSignal,
    requestId: RequestId,
  ): Promise<CallToolResult> {
    if (name === EXECUTE) {
      const code = args?.code;
      if (typeof code !== 'string') {
        return errorResult({ code: 'bad-request', message: 'syntax: execute needs a "code" argument holding JavaScript, e.g. async () => { return 1 }' });
      }
      // The run waits for starting servers itself (every way to run code does).
      return this.#gateway.execute(view, this, code, signal, requestId);
    }
    view = await this.#settledView(signal);
    const catalog = view.codeCatalog();
    if (name === SEARCH_TOOLS && !catalog.inline) {
      const query = args?.query;
      if (typeof query !== 'string' || query.trim() === '') {
        return errorResult({ code: 'bad-request', message: 'search_tools needs a non-empty "query", e.g. { "query": "create issue" }.' });
      }
      const limit = typeof args?.limit === 'number' ? args.limit : undefined;
      try {
        return jsonResult(catalog.search(query, limit));
      } catch (err) {
        return errorResult(toErrorData(err));
      }
    }
    if (name === GET_SCHEMA && !catalog.inline) {
      const names = args?.names;
      if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string')) {
        return errorResult({ code: 'bad-request', message: 'get_schema needs "names": a list of tool names as written in code, e.g. ["github.create_issue"].' });
      }
      try {
        return { content: [{ type: 'text', text: catalog.describe(names as string[]) }] };
      } catch (err) {
        return errorResult(toErrorData(err));
      }
    }
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}" in code profile "${view.name}". Use execute.`);
  }

  async connect(transport: Transport, resumeInitialize?: unknown): Promise<void> {
    transport.onclose = undefined;
    const onclose = () => {
      this.#cancelNotifications();
      this.onclose?.();
    };
    if (resumeInitialize !== undefined) {
      // The client already initialised with an engine that has since restarted: replay its
      // initialize here and swallow the answer, so the new session knows the client.
      const send = transport.send.bind(transport);
      transport.send = async (msg: JSONRPCMessage, opts) => {
        if ('id' in msg && msg.id === RESUME_ID) return;
        return send(msg, opts);
      };
      await this.server.connect(transport);
      // The client still holds the lists the engine before this one gave it.
      for (const kind of Object.keys(this.#holdsList) as ListKind[]) this.#holdsList[kind] = true;
      const prev = this.server.onclose;
      this.server.onclose = () => {
        prev?.();
        onclose();
      };
      transport.onmessage?.({ jsonrpc: '2.0', id: RESUME_ID, method: 'initialize', params: resumeInitialize as never });
      transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return;
    }
    this.server.onclose = onclose;
    await this.server.connect(transport);
  }

  setView(view: ProfileView, changed: boolean): void {
    this.view = view;
    if (changed) this.notifyListChanged('tools');
  }

  profileRemoved(): void {
    this.view = undefined;
    this.notifyListChanged('tools');
  }

  /**
   * Tells the client a list changed: at most once per LIST_CHANGED_WINDOW_MS per list. Nothing is
   * sent before the client's initialize (it lists everything right after), nor for a list it
   * does not hold yet: the first one it asks for is computed after the change.
   */
  notifyListChanged(kind: ListKind): void {
    if (!this.server.getClientVersion() || !this.#holdsList[kind] || this.#changeTimers.has(kind)) return;
    const timer = setTimeout(() => {
      this.#changeTimers.delete(kind);
      const send =
        kind === 'tools' ? () => this.server.sendToolListChanged() : kind === 'resources' ? () => this.server.sendResourceListChanged() : () => this.server.sendPromptListChanged();
      send().catch(() => {
        // A client that is gone cannot hear it; its session closes on its own.
      });
    }, LIST_CHANGED_WINDOW_MS);
    timer.unref();
    this.#changeTimers.set(kind, timer);
  }

  #cancelNotifications(): void {
    for (const t of this.#changeTimers.values()) clearTimeout(t);
    this.#changeTimers.clear();
  }

  callStarted(server: string, requestId?: RequestId): void {
    if (requestId !== undefined) {
      const ids = this.#inflightRequests.get(server) ?? [];
      ids.push(requestId);
      this.#inflightRequests.set(server, ids);
    }
    this.lastActive = Date.now();
  }

  callEnded(server: string, requestId?: RequestId): void {
    const ids = this.#inflightRequests.get(server);
    if (ids && requestId !== undefined) {
      const i = ids.indexOf(requestId);
      if (i >= 0) ids.splice(i, 1);
      if (ids.length === 0) this.#inflightRequests.delete(server);
    }
  }

  accepts(method: string): boolean {
    const caps = this.server.getClientCapabilities();
    if (method === 'sampling/createMessage') return Boolean(caps?.sampling);
    if (method === 'elicitation/create') return Boolean(caps?.elicitation);
    if (method === 'roots/list') return Boolean(caps?.roots);
    return method === 'ping';
  }

  async forwardRequest(request: ServerRequest, signal?: AbortSignal, relatedRequestId?: RequestId): Promise<unknown> {
    const schema =
      request.method === 'sampling/createMessage'
        ? CreateMessageResultSchema
        : request.method === 'elicitation/create'
          ? ElicitResultSchema
          : request.method === 'roots/list'
            ? ListRootsResultSchema
            : EmptyResultSchema;
    return this.server.request(request, schema as typeof EmptyResultSchema, { signal, relatedRequestId });
  }

  forwardNotification(server: string, notification: ServerNotification): void {
    let n = notification;
    if (n.method === 'notifications/message') n = { ...n, params: { ...n.params, logger: n.params.logger ?? server } };
    // During a call, tie it to that call's request so HTTP clients get it on the call's stream.
    const related = this.#inflightRequests.get(server)?.at(-1);
    this.server.notification(n, related !== undefined ? { relatedRequestId: related } : undefined).catch(() => {});
  }

  async close(): Promise<void> {
    this.#cancelNotifications();
    await this.server.close().catch(() => {});
  }
}

/**
 * A tool error as the client gets it: the sentence for the model, and the error as data in
 * `_meta` (not structuredContent, which a client checks against the tool's outputSchema).
 */
function errorResult(error: ErrorData): CallToolResult {
  return { content: [{ type: 'text', text: error.message }], isError: true, _meta: { [ERROR_META]: error } };
}

function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}
