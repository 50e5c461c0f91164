// One connected MCP client of the 2025 generation (initialize, then a session): a v1-SDK Server
// bound to a profile view, relaying to the upstreams through the gateway. The 2026-07-28 clients
// get a Rev20260728Session (session-2026-07-28.ts); both answer through profile-requests.ts.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  EmptyResultSchema,
  GetPromptRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type CreateTaskResult,
  type JSONRPCMessage,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { clientText } from '../../../src-shared/terminal-text.ts';
import * as requests from './profile-requests.ts';
import { FastToolCalls } from './fast-calls.ts';
import { profileCapabilities, profileServerInfo, SessionBase, type ListKind, type SessionInit } from './session-base.ts';
import { listDigest, type BootDigests, type BootList } from './boot-answers.ts';
import { replayedInitialize } from './sdk-boundary.ts';

export type { SessionInit } from './session-base.ts';

const RESUME_ID = '__switchboard_resume__';

/**
 * list_changed notifications of one list within this window reach a client as one, in ms: a cold
 * start readies several servers within a few hundred ms, and some announce changes of their own
 * while starting. Short enough that a client refreshes well before a person notices.
 */
export const LIST_CHANGED_WINDOW_MS = 100;

export class ClientSession extends SessionBase {
  readonly era = 'legacy' as const;
  readonly server: Server;
  /** Lists the client holds (it listed them, or held them before a resume): only those can go stale. */
  readonly #holdsList: Record<ListKind, boolean> = { tools: false, resources: false, prompts: false };
  #logLevel = 'info';
  #named: { info: unknown; name: string } | undefined;
  /** A resumed client's clientInfo, from the shim's hello (its initialize was answered before this session). */
  #resumedInfo: unknown;
  /** list_changed notifications waiting for their window to close. */
  readonly #changeTimers = new Map<ListKind, NodeJS.Timeout>();
  /** What this session's initialize was answered (a boot answer repeats it). */
  #initResult: Record<string, unknown> | undefined;
  /** The last answer of each list the client asked for (their digests go to the next engine at a take-over). */
  readonly #lastLists: Partial<Record<BootList, unknown>> = {};
  /** Aborts work this session started on its own (the boot answer's check) when it closes. */
  readonly #closed = new AbortController();

  constructor(init: SessionInit) {
    super(init);
    this.server = new Server(profileServerInfo(init.profile, init.gateway.version), { capabilities: profileCapabilities('legacy', init.extensions) });
    this.#install();
  }

  /** The client has sent initialize (a fast call needs to know who it is); a resumed one has. */
  get initialized(): boolean {
    return this.#clientInfo !== undefined;
  }

