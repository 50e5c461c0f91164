// The profile gateways: one ProfileView per profile, one MCP session per connected client. The
// Gateway coordinates; the jobs are in their own files: the tools/call pipeline
// (call-pipeline.ts), a server's requests routed to their client (request-router.ts), a socket
// connection's opening (socket-opening.ts), change and notification fan-out
// (notification-fanout.ts), and the knobs tests turn (knobs.ts).
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ServerNotification, ServerRequest, Progress, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ProfileConfig, ServerConfig, SwitchboardConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { AuditEntry } from '../../../src-shared/records.ts';
import { ProfileView } from './profile-view.ts';
import { ClientSession } from './session-2025-11-25.ts';
import { RootsRouter } from '../upstream/roots.ts';
import type { SessionBase, CallContext, DirectAnswer, DirectCallContext, DirectCallHandle, GatewayPort, SessionEra } from './session-base.ts';
import type { Rev20260728Session } from './session-2026-07-28.ts';
import { rev20260728 } from './load-rev-2026-07-28.ts';
import type { BootAnswers, BootDigests } from './boot-answers.ts';
import { LineTransport } from './line-transport.ts';
import { InputBridge } from './input-bridge.ts';
import { TaskBridge } from './task-bridge.ts';
import { CallLogRelay } from '../upstream/call-logs.ts';
import { RecentClients } from './recent-clients.ts';
import { CallPipeline } from './call-pipeline.ts';
import { CallStats, GatewayKnobs } from './knobs.ts';
import { NotificationFanout } from './notification-fanout.ts';
import { profileReadiness, type ServerReadiness } from './readiness.ts';
import { ServerRequestRouter, type RequestTie } from './request-router.ts';
import { openSocketConnection, refuseUnknownProfile } from './socket-opening.ts';
import type { UpstreamAccess } from './upstream-access.ts';

export type { UpstreamAccess } from './upstream-access.ts';
export type { ServerReadiness } from './readiness.ts';
export type { CallContext, CallOrigin } from './session-base.ts';

export interface GatewayDeps {
  upstream: UpstreamAccess;
  audit(entry: AuditEntry): void;
  /** Code surface: runs `execute` for a session. */
  execute(view: ProfileView, session: SessionBase, code: string, signal: AbortSignal, requestId?: RequestId, client?: string, onProgress?: (p: Progress) => void): Promise<CallToolResult>;
  version: string;
  /** The boot answers shims give while no engine runs (boot-answers.ts); none in tests that need none. */
  bootAnswers?: BootAnswers;
}

