// The profile gateways: one ProfileView per profile, one MCP session per connected client, and
// the single path every tool call takes (filter → upstream → audit), direct or from code.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type CallToolResult, type ServerNotification, type ServerRequest, type Progress, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ProfileConfig, ServerConfig, SwitchboardConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { AUDIT_ARGS_CHARS, AUDIT_ARGS_MAX_BYTES, type ApprovalRecord, type AuditEntry, type CallOutcome } from '../../../src-shared/records.ts';
import { CUT_SLACK_CHARS } from '../../../src-shared/codemode/result-text.ts';
import type { ServerState, ServerStatus } from '../../../src-shared/api.ts';
import { SETTLE_WAIT_MS } from '../upstream/supervisor.ts';
import { answerWithoutClient, callEndedMessage, NotAskedError } from '../upstream/answer-without-client.ts';
import type { DirectCalls } from '../upstream/direct-calls.ts';
import { ProfileView, type CatalogSource } from './profile-view.ts';
import { ClientSession } from './session.ts';
import { RootsRouter } from './roots.ts';
import { SessionBase, type CallContext, type CallOrigin, type DirectAnswer, type DirectCallContext, type DirectCallHandle, type GatewayPort } from './session-base.ts';
import type { ModernSession } from './modern-session.ts';
import { loadModernEra, modernEra } from './load-modern.ts';
import type { BootAnswers, BootDigests } from './boot-answers.ts';
import { LineTransport } from './line-transport.ts';
import { ListenBridge } from './listen-bridge.ts';
import { ReplayTransport } from './replay-transport.ts';
import { InputBridge } from './input-bridge.ts';
import { TaskBridge } from './task-bridge.ts';
import { CallLogRelay } from './call-logs.ts';
import { RecentClients } from './recent-clients.ts';
import { clientIdField } from '../../../src-shared/client-names.ts';

