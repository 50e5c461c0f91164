// One connection to one configured upstream server, shared by every profile and client: its
// lifecycle (start, restart with backoff, give up after repeated failed starts, stop), and the
// calls made over it (bounded by callTimeoutSec). Built on the v2 client SDK, which speaks both
// protocol generations; the pieces live next to it: connection-attempt.ts (what one attempt at a
// connection owns), upstream-client.ts (the SDK client it speaks through), upstream-calls.ts (the
// calls), transport-factory.ts (how to reach the server), protocol-era.ts (which generation it
// speaks), subscriptions-2026-07-28.ts (2026-07-28 change notifications), catalog-cache.ts (its tools,
// resources, prompts) and upstream-errors.ts (what a failure is called).
import path from 'node:path';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
// The engine's own vocabulary for MCP shapes (the same JSON in both SDK generations).
import type { CallToolRequest, CallToolResult, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerState, ServerStatus } from '../../../src-shared/api.ts';
import { DEFAULT_CALL_TIMEOUT_SEC, type ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { ServerLog } from './server-log.ts';
import { RedactingServerLog } from './redacting-server-log.ts';
import { DirectCalls } from './direct-calls.ts';
import { UpstreamAuth } from './oauth/upstream-auth.ts';
import { CatalogCache, type CatalogKind } from './catalog-cache.ts';
import { EraVerdict, negotiatedRevision } from './protocol-era.ts';
import { Rev20260728Subscriptions } from './subscriptions-2026-07-28.ts';
import { liftTaskResults } from './tasks-2026-07-28.ts';
import type { MissingProgram } from '../../../src-shared/missing-program.ts';
import { FatalStartError, makeTransport } from './transport-factory.ts';
import { mendToolLists } from './lenient-catalog.ts';
import { configuredRoots, followsClientRoots } from './roots.ts';
import { backoffDelay, failuresInARow, RESTART_BACKOFF } from '../../../src-shared/backoff.ts';
import { answerWithoutClient, NotAskedError } from './answer-without-client.ts';
import { proposedBy } from '../trust/proposals.ts';
import { callFailure, crashMessage, startErrorMessage, unavailableError, type FailureContext } from './upstream-errors.ts';
import { ConnectionAttempt } from './connection-attempt.ts';
import { makeUpstreamClient } from './upstream-client.ts';
import { UpstreamCalls, untilAborted } from './upstream-calls.ts';
import type { CallOptions, ServerRequestExtra, UpstreamOptions } from './upstream-options.ts';

export type { CallOptions, NotificationHandler, ServerRequestExtra, ServerRequestHandler, UpstreamOptions } from './upstream-options.ts';

/**
 * Why a server must not run, if it must not: disabled in config.json, or proposed from outside
 * and not approved yet (its command never runs before the user's approval).
 */
function heldBack(config: ServerConfig): 'disabled' | 'needs-approval' | undefined {
  if (proposedBy(config) !== undefined) return 'needs-approval';
  return config.disabled ? 'disabled' : undefined;
}

export class Upstream {
  readonly name: string;
  #config: ServerConfig;
  readonly #opts: UpstreamOptions;
  readonly #log: ServerLog;
  #state: ServerState;
  #lastError: string | null = null;
  /** Set while failed because the command is not on this computer. */
  #missingProgram: MissingProgram | undefined;
  #restarts = 0;
  /** The connection being made or in use; undefined between attempts (backoff, stopped, failed). */
  #attempt: ConnectionAttempt | undefined;
  /** What the server offered when it last connected: kept across restarts, like its catalog. */
  #capabilities: ServerCapabilities | undefined;
  readonly #era = new EraVerdict();
  #failedStarts = 0;
  #quickCrashes = 0;
  #readySince = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #disposed = false;
  readonly #catalog: CatalogCache;
  readonly #calls: UpstreamCalls;
  #stateListeners = new Set<() => void>();
  readonly #auth: UpstreamAuth | undefined;

  constructor(name: string, config: ServerConfig, opts: UpstreamOptions) {
    this.name = name;
    this.#config = config;
    this.#opts = opts;
    this.#log = new RedactingServerLog(path.join(opts.logsDir, `${name}.log`), opts.secretValues ?? (() => []), { maxBytes: opts.maxLogBytes });
    this.#catalog = new CatalogCache((line) => this.#log.note(line));
    this.#state = heldBack(config) ?? 'starting';
    if (config.url !== undefined && opts.secrets) {
      this.#auth = new UpstreamAuth(name, config, opts.secrets, { resolveSecret: opts.resolveSecret, onChange: () => this.#notifyState() });
    }
    this.#calls = new UpstreamCalls({
      name,
      timeoutSec: () => this.#timeoutSec(),
      speaksRev20260728: () => this.#attempt?.client?.getProtocolEra() === 'modern',
      taskSupport: (tool) => this.taskSupport(tool),
      connection: async (ms, signal) => {
        if (this.#auth?.needsSignIn) throw this.#auth.signInError();
        if (this.#state !== 'ready') await untilAborted(this.waitReady(Math.max(0, ms)), signal);
        const attempt = this.#attempt;
        if (!attempt?.client) throw this.#unavailable();
        return attempt as ConnectionAttempt & { client: NonNullable<ConnectionAttempt['client']> };
      },
      answer: (request, extra) => this.#answerServer(request, extra),
      failure: (err, what, attempt) => this.#callError(err, what, attempt),
    });
  }

  get config(): ServerConfig {
    return this.#config;
  }

  /**
   * Takes a config that differs only in `roots` without a restart: the server is told
   * `notifications/roots/list_changed` and asks for them again.
   */
  updateRoots(config: ServerConfig): void {
    this.#config = config;
    this.rootsChanged();
  }

  /** Tells a connected server its roots changed (it then sends roots/list). */
  rootsChanged(): void {
    const client = this.#attempt?.initialized ? this.#attempt.client : undefined;
    if (!client) return;
    client.sendRootsListChanged().catch((err: unknown) => this.#log.note(`could not send roots/list_changed: ${err instanceof Error ? err.message : String(err)}`));
  }

  get state(): ServerState {
    return this.#state;
  }
  get lastError(): string | null {
    return this.#lastError;
  }
  get restarts(): number {
    return this.#restarts;
  }
  /** The current attempt's child process; undefined between attempts (a stopped or crashed one is gone). */
  get pid(): number | undefined {
    return this.#attempt?.stdio?.pid;
  }
  get logFile(): string {
    return this.#log.file;
  }
  /** The MCP revision negotiated with the server; null until connected. */
  get protocol(): string | null {
    return this.#attempt?.protocol ?? null;
  }

  tools(): Tool[] {
    return this.#catalog.tools;
  }
  resources(): Resource[] {
    return this.#catalog.resources;
  }
  resourceTemplates(): ResourceTemplate[] {
    return this.#catalog.templates;
  }
  prompts(): Prompt[] {
    return this.#catalog.prompts;
  }
  serverCapabilities(): ServerCapabilities | undefined {
    return this.#capabilities;
  }

  status(): ServerStatus {
    const s: ServerStatus = {
      state: this.#state,
      tools: this.#catalog.tools.length,
      lastError: this.#auth?.needsSignIn ? this.#auth.signInError().message : this.#lastError,
      auth: this.#auth?.status() ?? { state: 'none' },
      kind: this.config.url !== undefined ? 'remote' : 'local',
      restarts: this.#restarts,
      protocol: this.protocol,
    };
    if (this.#state === 'failed' && this.#missingProgram) s.missingProgram = this.#missingProgram;
    const pid = this.pid;
    if (pid !== undefined && (this.#state === 'ready' || this.#state === 'starting' || this.#state === 'restarting')) s.pid = pid;
    return s;
  }

  logTail(lines: number): string[] {
    return this.#log.tail(lines);
  }

  /** Starts the server (a disabled or unapproved one stays so). Progress shows in state and lastError. */
  start(): void {
    if (this.#disposed || heldBack(this.config)) return;
    void this.#connect();
  }

  /** Stops and starts again, forgetting earlier failures: the way out of `failed`. */
  async restart(): Promise<void> {
    if (this.#disposed || heldBack(this.config)) return;
    this.#restarts++;
    this.#failedStarts = 0;
    this.#quickCrashes = 0;
    this.#log.note('restart requested');
    await this.#teardown(`${this.name} was restarted while the call was running`);
    this.#setState('restarting');
    void this.#connect();
  }

  /** Resolves once ready; throws server-unavailable when it fails, is disabled, or the time runs out. */
  waitReady(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        if (this.#state === 'ready') resolve();
        else if (this.#disposed || this.#state === 'failed' || this.#state === 'disabled' || this.#state === 'needs-approval') reject(this.#unavailable());
        else return false;
        return true;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        this.#stateListeners.delete(listener);
        reject(
          new SwitchboardError(
            'server-unavailable',
            `${this.name} is not ready after ${Math.round(timeoutMs / 1000)} s (${this.#state})${this.#lastError ? `: ${this.#lastError}` : ''}`,
          ),
        );
      }, timeoutMs);
      const listener = () => {
        if (check()) {
          clearTimeout(timer);
          this.#stateListeners.delete(listener);
        }
      };
      this.#stateListeners.add(listener);
    });
  }

  callTool(params: CallToolRequest['params'], opts: CallOptions = {}): Promise<CallToolResult> {
    return this.#calls.callTool(params, opts);
  }

  /**
   * The fast path's way to this server's tools/call: the connection itself, when it is a ready
   * 2025-era stdio connection needing no sign-in; undefined otherwise (then use callTool).
   */
  direct(): DirectCalls | undefined {
    const d = this.#attempt?.direct;
    return d?.open && this.#state === 'ready' && !this.#auth?.needsSignIn ? d : undefined;
  }

  /**
   * Whether a tool can run as a task of this server (2025-11-25 tasks: the server offers
   * task-augmented tools/call and the tool says `execution.taskSupport`). Undefined when it
   * cannot: a server without tasks, or a 2026-07-28 one (which decides per call: a task it
   * answers with is followed by callTool itself, tasks-2026-07-28.ts).
   */
  taskSupport(tool: string): 'optional' | 'required' | undefined {
    if (this.#attempt?.client?.getProtocolEra() === 'modern' || !this.#capabilities?.tasks?.requests?.tools?.call) return undefined;
    const support = this.#catalog.tools.find((t) => t.name === tool)?.execution?.taskSupport;
    return support === 'optional' || support === 'required' ? support : undefined;
  }

  /** Any other client→server request (resources/read, prompts/get, completion/complete, …), relayed as is. */
  async request(method: string, params: unknown, opts: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.#calls.send(method, params, opts, `${this.name} ${method}`);
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.#teardown(`${this.name} was stopped while the call was running`);
    this.#notifyState();
    this.#stateListeners.clear();
    this.#log.dispose();
  }

  // ---- calls ---------------------------------------------------------------------------------

  #timeoutSec(): number {
    return this.config.callTimeoutSec ?? DEFAULT_CALL_TIMEOUT_SEC;
  }

  #callError(err: unknown, what: string, attempt: ConnectionAttempt | undefined): SwitchboardError {
    const signIn = this.#auth?.errorFor(err);
    if (signIn) return signIn;
    if (err instanceof ProtocolError && err.code === ProtocolErrorCode.UnsupportedProtocolVersion) this.#era.forget();
    return callFailure(err, what, () => this.#closedError(attempt), () => this.#unavailable());
  }

  /** What a call gets when the connection it went through ends under it. */
  #closedError(attempt: ConnectionAttempt | undefined): SwitchboardError {
    return attempt?.closedError(this.name) ?? new SwitchboardError('server-unavailable', `${this.name} stopped while the call was running; it is being restarted`);
  }

  #unavailable(): SwitchboardError {
    return unavailableError(this.name, this.#state, this.#disposed, this.#lastError);
  }

  #failure(attempt: ConnectionAttempt): FailureContext {
    return {
      name: this.name,
      url: this.config.url,
      exit: attempt.stdio?.exitInfo,
      lastLine: this.#log.lastServerLine(),
      startTimeoutMs: this.#opts.startTimeoutMs ?? 60_000,
    };
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  async #connect(): Promise<void> {
    // An attempt replaced (a second start) is ended, not left running.
    const previous = this.#attempt;
    const attempt = new ConnectionAttempt();
    this.#attempt = attempt;
    if (previous) void previous.dispose();
    try {
      const made = await makeTransport(this.name, this.config, {
        log: this.#log,
        resolveSecret: this.#opts.resolveSecret,
        auth: this.#auth,
        parentEnv: this.#opts.parentEnv,
        ...(this.#opts.launchersDir !== undefined ? { launchersDir: this.#opts.launchersDir } : {}),
        maxMessageBytes: this.#opts.maxMessageBytes,
        killGraceMs: this.#opts.killGraceMs,
        groups: this.#opts.groups,
      });
      if (!(await attempt.adopt(made))) return;
      const transport = made.transport;
      const client = this.#makeClient(attempt);
      attempt.client = client;
      await client.connect(transport, this.#era.connectOptions(this.#opts.startTimeoutMs ?? 60_000));
      if (attempt.ended) return;
      this.#era.record(client);
      if (client.getProtocolEra() === 'modern') liftTaskResults(transport);
      mendToolLists(transport, (line) => this.#log.note(line));
      this.#calls.progress.tap(transport);
      const caps = (client.getServerCapabilities() ?? {}) as ServerCapabilities;
      this.#capabilities = caps;
      attempt.protocol = negotiatedRevision(client);
      this.#log.note(`connected (MCP ${attempt.protocol ?? 'unknown revision'}, ${client.getProtocolEra() ?? 'legacy'} era)`);
      attempt.initialized = true;
      const current = () => !attempt.ended;
      await Promise.all([
        this.#catalog.refresh('tools', client, caps, current, true),
        this.#catalog.refresh('resources', client, caps, current),
        this.#catalog.refresh('prompts', client, caps, current),
      ]);
      if (attempt.ended) return;
      if (made.stdio && client.getProtocolEra() !== 'modern') {
        attempt.direct = new DirectCalls(made.stdio, {
          name: this.name,
          timeoutSec: this.#timeoutSec(),
          inflight: this.#calls.inflight,
          closedError: () => this.#closedError(attempt),
          failure: (err, what) => this.#callError(err, what, attempt),
        });
      }
      if (client.getProtocolEra() === 'modern') {
        const subs = new Rev20260728Subscriptions(client, caps);
        attempt.subscriptions = subs;
        await subs.open().catch((err) => this.#log.note(`could not listen for changes: ${err instanceof Error ? err.message : String(err)}`));
        if (attempt.ended) return;
      }
      this.#failedStarts = 0;
      this.#lastError = null;
      this.#missingProgram = undefined;
      this.#auth?.connected();
      this.#readySince = Date.now();
      this.#log.note('ready');
      this.#setState('ready');
      this.#opts.onCatalog?.(this.name);
    } catch (err) {
      if (attempt.ended || this.#disposed) return;
      const message = startErrorMessage(err, this.#failure(attempt));
      const exited = attempt.stdio?.exitInfo !== undefined;
      await this.#endAttempt(attempt);
      if (this.#auth?.errorFor(err)) return this.#signInNeeded();
      // A server that exits on the server/discover probe is a 2025 server that allows nothing
      // before initialize: connect to it that way at once, without counting a failure.
      if (exited && !(err instanceof FatalStartError) && this.#era.probeBrokeConnection()) {
        this.#log.note('the server closed the connection on server/discover; connecting with initialize');
        return void this.#connect();
      }
      this.#era.forget();
      this.#missingProgram = err instanceof FatalStartError ? err.missingProgram : undefined;
      this.#startFailed(message, err instanceof FatalStartError);
    }
  }

  /** Ends `attempt` and everything it holds; `stopReason` is what calls cut off by it are told. */
  async #endAttempt(attempt: ConnectionAttempt, stopReason?: string): Promise<void> {
    if (this.#attempt === attempt) this.#attempt = undefined;
    await attempt.dispose(stopReason);
  }

  #startFailed(message: string, fatal: boolean): void {
    this.#log.note(`could not start: ${message}`);
    this.#failedStarts++;
    const max = this.#opts.maxFailedStarts ?? 5;
    if (fatal || this.#failedStarts >= max) {
      this.#lastError = fatal ? message : `${message} (gave up after ${this.#failedStarts} tries; fix it, then restart the server)`;
      this.#catalog.clear();
      this.#setState('failed');
      this.#opts.onCatalog?.(this.name);
      return;
    }
    this.#lastError = message;
    this.#scheduleRetry(this.#failedStarts);
  }

  /** `failures`: failures in a row, 1 for the first. */
  #scheduleRetry(failures: number): void {
    const delay = backoffDelay({ initialMs: this.#opts.backoffInitialMs ?? RESTART_BACKOFF.initialMs, maxMs: this.#opts.backoffMaxMs ?? RESTART_BACKOFF.maxMs }, failures);
    this.#setState('restarting');
    this.#log.note(`restarting in ${delay} ms`);
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#disposed) return;
      this.#restarts++;
      void this.#connect();
    }, delay);
  }

  /** The connection ended without us asking: a crash after the server was ready. */
  #onClosed(attempt: ConnectionAttempt): void {
    if (attempt.ended || this.#disposed || !attempt.initialized || this.#state !== 'ready') return;
    this.#lastError = crashMessage(this.#failure(attempt));
    void this.#endAttempt(attempt);
    this.#quickCrashes = failuresInARow(RESTART_BACKOFF, this.#quickCrashes, Date.now() - this.#readySince);
    this.#scheduleRetry(this.#quickCrashes);
  }

  async #teardown(reason: string): Promise<void> {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const attempt = this.#attempt;
    if (attempt) await this.#endAttempt(attempt, reason);
  }

  /**
   * The server wants a sign-in this engine cannot do. No retry loop: only the user can fix it.
   * Tools from the last good connection stay listed (calls to them say to sign in again).
   */
  #signInNeeded(): void {
    this.#log.note('needs sign-in');
    this.#lastError = this.#auth!.signInError().message;
    this.#setState(this.#catalog.tools.length > 0 ? 'ready' : 'failed');
    this.#opts.onCatalog?.(this.name);
  }

  #setState(state: ServerState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#notifyState();
  }

  #notifyState(): void {
    for (const l of [...this.#stateListeners]) l();
    this.#opts.onState?.(this.name);
  }

  // ---- the server's own requests ------------------------------------------------------------

  /**
   * Answers a request of the server (sampling, elicitation, roots), whether it came on the wire or
   * inside a 2026-07-28 `input_required` result. Roots come from config.json unless the server
   * opted in to its client's (roots.ts): a shared server is never steered by whichever client
   * happens to be connected.
   */
  #answerServer(request: { method: string; params?: Record<string, unknown> }, extra: ServerRequestExtra): Promise<Record<string, unknown>> {
    if (request.method === 'roots/list' && !followsClientRoots(this.#config)) return Promise.resolve(configuredRoots(this.#config));
    const handler = this.#opts.onServerRequest;
    if (!handler) return Promise.resolve().then(() => answerWithoutClient(request.method));
    // A question nobody was put (refused, or its call ended) is noted where the server's log shows it.
    return handler(this.name, request, extra).catch((err: unknown) => {
      if (err instanceof NotAskedError) this.#log.note(`${request.method} not asked: ${err.message}`);
      throw err;
    });
  }

  /** The SDK client of one attempt: whatever it reports once the attempt ended is dropped. */
  #makeClient(attempt: ConnectionAttempt) {
    return makeUpstreamClient(this.#opts.clientInfo ?? { name: 'switchboard', version: '0.1.0' }, this.#opts.startTimeoutMs ?? 60_000, {
      closed: () => this.#onClosed(attempt),
      // Transport hiccups are not fatal; the log says what happened for whoever looks.
      error: (err) => {
        if (!attempt.ended) this.#log.note(`connection error: ${err.message}`);
      },
      ask: (request, id, signal) => this.#answerServer(request, { signal, ...this.#calls.tieOf(attempt.ties, id, (line) => this.#log.note(line)) }),
      // A server may announce a change before it has even answered initialize (server-everything
      // does); the catalog fetched right after initialize covers those, so only later ones refresh.
      listChanged: async (kind: CatalogKind) => {
        if (attempt.ended || !attempt.initialized || !attempt.client) return;
        await this.#catalog.refresh(kind, attempt.client, this.#capabilities ?? {}, () => !attempt.ended).catch(() => {});
        if (!attempt.ended && this.#state === 'ready') this.#opts.onCatalog?.(this.name);
      },
      notified: (notification) => {
        if (!attempt.ended) this.#opts.onNotification?.(this.name, notification);
      },
    });
  }
}