export class Gateway implements GatewayPort {
  readonly #deps: GatewayDeps;
  #views = new Map<string, ProfileView>();
  #servers = new Map<string, ServerConfig>();
  readonly sessions = new Set<SessionBase>();
  /** Switches and timings tests and the bench change (knobs.ts). */
  readonly knobs = new GatewayKnobs();
  /** Counts of tool calls by path since start, for tests and the bench (not part of status). */
  readonly stats = new CallStats();
  readonly #roots: RootsRouter<SessionBase>;
  readonly #calls: CallPipeline;
  readonly #requests: ServerRequestRouter;
  readonly #fanout: NotificationFanout;
  /** 2026-07-28 clients' calls waiting for the client's answer to a server's question. */
  readonly inputs = new InputBridge();
  /** Servers' log messages for 2026-07-28 clients' calls (call-logs.ts). */
  readonly callLogs = new CallLogRelay();
  /** 2026-07-28 HTTP clients seen lately: that era has no sessions to list (recent-clients.ts). */
  readonly recentClients = new RecentClients();
  /** Tasks of the profiles' clients (task-bridge.ts). */
  readonly tasks: TaskBridge;
  /**
   * Changes for listeners that are not sessions: the 2026-07-28 HTTP endpoint keeps no sessions
   * and tells its clients' listen streams from these.
   */
  readonly events: NotificationFanout['events'];

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
    this.#roots = new RootsRouter({
      config: (server) => this.#servers.get(server),
      servers: () => this.#servers.keys(),
      users: (server) => [...this.sessions].filter((s) => s.view?.includes(server)),
      restart: (server) => deps.upstream.restart(server),
      rootsChanged: (server) => deps.upstream.rootsChanged(server),
    });
    this.#calls = new CallPipeline({ upstream: deps.upstream, audit: deps.audit, knobs: this.knobs, stats: this.stats });
    this.#requests = new ServerRequestRouter({ sessions: this.sessions, inputs: this.inputs, roots: this.#roots });
    this.#fanout = new NotificationFanout({ sessions: this.sessions, views: () => this.#views.values(), tasks: () => this.tasks, callLogs: this.callLogs });
    this.events = this.#fanout.events;
    this.tasks = new TaskBridge(
      (server, method, params, signal) => this.request(server, method, params, signal),
      (owner, task) => this.#fanout.taskStatus(owner, task),
    );
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
    this.#fanout.profilesChanged(changed);
  }

  /** A server's catalog changed (notification-fanout.ts). */
  catalogChanged(server: string, toolsChanged = true): void {
    this.#fanout.catalogChanged(server, toolsChanged);
  }

  /** The saved skills changed: refresh the profiles that offer them and tell their clients. */
  skillsChanged(): void {
    this.#fanout.skillsChanged();
  }

  /**
   * Waits (bounded by knobs.settleWaitMs) until none of the profile's servers is still starting,
   * so that what a cold engine answers — lists, a run's globals, the execute description — is
   * complete. Resolves with the servers still starting when the wait ended.
   */
  settle(view: ProfileView, signal?: AbortSignal, kind?: 'tools'): Promise<string[]> {
    // Tools of a known server come from its boot catalog while it starts: nothing to wait for.
    const servers = kind === 'tools' ? view.servers.filter((s) => !this.#deps.upstream.bootCatalog?.(s)) : view.servers;
    return this.#deps.upstream.settle(servers, this.knobs.settleWaitMs, signal);
  }

  /** The profile's servers that are not fully serving it (starting, failed, withheld tools, …), in config order. */
  readiness(view: ProfileView): ServerReadiness[] {
    return profileReadiness(this.#deps.upstream, view);
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
   * On the shim's socket the client's first message picks the protocol generation
   * (socket-opening.ts); a resumed 2025 client replays its initialize.
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
    const holdLists = (session: ClientSession) => {
      if (transport instanceof LineTransport) transport.heldLists = () => session.heldLists();
    };
    if (info.kind === 'socket' && info.resumeInitialize === undefined) {
      openSocketConnection(transport, this, profile, (era) => this.#open(profile, era, info.kind, info.connector), holdLists);
      return undefined;
    }
    const session = this.#open(profile, 'legacy', info.kind, info.connector) as ClientSession;
    holdLists(session);
    await session.connect(transport, info.resumeInitialize, info.bootServed, info.moved);
    return session;
  }

  /**
   * A session for one 2026-07-28 HTTP request (that era has no sessions: each request stands
   * alone). Not a connected client (status lists it among the recent ones); gone when its
   * request is answered.
   */
  rev20260728RequestSession(profile: string): Rev20260728Session | undefined {
    const view = this.#views.get(profile);
    if (!view) return undefined;
    return new (rev20260728().Rev20260728Session)({ id: randomUUID(), profile, view, gateway: this, transportKind: 'http', extensions: this.#extensions(view) });
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

  #open(profile: string, era: SessionEra, kind: 'socket' | 'http', connector?: string): SessionBase {
    const view = this.#views.get(profile)!;
    const init = { id: randomUUID(), profile, view, gateway: this, transportKind: kind, connector, extensions: this.#extensions(view) };
    const session = era === 'modern' ? new (rev20260728().Rev20260728Session)(init) : new ClientSession(init);
    this.sessions.add(session);
    const gone = () => {
      if (!this.sessions.delete(session)) return;
      // Its tasks can be reached by no one else (task-bridge.ts): they end with it.
      this.tasks.forgetSession(session.id);
      this.#roots.audienceChanged();
    };
    session.onclose = gone;
    if (session.era === 'modern') (session as Rev20260728Session).server.onclose = gone;
    else {
      // Who uses which server decides whose roots a server may see (roots.ts).
      const rev20251125 = session as ClientSession;
      const initialized = rev20251125.server.oninitialized;
      rev20251125.server.oninitialized = () => {
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

  /** A tool call through the one pipeline (call-pipeline.ts), its result awaited. */
  callTool(view: ProfileView, server: string, tool: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult> {
    return this.#calls.call(view, server, tool, args, ctx);
  }

  /** The same pipeline answering through `answer` (the socket's fast path); undefined when the server has no direct lane. */
  callToolDirect(view: ProfileView, server: string, tool: string, args: Record<string, unknown> | undefined, ctx: DirectCallContext, answer: DirectAnswer): DirectCallHandle | undefined {
    return this.#calls.start(view, server, tool, args, ctx, answer);
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

  /** Routes a request an upstream makes of its client to the client whose call it belongs to (request-router.ts). */
  serverRequest(server: string, request: ServerRequest, signal?: AbortSignal, tie: RequestTie = { calls: [] }): Promise<unknown> {
    return this.#requests.route(server, request, signal, tie);
  }

  /** A client changed its roots: servers that follow that client's roots ask again. */
  clientRootsChanged(session: SessionBase): void {
    this.#roots.clientRootsChanged(session);
  }

  /** Relays a notification of an upstream (logging, resources/updated) to its profiles' clients. */
  serverNotification(server: string, notification: ServerNotification): void {
    this.#fanout.serverNotification(server, notification);
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
  }
}