/** What the gateway needs of the upstream supervisor. */
export interface UpstreamAccess extends CatalogSource {
  callTool(
    server: string,
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    opts: { signal?: AbortSignal; onProgress?: (p: Progress) => void; context?: unknown; logLevel?: string },
  ): Promise<CallToolResult>;
  request(server: string, method: string, params: unknown, opts: { signal?: AbortSignal }): Promise<unknown>;
  /** A sentence saying why a server cannot take calls, or undefined when it is ready. */
  unavailable(server: string): string | undefined;
  /** Why a tool may not be called although the profile allows it (its pin: a changed definition), or undefined. */
  withheld?(server: string, tool: string): string | undefined;
  /** The tools/call fast path's lane to a server (direct-calls.ts), when it has one now. */
  direct?(server: string): DirectCalls | undefined;
  /**
   * Waits (at most timeoutMs, or until signal) until none of `servers` is still starting;
   * resolves with those still starting then. Never rejects.
   */
  settle(servers: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<string[]>;
  /**
   * Whether a server still starting shows the tools it last showed (its boot catalog, kept with
   * its pins): a tools/list need not wait for it.
   */
  bootCatalog?(server: string): boolean;
  /** A server's status (with its changed tools withheld until approved), or undefined when it is not configured. */
  status(server: string): ServerStatus | undefined;
  /** Restarts a server (it forgets the roots a client gave it). */
  restart(server: string): void;
  /** Sends `notifications/roots/list_changed` to a server. */
  rootsChanged(server: string): void;
  /** The `extensions` a ready server announced in its capabilities (e.g. MCP Apps), relayed to clients. */
  extensions?(server: string): Record<string, object> | undefined;
  /** Whether a ready server runs this tool as a task (2025-11-25 tasks), see Upstream.taskSupport. */
  taskSupport?(server: string, tool: string): 'optional' | 'required' | undefined;
}

/**
 * A server of a profile that is not fully serving it, and why: what a hint or message names
 * instead of pretending the server does not exist.
 */
export interface ServerReadiness {
  server: string;
  /** `missing`: named by the profile but not in `servers`; `needs-sign-in`: its sign-in expired or was revoked. */
  state: ServerState | 'missing' | 'needs-sign-in';
  lastError?: string;
  /** Tools of this profile withheld because their definitions changed (until `switchboard approve`). */
  withheld?: string[];
}

export interface GatewayDeps {
  upstream: UpstreamAccess;
  audit(entry: AuditEntry): void;
  /** Code surface: runs `execute` for a session. */
  execute(view: ProfileView, session: SessionBase, code: string, signal: AbortSignal, requestId?: RequestId, client?: string, onProgress?: (p: Progress) => void): Promise<CallToolResult>;
  version: string;
  /** The boot answers shims give while no engine runs (boot-answers.ts); none in tests that need none. */
  bootAnswers?: BootAnswers;
}

export type { CallContext, CallOrigin } from './session-base.ts';

export class Gateway implements GatewayPort {
  readonly #deps: GatewayDeps;
  #views = new Map<string, ProfileView>();
  #servers = new Map<string, ServerConfig>();
  readonly sessions = new Set<SessionBase>();
  /** How long settle() waits for a profile's starting servers, in ms (tests shorten it). */
  settleWaitMs = SETTLE_WAIT_MS;
  readonly #roots: RootsRouter<SessionBase>;
  /** 2026-07-28 clients' calls waiting for the client's answer to a server's question. */
  readonly inputs = new InputBridge();
  /** Tasks of the profiles' clients (task-bridge.ts). */
  /** Servers' log messages for 2026-07-28 clients' calls (call-logs.ts). */
  readonly callLogs = new CallLogRelay();
  /** 2026-07-28 HTTP clients seen lately: that era has no sessions to list (recent-clients.ts). */
  readonly recentClients = new RecentClients();
  readonly tasks = new TaskBridge(
    (server, method, params, signal) => this.request(server, method, params, signal),
    (owner, task) => {
      // 2025 clients hear a task's changes; 2026-07-28 ones poll (or would listen, not relayed yet).
      for (const s of this.sessions) {
        if (s.era === 'legacy' && s.id === owner.session) s.forwardNotification('', { method: 'notifications/tasks/status', params: task } as ServerNotification);
      }
    },
  );
  /**
   * Changes for listeners that are not sessions: the 2026-07-28 HTTP endpoint keeps no sessions
   * and tells its clients' listen streams from these.
   */
  readonly events = new EventEmitter<{ listChanged: [profile: string, kind: 'tools' | 'resources' | 'prompts']; resourceUpdated: [server: string, uri: string] }>();

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
    this.#roots = new RootsRouter({
      config: (server) => this.#servers.get(server),
      servers: () => this.#servers.keys(),
      users: (server) => [...this.sessions].filter((s) => s.view?.includes(server)),
      restart: (server) => deps.upstream.restart(server),
      rootsChanged: (server) => deps.upstream.rootsChanged(server),
    });
  }

  get bootAnswers(): BootAnswers | undefined {
    return this.#deps.bootAnswers;
  }

  get version(): string {
    return this.#deps.version;
  }

  applyConfig(config: SwitchboardConfig): void {
    const next = new Map<string, ProfileView>();
    for (const [name, p] of Object.entries(config.profiles)) next.set(name, new ProfileView(name, p, this.#deps.upstream));
    const changed = new Set<string>();
    for (const [name, view] of next) {
      const old = this.#views.get(name);
      if (!old || JSON.stringify(old.config) !== JSON.stringify(view.config)) changed.add(name);
    }
    this.#views = next;
    this.#servers = new Map(Object.entries(config.servers));
    for (const s of this.sessions) {
      const view = next.get(s.profile);
      if (view) s.setView(view, changed.has(s.profile));
      else s.profileRemoved();
    }
    this.#roots.audienceChanged();
    for (const profile of changed) this.events.emit('listChanged', profile, 'tools');
  }

  /**
   * A server's catalog changed: refresh the profiles over it and tell their clients.
   * `toolsChanged` false: its tools are as clients were shown them (a server that started with
   * the tools of its boot catalog), so no tools list_changed.
   */
  catalogChanged(server: string, toolsChanged = true): void {
    const kinds = toolsChanged ? (['tools', 'resources', 'prompts'] as const) : (['resources', 'prompts'] as const);
    for (const view of this.#views.values()) {
      if (!view.includes(server)) continue;
      view.invalidate();
      for (const kind of kinds) this.events.emit('listChanged', view.name, kind);
    }
    for (const s of this.sessions) {
      if (!s.view?.includes(server)) continue;
      for (const kind of kinds) s.notifyListChanged(kind);
    }
  }

  /** The saved skills changed: refresh the profiles that offer them and tell their clients. */
  skillsChanged(): void {
    for (const view of this.#views.values()) if (view.codeMode.skills) view.invalidate();
    for (const s of this.sessions) if (s.view?.codeMode.skills) s.notifyListChanged('tools');
  }

  /**
   * Waits (bounded by settleWaitMs) until none of the profile's servers is still starting, so
   * that what a cold engine answers — lists, a run's globals, the execute description — is
   * complete. Resolves with the servers still starting when the wait ended.
   */
  settle(view: ProfileView, signal?: AbortSignal, kind?: 'tools'): Promise<string[]> {
    // Tools of a known server come from its boot catalog while it starts: nothing to wait for.
    const servers = kind === 'tools' ? view.servers.filter((s) => !this.#deps.upstream.bootCatalog?.(s)) : view.servers;
    return this.#deps.upstream.settle(servers, this.settleWaitMs, signal);
  }

  /**
   * A call to a server still starting (its tools listed from its boot catalog) waits until its
   * start ended, bounded by startWaitMs; the pipeline's readiness check then says why it is not
   * ready if it is not (failed, still starting), naming it.
   */
  async #awaitStart(server: string, signal?: AbortSignal): Promise<void> {
    if (this.#deps.upstream.unavailable(server) === undefined) return;
    await this.#deps.upstream.settle([server], this.startWaitMs, signal);
  }

  /** How long a call waits for its server's start, in ms: the default start timeout of a server. */
  startWaitMs = 60_000;

  /** The profile's servers that are not fully serving it (starting, failed, withheld tools, …), in config order. */
  readiness(view: ProfileView): ServerReadiness[] {
    const out: ServerReadiness[] = [];
    for (const server of view.servers) {
      const st = this.#deps.upstream.status(server);
      if (!st) {
        out.push({ server, state: 'missing' });
        continue;
      }
      const lastError = st.lastError ?? undefined;
      const withheld = (st.changedTools ?? []).filter((t) => view.allows(server, t));
      const entry: ServerReadiness =
        st.auth.state === 'needs-sign-in' ? { server, state: 'needs-sign-in' } : { server, state: st.state };
      if (entry.state !== 'ready' && lastError) entry.lastError = lastError;
      if (withheld.length) entry.withheld = withheld;
      if (entry.state !== 'ready' || withheld.length) out.push(entry);
    }
    return out;
  }

  view(profile: string): ProfileView | undefined {
    return this.#views.get(profile);
  }

  /** A view of an unsaved profile config over the live catalogs, for the editor's preview; never served. */
  draftView(name: string, config: ProfileConfig): ProfileView {
    return new ProfileView(name, config, this.#deps.upstream);
  }

  profileNames(): string[] {
    return [...this.#views.keys()];
  }

  unknownProfileMessage(profile: string): string {
    const known = this.profileNames();
    return `Unknown profile "${profile}". ${known.length ? `Known profiles: ${known.join(', ')}.` : 'No profiles are configured yet.'} Fix the --profile argument (or the URL) in your client's settings.`;
  }

  /**
   * Connects a client transport to a profile. Unknown profiles get an MCP error on every request.
   * On the shim's socket the client's first message picks the protocol generation (the v2 SDK's
   * stdio entry decides: `initialize` → a 2025 session, a request carrying the 2026-07-28 `_meta`
   * envelope or `server/discover` → a modern one); a resumed 2025 client replays its initialize.
   */
  async connect(
    profile: string,
    transport: Transport,
    info: { kind: 'socket' | 'http'; resumeInitialize?: unknown; connector?: string; bootServed?: BootDigests; moved?: boolean },
  ): Promise<SessionBase | undefined> {
    const view = this.#views.get(profile);
    if (!view) {
      await refuseUnknownProfile(transport, this.unknownProfileMessage(profile));
      return undefined;
    }
    if (info.kind === 'socket' && info.resumeInitialize === undefined) {
      ReplayTransport.open(transport, (first, replay) => {
        // A 2025 client opens with initialize: its session gets the connection directly (the
        // hot path stays as it was). Anything else goes to the SDK's stdio entry, which serves
        // 2026-07-28 (and 2025 clients that open otherwise) and answers bad openings.
        if (isLegacyOpening(first)) {
          const session = this.#open(profile, 'legacy', info.kind, info.connector) as ClientSession;
          if (transport instanceof LineTransport) transport.heldLists = () => session.heldLists();
          void session.connect(replay);
          return;
        }
        // Listen streams naming resources need the owning upstreams subscribed.
        const listens = new ListenBridge(this, profile);
        tapInbound(replay, (m) => void listens.inbound(m), () => listens.closeAll());
        // The replay transport holds the client's messages while the modern side loads.
        void loadModernEra().then(({ serveStdio }) => serveStdio(
          (ctx) => {
            const session = this.#open(profile, ctx.era === 'modern' ? 'modern' : 'legacy', info.kind, info.connector);
            if (session.era === 'modern') return (session as ModernSession).server;
            // The entry only connects and closes a 2025-era instance: the v1 session does both.
            const legacy = session as ClientSession;
            return { connect: (t: Transport) => legacy.connect(t), close: () => legacy.close() } as never;
          },
          { transport: replay as never, legacy: 'serve' },
        )).catch(() => void replay.close());
      });
      return undefined;
    }
    const session = this.#open(profile, 'legacy', info.kind, info.connector) as ClientSession;
    if (transport instanceof LineTransport) transport.heldLists = () => session.heldLists();
    await session.connect(transport, info.resumeInitialize, info.bootServed, info.moved);
    return session;
  }

  /**
   * A session for one 2026-07-28 HTTP request (that era has no sessions: each request stands
   * alone). Not a connected client (status lists it among the recent ones); gone when its
   * request is answered.
   */
  modernRequestSession(profile: string): ModernSession | undefined {
    const view = this.#views.get(profile);
    if (!view) return undefined;
    return new (modernEra().ModernSession)({ id: randomUUID(), profile, view, gateway: this, transportKind: 'http', extensions: this.#extensions(view) });
  }

  /**
   * The extensions the profile's ready servers announce, merged (the first server's settings
   * win for an extension several announce): a client learns them as the gateway's own.
   */
  #extensions(view: ProfileView): Record<string, object> | undefined {
    const out: Record<string, object> = {};
    for (const server of view.servers) {
      for (const [name, settings] of Object.entries(this.#deps.upstream.extensions?.(server) ?? {})) {
        if (!Object.hasOwn(out, name)) out[name] = settings;
      }
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  #open(profile: string, era: 'legacy' | 'modern', kind: 'socket' | 'http', connector?: string): SessionBase {
    const view = this.#views.get(profile)!;
    const init = { id: randomUUID(), profile, view, gateway: this, transportKind: kind, connector, extensions: this.#extensions(view) };
    const session = era === 'modern' ? new (modernEra().ModernSession)(init) : new ClientSession(init);
    this.sessions.add(session);
    const gone = () => {
      if (!this.sessions.delete(session)) return;
      // Its tasks can be reached by no one else (task-bridge.ts): they end with it.
      this.tasks.forgetSession(session.id);
      this.#roots.audienceChanged();
    };
    session.onclose = gone;
    if (session.era === 'modern') (session as ModernSession).server.onclose = gone;
    else {
      // Who uses which server decides whose roots a server may see (roots.ts).
      const legacy = session as ClientSession;
      const initialized = legacy.server.oninitialized;
      legacy.server.oninitialized = () => {
        initialized?.();
        this.#roots.audienceChanged();
      };
    }
    this.#roots.audienceChanged();
    return session;
  }

  execute(view: ProfileView, session: SessionBase, code: string, signal: AbortSignal, requestId?: RequestId, client?: string, onProgress?: (p: Progress) => void): Promise<CallToolResult> {
    return this.#deps.execute(view, session, code, signal, requestId, client, onProgress);
  }

  /**
   * The one path of every tool call, direct or from code: the profile's filter, the pin check
   * and the server's readiness (admit), the client's approval for code calls, the upstream call
   * with its timeout, and one audit entry. Throws SwitchboardError for
   * denied/unavailable/timeout/cancelled.
   */
  async callTool(view: ProfileView, server: string, tool: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult> {
    this.stats.pipelineCalls++;
    // A code run's worker counted them: re-serializing a 20 MB argument only to measure it took the engine's thread.
    const argBytes = ctx.argBytes ?? (args === undefined ? 0 : Buffer.byteLength(JSON.stringify(args)));
    await this.#awaitStart(server, ctx.signal);
    const call = this.#admit(view, server, tool, ctx, () => argBytes, () => (args === undefined || argBytes > AUDIT_ARGS_MAX_BYTES ? undefined : JSON.stringify(args)));
    if (ctx.approval) await call.approve(ctx.approval);
    ctx.session?.callStarted(server, ctx.requestId);
    try {
      // The upstream's SDK gives the call a progress token of its own when onProgress is set.
      const result = await this.#deps.upstream.callTool(
        server,
        { name: tool, ...(args !== undefined ? { arguments: args } : {}), ...(ctx.task ? { task: ctx.task } : {}) },
        {
          signal: ctx.signal,
          onProgress: ctx.onProgress,
          ...(ctx.logLevel ? { logLevel: ctx.logLevel } : {}),
          context: ctx.session ? ({ session: ctx.session, requestId: ctx.requestId } satisfies CallOrigin) : undefined,
        },
      );
      call.finish(result);
      return result;
    } catch (err) {
      throw call.fail(err, ctx.signal?.aborted === true);
    } finally {
      ctx.session?.callEnded(server, ctx.requestId);
    }
  }

  /**
   * The tools/call fast path's way through the same pipeline (fast-calls.ts): the same checks
   * and the same audit entry, the request written straight onto the server's connection
   * (direct-calls.ts). `answer` gets the result, or the error the SDK path would turn into a
   * tool error; the audit entry is made after it, once the reply is out. Returns undefined,
   * having checked and recorded nothing, when the server offers no direct lane (not a ready
   * 2025-era stdio server): the caller takes the SDK path then.
   */
  callToolDirect(view: ProfileView, server: string, tool: string, args: Record<string, unknown> | undefined, ctx: DirectCallContext, answer: DirectAnswer): DirectCallHandle | undefined {
    const lane = this.fastPath ? this.#deps.upstream.direct?.(server) : undefined;
    // A tool that runs only as a task needs the task round trips of Upstream.callTool.
    if (!lane || this.taskSupport(server, tool) === 'required') return undefined;
    this.stats.directCalls++;
    // Serialised once: for the wire, and measured for the audit (after the reply).
    const argsJson = args === undefined ? undefined : (ctx.argsJson ?? JSON.stringify(args));
    let call: PipelineCall;
    try {
      call = this.#admit(view, server, tool, ctx, () => (argsJson === undefined ? 0 : Buffer.byteLength(argsJson)), () => argsJson);
    } catch (err) {
      answer({ error: err as SwitchboardError });
      return { cancel: () => undefined };
    }
    ctx.session?.callStarted(server, ctx.requestId);
    const ended = () => ctx.session?.callEnded(server, ctx.requestId);
    const id = lane.call(
      tool,
      argsJson,
      {
        onResult: (result) => {
          answer({ result: result as CallToolResult });
          ended();
          call.finish(result as CallToolResult);
        },
        onError: (err) => {
          answer({ error: err });
          ended();
          call.fail(err, false);
        },
        ...(ctx.progress ? { onProgress: ctx.progress } : {}),
      },
      ctx.session ? ({ session: ctx.session, requestId: ctx.requestId } satisfies CallOrigin) : undefined,
    );
    return {
      cancel: () => {
        const what = `${server}.${tool}`;
        lane.cancel(id, `${what} was cancelled by the client`);
        ended();
        call.fail(new SwitchboardError('cancelled', `${what} was cancelled`), true);
      },
    };
  }

  /** Counts of tool calls by path since start, for tests and the bench (not part of status). */
  readonly stats = { pipelineCalls: 0, directCalls: 0, fastExecutes: 0 };
  /** Whether plain tools/call messages may take the fast path (tests turn it off to compare with the SDK path). */
  fastPath = true;

  /**
   * The pipeline's checks before any call leaves: the profile's filter, the tool's pin, the
   * server's readiness. A refusal is audited and thrown.
   */
  #admit(view: ProfileView, server: string, tool: string, ctx: CallContext, argBytes: () => number, argsJson: () => string | undefined): PipelineCall {
    const call = new PipelineCall(this.#deps.audit, view.name, server, tool, ctx, argBytes, argsJson);
    if (!view.includes(server) || !view.allows(server, tool)) {
      throw call.refuse('denied', `The tool "${tool}" of "${server}" is not available in profile "${view.name}".`);
    }
    const withheld = this.#deps.upstream.withheld?.(server, tool);
    if (withheld) throw call.refuse('denied', withheld);
    const why = this.#deps.upstream.unavailable(server);
    if (why) throw call.refuse('server-unavailable', why);
    return call;
  }

  unavailable(server: string): string | undefined {
    return this.#deps.upstream.unavailable(server);
  }

  taskSupport(server: string, tool: string): 'optional' | 'required' | undefined {
    return this.#deps.upstream.taskSupport?.(server, tool);
  }

  request(server: string, method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const why = this.#deps.upstream.unavailable(server);
    if (why) throw new SwitchboardError('server-unavailable', why);
    return this.#deps.upstream.request(server, method, params, { signal });
  }

  /**
   * Routes a request an upstream makes of its client (sampling, elicitation) to the client whose
   * call it belongs to, and only to it (SPEC §5). `tie` is what the upstream's connection proves:
   * the call itself (a 2026-07-28 `input_required`, a request on a call's Streamable HTTP
   * stream), else the calls in flight to that server (stdio carries no link). Untied, it is that
   * client's only when one call is in flight, or when all of them are one 2025 session's; else it
   * is refused, never guessed. Made outside any call, it goes to the most recently active 2025
   * client of a profile including the server, else the gateway answers (declined). Roots are
   * the RootsRouter's (roots.ts).
   */
  async serverRequest(server: string, request: ServerRequest, signal?: AbortSignal, tie: { call?: { context: unknown }; calls: unknown[] } = { calls: [] }): Promise<unknown> {
    // Roots never follow "whoever is active" (roots.ts), nor reach a server during another client's call.
    if (request.method === 'roots/list') {
      const during = (tie.call ? [tie.call.context] : tie.calls).map((c) => {
        const o = this.#origin(c);
        return o instanceof Object ? o.session : undefined;
      });
      return this.#roots.answer(server, signal, during);
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
    for (const s of this.sessions) {
      if (s.era === 'legacy' && s.view?.includes(server) && (!target || s.lastActive > target.lastActive)) target = s;
    }
    return target;
  }

  /** A call's context as a live client call; null for a call no client made (the gateway's own). */
  #origin(context: unknown): CallOrigin | null | 'ended' {
    const o = context as CallOrigin | undefined;
    if (!(o instanceof Object) || !(o.session instanceof SessionBase)) return null;
    return this.sessions.has(o.session) || this.inputs.owns(o.requestId) ? o : 'ended';
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

  /** A client changed its roots: servers that follow that client's roots ask again. */
  clientRootsChanged(session: SessionBase): void {
    this.#roots.clientRootsChanged(session);
  }

  /** Relays a notification of an upstream (logging, resources/updated) to its profiles' clients. */
  serverNotification(server: string, notification: ServerNotification): void {
    // A task's status names the server's task id: only the task's owner hears it, under the gateway's.
    if (notification.method === 'notifications/tasks/status') return this.tasks.fromServer(server, notification.params);
    for (const s of this.sessions) if (s.view?.includes(server)) s.forwardNotification(server, notification);
    if (notification.method === 'notifications/message') this.callLogs.deliver(server, notification.params);
    if (notification.method === 'notifications/resources/updated') this.events.emit('resourceUpdated', server, String(notification.params.uri));
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
  }
}

/** One tool call on its way through the pipeline: what its audit entry says when it ends. */
class PipelineCall {
  readonly #audit: (entry: AuditEntry) => void;
  readonly #started = Date.now();
  readonly #profile: string;
  readonly #server: string;
  readonly #tool: string;
  readonly #ctx: CallContext;
  readonly #argBytes: () => number;
  readonly #argsJson: () => string | undefined;
  #approval: ApprovalRecord | undefined;

  constructor(audit: (entry: AuditEntry) => void, profile: string, server: string, tool: string, ctx: CallContext, argBytes: () => number, argsJson: () => string | undefined) {
    this.#audit = audit;
    this.#argBytes = argBytes;
    this.#argsJson = argsJson;
    this.#profile = profile;
    this.#server = server;
    this.#tool = tool;
    this.#ctx = ctx;
  }

  /** Asks the client's approval (code calls that need it); a refusal is audited and thrown. */
  async approve(ask: NonNullable<CallContext['approval']>): Promise<void> {
    const decision = await ask();
    this.#approval = decision.record;
    if (!decision.approved) throw this.refuse('denied', decision.message ?? `denied: ${this.#server}.${this.#tool} was not approved`);
  }

  refuse(code: 'denied' | 'server-unavailable', message: string): SwitchboardError {
    this.#record(code === 'denied' ? 'denied' : 'error', 0, message);
    return new SwitchboardError(code, message);
  }

  finish(result: CallToolResult): void {
    this.#record(result.isError ? 'error' : 'ok', approxBytes(result), result.isError ? firstText(result) : undefined);
  }

  /** Audits a failed call and returns the error to throw. `aborted`: the caller gave up. */
  fail(err: unknown, aborted: boolean): SwitchboardError {
    const code = err instanceof SwitchboardError ? err.code : undefined;
    const outcome: CallOutcome = code === 'timeout' ? 'timeout' : aborted || code === 'cancelled' ? 'cancelled' : 'error';
    const message = err instanceof Error ? err.message : String(err);
    this.#record(outcome, 0, message);
    if (err instanceof SwitchboardError) return err;
    return new SwitchboardError(outcome === 'cancelled' ? 'cancelled' : 'upstream-error', `${this.#server}.${this.#tool} failed: ${message}`);
  }

  #record(outcome: CallOutcome, resultBytes: number, error?: string): void {
    const ctx = this.#ctx;
    // The audit log redacts, then cuts to AUDIT_ARGS_CHARS: it gets the slack past the cut too.
    const json = this.#argsJson();
    const args = json === undefined || json === '{}' ? undefined : json.length > AUDIT_ARGS_CHARS + CUT_SLACK_CHARS ? { args: json.slice(0, AUDIT_ARGS_CHARS + CUT_SLACK_CHARS), argsCut: true } : { args: json };
    this.#audit({
      time: new Date(this.#started).toISOString(),
      client: ctx.client,
      ...clientIdField(ctx.client, ctx.session?.connector),
      profile: this.#profile,
      server: this.#server,
      tool: this.#tool,
      outcome,
      durationMs: Date.now() - this.#started,
      argBytes: this.#argBytes(),
      resultBytes,
      ...(ctx.runId ? { runId: ctx.runId } : {}),
      ...(error ? { error } : {}),
      ...(this.#approval ? { approval: this.#approval } : {}),
      ...args,
    });
  }
}

/** An `initialize` without the 2026-07-28 envelope: a 2025 client. */
function isLegacyOpening(first: unknown): boolean {
  const m = first as { method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined;
  return m?.method === 'initialize' && m.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === undefined;
}

/**
 * Sees every inbound message of a transport before its owner does, and its close. The owner
 * (the SDK's stdio entry) sets onmessage/onclose after this, so they are wrapped on assignment.
 */
function tapInbound(transport: Transport, onMessage: (m: unknown) => void, onClose: () => void): void {
  let handler: Transport['onmessage'];
  let closer: Transport['onclose'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler && ((m: never, extra?: never) => {
      onMessage(m);
      handler!(m, extra);
    }),
    set: (h: Transport['onmessage']) => (handler = h),
  });
  Object.defineProperty(transport, 'onclose', {
    configurable: true,
    get: () => () => {
      onClose();
      closer?.();
    },
    set: (h: Transport['onclose']) => (closer = h),
  });
}

async function refuseUnknownProfile(transport: Transport, message: string): Promise<void> {
  transport.onmessage = (msg) => {
    if ('method' in msg && 'id' in msg) {
      void transport.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message } });
    }
  };
  await transport.start();
}

/** The error text of an `isError` result, whole: the audit log cuts it (audit-entry-caps.ts). */
function firstText(result: CallToolResult): string | undefined {
  const t = result.content?.find((c) => c.type === 'text');
  return t && 'text' in t ? String(t.text) : undefined;
}

/** Result size for the audit log without serialising huge results twice. */
function approxBytes(result: CallToolResult): number {
  let n = 0;
  for (const c of result.content ?? []) {
    if (c.type === 'text') n += Buffer.byteLength(c.text);
    else if ('data' in c && typeof c.data === 'string') n += c.data.length;
    else n += JSON.stringify(c).length;
  }
  if (result.structuredContent) n += JSON.stringify(result.structuredContent).length;
  return n;
}