  /** The initialize's clientInfo: the SDK's once it handled it, the resumed one's until then. */
  get #clientInfo(): unknown {
    return this.server.getClientVersion() ?? this.#resumedInfo;
  }

  /** Its initialize's clientInfo.name, cleaned and bounded (clientText): records and status keep this. */
  get clientName(): string {
    const info = this.#clientInfo;
    const named = this.#named;
    if (named && named.info === info) return named.name;
    this.#named = { info, name: clientText((info as { name?: unknown } | undefined)?.name) ?? 'unknown' };
    return this.#named.name;
  }

  override listed(kind: ListKind): void {
    this.#holdsList[kind] = true;
  }

  #install(): void {
    const s = this.server;
    const g = this.gateway;
    // The level a 2026-07-28 server is asked to log at during this client's calls (a 2025 server
    // logs as it always did): the one the client set, else info.
    s.setRequestHandler(SetLevelRequestSchema, async (req) => {
      this.#logLevel = req.params.level;
      return {};
    });
    s.setNotificationHandler(RootsListChangedNotificationSchema, async () => g.clientRootsChanged(this));
    s.setRequestHandler(ListToolsRequestSchema, async (_req, extra) => this.#answered('tools', await requests.listTools(this, extra.signal)));
    s.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult | CreateTaskResult> => {
      const token = req.params._meta?.progressToken;
      if (req.params.task) {
        const call = { name: req.params.name, args: req.params.arguments, signal: extra.signal, requestId: extra.requestId, client: this.clientName };
        return requests.callToolAsTask(g, this, call, req.params.task);
      }
      return requests.callTool(g, this, {
        logLevel: this.#logLevel,
        name: req.params.name,
        args: req.params.arguments,
        signal: extra.signal,
        requestId: extra.requestId,
        client: this.clientName,
        onProgress:
          token === undefined ? undefined : (p) => void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } }),
      });
    });
    s.setRequestHandler(ListResourcesRequestSchema, async (_req, extra) => this.#answered('resources', await requests.listResources(this, extra.signal)));
    s.setRequestHandler(ListResourceTemplatesRequestSchema, async (_req, extra) => this.#answered('resourceTemplates', await requests.listResourceTemplates(this, extra.signal)));
    s.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => requests.relayResource(g, this, 'resources/read', req.params, extra.signal));
    s.setRequestHandler(SubscribeRequestSchema, async (req, extra) => requests.relayResource(g, this, 'resources/subscribe', req.params, extra.signal));
    s.setRequestHandler(UnsubscribeRequestSchema, async (req, extra) => requests.relayResource(g, this, 'resources/unsubscribe', req.params, extra.signal));
    s.setRequestHandler(ListPromptsRequestSchema, async (_req, extra) => this.#answered('prompts', await requests.listPrompts(this, extra.signal)));
    s.setRequestHandler(GetPromptRequestSchema, async (req, extra) => requests.getPrompt(g, this, req.params, extra.signal));
    // Tasks (2025-11-25): this session's own, in this profile (task-bridge.ts).
    const owner = () => requests.taskOwner(this, this.clientName);
    s.setRequestHandler(GetTaskRequestSchema, async (req, extra) => g.tasks.get(owner(), req.params.taskId, extra.signal));
    s.setRequestHandler(GetTaskPayloadRequestSchema, async (req, extra) => g.tasks.result(owner(), req.params.taskId, extra.signal));
    s.setRequestHandler(ListTasksRequestSchema, async (_req, extra) => ({ tasks: await g.tasks.list(owner(), extra.signal) }));
    s.setRequestHandler(CancelTaskRequestSchema, async (req, extra) => g.tasks.cancel(owner(), req.params.taskId, extra.signal));
    s.setRequestHandler(CompleteRequestSchema, async (req, extra) => requests.complete(g, this, req.params, extra.signal));
  }

  /**
   * A list this session was answered: kept as the boot answer of its client (boot-answers.ts),
   * on the shim's socket, where a shim can find it by the same client's next start.
   */
  #answered<T>(kind: BootList, result: T): T {
    this.#lastLists[kind] = result;
    const clientName = this.server.getClientVersion()?.name;
    if (this.transportKind === 'socket' && typeof clientName === 'string') {
      this.gateway.bootAnswers?.record({ profile: this.profile, connector: this.connector, clientName }, this.#initResult, kind, result);
    }
    return result;
  }

  /**
   * The shim answered this client's first lists from its boot answer before this engine ran
   * (`served`: their digests). Each list is computed now as this session would answer it; one
   * that differs is announced with list_changed, so the client lists it again.
   */
  async #checkBootAnswer(served: BootDigests): Promise<void> {
    const signal = this.#closed.signal;
    const compute: Record<BootList, () => Promise<unknown>> = {
      tools: () => requests.listTools(this, signal),
      prompts: () => requests.listPrompts(this, signal),
      resources: () => requests.listResources(this, signal),
      resourceTemplates: () => requests.listResourceTemplates(this, signal),
    };
    await Promise.all(
      (Object.keys(served) as BootList[]).map(async (kind) => {
        const result = await compute[kind]?.().catch(() => undefined);
        if (result === undefined || signal.aborted) return;
        this.#answered(kind, result);
        if (listDigest(result) !== served[kind]) this.notifyListChanged(kind === 'resourceTemplates' ? 'resources' : kind);
      }),
    );
  }

  /** The digests of the lists this client was last answered (a take-over hands them on). */
  heldLists(): BootDigests {
    return Object.fromEntries(Object.entries(this.#lastLists).map(([kind, list]) => [kind, listDigest(list)]));
  }

  /**
   * `moved`: the engine before this one handed the home over, and `bootServed` holds the lists
   * the client holds there: only those can go stale, and only if they differ here.
   */
  async connect(transport: Transport, resumeInitialize?: unknown, bootServed?: BootDigests, moved = false): Promise<void> {
    transport.onclose = undefined;
    let fast: FastToolCalls | undefined;
    const onclose = () => {
      this.#closed.abort();
      this.#cancelNotifications();
      fast?.closeAll();
      this.onclose?.();
    };
    // The shim's socket takes the tools/call fast path (fast-calls.ts): plain calls are taken off
    // the transport before the SDK's Server (set up by connect below) sees them.
    const writeLine = (transport as Transport & { writeLine?: (line: string) => boolean }).writeLine;
    const intercept = () => {
      if (!writeLine) return;
      fast = new FastToolCalls(this, this.gateway, writeLine.bind(transport));
      const sdk = transport.onmessage;
      const f = fast;
      transport.onmessage = (m, extra) => {
        if (!f.take(m)) sdk?.(m, extra);
      };
    };
    if (resumeInitialize !== undefined) {
      // The client already initialised (with an engine that has since restarted, or with the
      // shim's boot answer): replay its initialize here and swallow the answer, so the new
      // session knows the client. It must know it before the client's first line: the shim
      // sends the calls it held right behind its hello, and a call handled before the replayed
      // initialize was recorded as made by "unknown". So the session is known
      // by the hello's clientInfo from the start, and the replay is handed to the SDK before
      // the transport delivers any of the client's lines.
      this.#resumedInfo = (resumeInitialize as { clientInfo?: unknown } | null)?.clientInfo;
      const send = transport.send.bind(transport);
      transport.send = async (msg: JSONRPCMessage, opts) => {
        if ('id' in msg && msg.id === RESUME_ID) return;
        return send(msg, opts);
      };
      this.#keepInitResult(transport);
      const start = transport.start.bind(transport);
      transport.start = async () => {
        transport.onmessage?.(replayedInitialize(RESUME_ID, resumeInitialize));
        transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
        intercept();
        await start();
      };
      await this.server.connect(transport);
      // The client still holds the lists the engine before this one gave it (all of them, unless it said which).
      for (const kind of Object.keys(this.#holdsList) as ListKind[]) {
        this.#holdsList[kind] = !moved || bootServed?.[kind] !== undefined || (kind === 'resources' && bootServed?.resourceTemplates !== undefined);
      }
      const prev = this.server.onclose;
      this.server.onclose = () => {
        prev?.();
        onclose();
      };
      if (bootServed) void this.#checkBootAnswer(bootServed);
      return;
    }
    this.server.onclose = onclose;
    this.#keepInitResult(transport);
    await this.server.connect(transport);
    intercept();
  }

  /** Keeps what the client's initialize is answered (the one response with protocolVersion and serverInfo). */
  #keepInitResult(transport: Transport): void {
    const send = transport.send.bind(transport);
    // Only until it is seen: every later message goes straight to the transport's own send.
    transport.send = async (msg: JSONRPCMessage, opts) => {
      if ('result' in msg) {
        const r = msg.result as Record<string, unknown>;
        if (typeof r.protocolVersion === 'string' && r.serverInfo) {
          this.#initResult = r;
          transport.send = send;
        }
      }
      return send(msg, opts);
    };
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

  protected elicitationCapability(): Record<string, unknown> | undefined {
    return this.server.getClientCapabilities()?.elicitation as Record<string, unknown> | undefined;
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
    const related = this.inflightRequests.get(server)?.at(-1);
    this.server.notification(n, related !== undefined ? { relatedRequestId: related } : undefined).catch(() => {});
  }

  async close(): Promise<void> {
    this.#cancelNotifications();
    await this.server.close().catch(() => {});
  }
}
