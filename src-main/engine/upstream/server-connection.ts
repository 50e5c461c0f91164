// One connection to one configured upstream server, shared by every profile and client: its
// lifecycle (start, restart with backoff, give up after repeated failed starts, stop), and the
// calls made over it (bounded by callTimeoutSec). Built on the v2 client SDK, which speaks both
// protocol generations; the pieces live next to it: transport-factory.ts (how to reach the
// server), protocol-era.ts (which generation it speaks), subscriptions-2026-07-28.ts (2026-07-28
// change notifications), catalog-cache.ts (its tools, resources, prompts) and upstream-errors.ts
// (what a failure is called).
import path from 'node:path';
import { Client, ProtocolError, ProtocolErrorCode, type Transport } from '@modelcontextprotocol/client';
// The engine's own vocabulary for MCP shapes (the same JSON in both SDK generations).
import type { CallToolRequest, CallToolResult, Progress, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerState, ServerStatus } from '../../../src-shared/api.ts';
import { DEFAULT_CALL_TIMEOUT_SEC, type ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { ServerLog } from './server-log.ts';
import { RedactingServerLog } from '../trust/redacting-server-log.ts';
import { SDK_STDIO_MESSAGE_BYTES, type ChildStdioTransport } from './stdio-transport.ts';
import { DirectCalls } from './direct-calls.ts';
import { CallProgress } from './call-progress.ts';
import { CALL_HEADER, type StreamTies } from './stream-ties.ts';
import { answerInputRounds } from './input-rounds.ts';
import { formatBytes } from '../../../src-shared/codemode/unwrap.ts';
import { UpstreamAuth } from './oauth/upstream-auth.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { CatalogCache, type CatalogKind } from './catalog-cache.ts';
import { EraVerdict, negotiatedRevision } from './protocol-era.ts';
import { Rev20260728Subscriptions } from './subscriptions-2026-07-28.ts';
import { followTask, liftedTask, liftTaskResults, TASKS_EXTENSION } from './tasks-2026-07-28.ts';
import { LOG_LEVEL_META_KEY } from '../gateway/call-logs.ts';
import type { MissingProgram } from '../../../src-shared/missing-program.ts';
import { FatalStartError, makeTransport } from './transport-factory.ts';
import { mendToolLists } from './lenient-catalog.ts';
import { configuredRoots, followsClientRoots } from '../gateway/roots.ts';
import { backoffDelay, failuresInARow, RESTART_BACKOFF } from '../../../src-shared/backoff.ts';
import { answerWithoutClient, callEndedMessage, NotAskedError } from './answer-without-client.ts';
import { proposedBy } from '../trust/proposals.ts';
import { callFailure, crashMessage, startErrorMessage, unavailableError, type FailureContext } from './upstream-errors.ts';

export interface ServerRequestExtra {
  /** Aborted when the server cancels its request or the connection ends. */
  signal: AbortSignal;
  /**
   * The call the request belongs to, when the connection says so: a 2026-07-28 call's own
   * `input_required`, or a request on a call's Streamable HTTP response stream. Its `context`.
   */
  call?: { context: unknown };
  /**
   * Without `call`: the `context` of every call in flight to this server, oldest first (none: the
   * request was made outside any call). They only bound whose it can be; the gateway decides.
   */
  calls: unknown[];
}

/** Answers a server→client request (sampling/createMessage, elicitation/create, roots/list). */
export type ServerRequestHandler = (
  server: string,
  request: { method: string; params?: Record<string, unknown> },
  extra: ServerRequestExtra,
) => Promise<Record<string, unknown>>;

/** Server notifications other than progress and list_changed (logging, resources/updated, …). */
export type NotificationHandler = (server: string, notification: { method: string; params?: Record<string, unknown> }) => void;

export interface UpstreamOptions {
  /** Folder for `<name>.log` (stderr and lifecycle notes). */
  logsDir: string;
  resolveSecret?: (name: string) => string | undefined;
  /** Where remote servers keep their sign-in (OAuth tokens); without it they connect without OAuth. */
  secrets?: SecretStore;
  clientInfo?: { name: string; version: string };
  onServerRequest?: ServerRequestHandler;
  onNotification?: NotificationHandler;
  onCatalog?: (name: string) => void;
  onState?: (name: string) => void;
  /** Environment the allow-list picks from. Defaults to process.env. */
  parentEnv?: NodeJS.ProcessEnv;
  /** Where the app's own node/npx/npm launchers are written (carried-runtime.ts); defaults to a private temp folder. */
  launchersDir?: string;
  /** First restart delay in ms (doubling per failure). Defaults to 500. */
  backoffInitialMs?: number;
  /** Longest restart delay in ms. Defaults to 30000. */
  backoffMaxMs?: number;
  /** Failed starts in a row before the server is marked failed. Defaults to 5. */
  maxFailedStarts?: number;
  /** Time allowed from spawn to an answered initialize, in ms. Defaults to 60000 (npx may download first). */
  startTimeoutMs?: number;
  /** SIGTERM → SIGKILL grace when stopping, in ms. Defaults to 2000. */
  killGraceMs?: number;
  /** Largest message accepted from a stdio server, in bytes. Defaults to 64 MB. */
  maxMessageBytes?: number;
  /** stderr log size before rotation, in bytes. Defaults to 1 MB. */
  maxLogBytes?: number;
  /** Secret values to keep out of the server's log, tail and lastError. Defaults to none (token shapes are still redacted). */
  secretValues?: () => readonly string[];
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Opaque to us; handed back in ServerRequestExtra (call or calls) so requests can be routed to the caller. */
  context?: unknown;
  /** Log level a 2026-07-28 server is asked to log at during this call (its `_meta`); 2025 servers log as they do. */
  logLevel?: string;
}

/**
 * Why a server must not run, if it must not: disabled in config.json, or proposed from outside
 * and not approved yet (SPEC §3: its command never runs before the user's approval).
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
  #client: Client | undefined;
  #transport: Transport | undefined;
  #stdio: ChildStdioTransport | undefined;
  #capabilities: ServerCapabilities | undefined;
  #subscriptions: Rev20260728Subscriptions | undefined;
  /** The tools/call fast path's lane on a ready 2025-era stdio connection (direct-calls.ts). */
  #direct: DirectCalls | undefined;
  /** Which call a server request came with, on a Streamable HTTP connection (stream-ties.ts). */
  #ties: StreamTies | undefined;
  #protocol: string | null = null;
  readonly #era = new EraVerdict();
  #generation = 0;
  #initialized = false;
  #failedStarts = 0;
  #quickCrashes = 0;
  #readySince = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #stopReason: string | undefined;
  #disposed = false;
  readonly #catalog: CatalogCache;
  #inflight = new Map<number, unknown>();
  #callSeq = 0;
  /** Our calls' progress, taken off the transport in the order it is read (call-progress.ts). */
  readonly #progress = new CallProgress();
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
    if (!this.#initialized || !this.#client) return;
    this.#client.sendRootsListChanged().catch((err: unknown) => this.#log.note(`could not send roots/list_changed: ${err instanceof Error ? err.message : String(err)}`));
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
  get pid(): number | undefined {
    return this.#stdio?.pid;
  }
  get logFile(): string {
    return this.#log.file;
  }
  /** The MCP revision negotiated with the server; null until connected. */
  get protocol(): string | null {
    return this.#protocol;
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
      protocol: this.#protocol,
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

  async callTool(params: CallToolRequest['params'], opts: CallOptions = {}): Promise<CallToolResult> {
    if (opts.logLevel !== undefined && this.#client?.getProtocolEra() === 'modern') {
      params = { ...params, _meta: { ...params._meta, [LOG_LEVEL_META_KEY]: opts.logLevel } };
    }
    if (params.task === undefined && this.taskSupport(params.name) === 'required') return this.#callThroughTask(params, opts);
    const result = await this.#send('tools/call', params, opts, `${this.name}.${params.name}`);
    const task = liftedTask(result);
    if (task) return this.#followModernTask(task, `${this.name}.${params.name}`, opts);
    return result as CallToolResult;
  }

  /** A 2026-07-28 server answered with a task (tasks-2026-07-28.ts): its result, within callTimeoutSec. */
  async #followModernTask(task: NonNullable<ReturnType<typeof liftedTask>>, what: string, opts: CallOptions): Promise<CallToolResult> {
    const sec = this.config.callTimeoutSec ?? DEFAULT_CALL_TIMEOUT_SEC;
    const timeout = AbortSignal.timeout(sec * 1000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    try {
      const get = (taskId: string) => this.#send('tasks/get', { taskId }, { signal }, what);
      const cancel = (taskId: string) => void this.#send('tasks/cancel', { taskId }, {}, what).catch(() => {});
      return (await followTask(task, what, get, cancel, signal)) as CallToolResult;
    } catch (err) {
      if (opts.signal?.aborted) throw new SwitchboardError('cancelled', `${what} was cancelled`);
      if (timeout.aborted) throw new SwitchboardError('timeout', `${what} took longer than ${sec} s (callTimeoutSec) and was cancelled`);
      throw err;
    }
  }

  /**
   * The fast path's way to this server's tools/call: the connection itself, when it is a ready
   * 2025-era stdio connection needing no sign-in; undefined otherwise (then use callTool).
   */
  direct(): DirectCalls | undefined {
    const d = this.#direct;
    return d?.open && this.#state === 'ready' && !this.#auth?.needsSignIn ? d : undefined;
  }

  /**
   * Whether a tool can run as a task of this server (2025-11-25 tasks: the server offers
   * task-augmented tools/call and the tool says `execution.taskSupport`). Undefined when it
   * cannot: a server without tasks, or a 2026-07-28 one (which decides per call: a task it
   * answers with is followed by callTool itself, tasks-2026-07-28.ts).
   */
  taskSupport(tool: string): 'optional' | 'required' | undefined {
    if (this.#client?.getProtocolEra() === 'modern' || !this.#capabilities?.tasks?.requests?.tools?.call) return undefined;
    const support = this.#catalog.tools.find((t) => t.name === tool)?.execution?.taskSupport;
    return support === 'optional' || support === 'required' ? support : undefined;
  }

  /**
   * A caller that wants a plain result from a tool that runs only as a task: start the task,
   * wait for its result (tasks/result blocks until it ends), and cancel it when the caller gives up.
   */
  async #callThroughTask(params: CallToolRequest['params'], opts: CallOptions): Promise<CallToolResult> {
    const what = `${this.name}.${params.name}`;
    const created = (await this.#send('tools/call', { ...params, task: {} }, opts, what)) as { task?: { taskId?: unknown } };
    const taskId = created.task?.taskId;
    if (typeof taskId !== 'string') return created as CallToolResult;
    try {
      return (await this.#send('tasks/result', { taskId }, opts, what)) as CallToolResult;
    } catch (err) {
      if (opts.signal?.aborted || (err instanceof SwitchboardError && err.code === 'timeout')) {
        void this.#send('tasks/cancel', { taskId }, {}, what).catch(() => {});
      }
      throw err;
    }
  }

  /** Any other client→server request (resources/read, prompts/get, completion/complete, …), relayed as is. */
  async request(method: string, params: unknown, opts: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.#send(method, params, opts, `${this.name} ${method}`);
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

  async #send(method: string, params: unknown, opts: CallOptions, what: string): Promise<Record<string, unknown>> {
    const sec = this.config.callTimeoutSec ?? DEFAULT_CALL_TIMEOUT_SEC;
    const deadline = Date.now() + sec * 1000;
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort(new Error(`${what} took longer than ${sec} s (callTimeoutSec) and was cancelled`));
    }, sec * 1000);
    const onAbort = () => ctrl.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const id = ++this.#callSeq;
    this.#inflight.set(id, opts.context);
    // Progress goes to the caller as the server sends it, ahead of the result (call-progress.ts).
    const progress = opts.onProgress ? this.#progress.open(params, opts.onProgress) : undefined;
    if (progress) params = progress.params;
    try {
      opts.signal?.throwIfAborted();
      if (this.#auth?.needsSignIn) throw this.#auth.signInError();
      if (this.#state !== 'ready') await this.#waitReadyOrAbort(deadline - Date.now(), ctrl.signal);
      const client = this.#client;
      if (!client) throw this.#unavailable();
      const subs = this.#subscriptions;
      if (subs && (method === 'resources/subscribe' || method === 'resources/unsubscribe')) {
        // 2026-07-28 has no resources/subscribe: the same wish is a listen stream naming the URI.
        const uri = String((params as { uri?: unknown } | undefined)?.uri ?? '');
        await (method === 'resources/subscribe' ? subs.subscribe(uri) : subs.unsubscribe(uri));
        return {};
      }
      const modern = client.getProtocolEra() === 'modern';
      const options = {
        signal: ctrl.signal,
        // Our own timer decides; this only keeps the SDK's 60 s default out of the way.
        timeout: sec * 1000 + 60_000,
        // 2026-07-28: an `input_required` result comes back to us, to be answered for this call
        // alone (input-rounds.ts); the SDK's own loop would not say whose call asked.
        ...(modern ? { allowInputRequired: true } : {}),
        // Streamable HTTP: the server's requests on this call's stream are this call's.
        ...(this.#ties ? { headers: { [CALL_HEADER]: String(id) } } : {}),
      };
      // Spec methods get the SDK's result handling; anything else is relayed as is.
      // A task-augmented call answers with a task, not a CallToolResult: relayed as is.
      const typed = SPEC_METHODS.has(method) && (params as { task?: unknown } | undefined)?.task === undefined;
      const send = (p: unknown): Promise<Record<string, unknown>> => {
        const request = { method, params: p as Record<string, unknown> | undefined };
        return (typed ? client.request(request as { method: 'tools/call' }, options) : client.request(request, ANY_RESULT, options)) as Promise<Record<string, unknown>>;
      };
      const first = await send(params);
      if (!modern) return first;
      const answer = (ask: { method: string; params?: Record<string, unknown> }, signal: AbortSignal) => this.#answerServer(ask, { signal, call: { context: opts.context }, calls: [] });
      return await answerInputRounds(first, params as Record<string, unknown> | undefined, { what, signal: ctrl.signal, answer, retry: send });
    } catch (err) {
      if (timedOut) throw new SwitchboardError('timeout', `${what} took longer than ${sec} s (callTimeoutSec) and was cancelled`);
      if (opts.signal?.aborted) throw new SwitchboardError('cancelled', `${what} was cancelled`);
      throw this.#callError(err, what);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      this.#inflight.delete(id);
      progress?.close();
    }
  }

  async #waitReadyOrAbort(ms: number, signal: AbortSignal): Promise<void> {
    await Promise.race([
      this.waitReady(Math.max(0, ms)),
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    ]);
  }

  #callError(err: unknown, what: string): SwitchboardError {
    const signIn = this.#auth?.errorFor(err);
    if (signIn) return signIn;
    if (err instanceof ProtocolError && err.code === ProtocolErrorCode.UnsupportedProtocolVersion) this.#era.forget();
    return callFailure(err, what, () => this.#closedError(), () => this.#unavailable());
  }

  /** What a call gets when the connection ends under it. */
  #closedError(): SwitchboardError {
    return new SwitchboardError('server-unavailable', this.#stopReason ?? `${this.name} stopped while the call was running; it is being restarted${this.#hugeRequestNote()}`);
  }

  /** Why a stdio server that quit mid-call likely did: the last request it was sent was over the SDK's message limit. */
  #hugeRequestNote(): string {
    const chars = this.#stdio?.lastSentChars ?? 0;
    if (chars <= SDK_STDIO_MESSAGE_BYTES) return '';
    return (
      `. The last request it was sent was ${formatBytes(chars)}: servers made with the MCP SDK read at most ${formatBytes(SDK_STDIO_MESSAGE_BYTES)} per message ` +
      `unless they raise that limit, and quit on a bigger one; send less per call (split the data over several calls)`
    );
  }

  #unavailable(): SwitchboardError {
    return unavailableError(this.name, this.#state, this.#disposed, this.#lastError);
  }

  #failure(): FailureContext {
    return {
      name: this.name,
      url: this.config.url,
      exit: this.#stdio?.exitInfo,
      lastLine: this.#log.lastServerLine(),
      startTimeoutMs: this.#opts.startTimeoutMs ?? 60_000,
    };
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  async #connect(): Promise<void> {
    const gen = ++this.#generation;
    this.#initialized = false;
    this.#stopReason = undefined;
    let transport: Transport | undefined;
    try {
      const made = await makeTransport(this.name, this.config, {
        log: this.#log,
        resolveSecret: this.#opts.resolveSecret,
        auth: this.#auth,
        parentEnv: this.#opts.parentEnv,
        ...(this.#opts.launchersDir !== undefined ? { launchersDir: this.#opts.launchersDir } : {}),
        maxMessageBytes: this.#opts.maxMessageBytes,
        killGraceMs: this.#opts.killGraceMs,
      });
      transport = made.transport;
      if (made.stdio) this.#stdio = made.stdio;
      this.#ties = made.ties;
      if (gen !== this.#generation) {
        await transport.close();
        return;
      }
      const client = this.#makeClient(gen);
      this.#client = client;
      this.#transport = transport;
      await client.connect(transport, this.#era.connectOptions(this.#opts.startTimeoutMs ?? 60_000));
      if (gen !== this.#generation) return;
      this.#era.record(client);
      if (client.getProtocolEra() === 'modern') liftTaskResults(transport);
      mendToolLists(transport, (line) => this.#log.note(line));
      this.#progress.tap(transport);
      this.#capabilities = (client.getServerCapabilities() ?? {}) as ServerCapabilities;
      this.#protocol = negotiatedRevision(client);
      this.#log.note(`connected (MCP ${this.#protocol ?? 'unknown revision'}, ${client.getProtocolEra() ?? 'legacy'} era)`);
      this.#initialized = true;
      const current = () => gen === this.#generation;
      const caps = this.#capabilities;
      await Promise.all([
        this.#catalog.refresh('tools', client, caps, current, true),
        this.#catalog.refresh('resources', client, caps, current),
        this.#catalog.refresh('prompts', client, caps, current),
      ]);
      if (gen !== this.#generation) return;
      if (made.stdio && client.getProtocolEra() !== 'modern') {
        this.#direct = new DirectCalls(made.stdio, {
          name: this.name,
          timeoutSec: this.config.callTimeoutSec ?? DEFAULT_CALL_TIMEOUT_SEC,
          inflight: this.#inflight,
          closedError: () => this.#closedError(),
          failure: (err, what) => this.#callError(err, what),
        });
      }
      if (client.getProtocolEra() === 'modern') {
        const subs = new Rev20260728Subscriptions(client, caps);
        this.#subscriptions = subs;
        await subs.open().catch((err) => this.#log.note(`could not listen for changes: ${err instanceof Error ? err.message : String(err)}`));
        if (gen !== this.#generation) return;
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
      if (gen !== this.#generation || this.#disposed) return;
      const message = startErrorMessage(err, this.#failure());
      const exited = this.#stdio?.exitInfo !== undefined;
      this.#generation++;
      const t = this.#transport ?? transport;
      this.#client = undefined;
      this.#transport = undefined;
      this.#subscriptions = undefined;
      this.#direct = undefined;
      this.#protocol = null;
      await t?.close().catch(() => {});
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
  #onClosed(gen: number): void {
    if (gen !== this.#generation || this.#disposed || !this.#initialized || this.#state !== 'ready') return;
    this.#generation++;
    this.#lastError = crashMessage(this.#failure());
    this.#client = undefined;
    this.#transport = undefined;
    this.#subscriptions = undefined;
    this.#direct = undefined;
    this.#protocol = null;
    this.#quickCrashes = failuresInARow(RESTART_BACKOFF, this.#quickCrashes, Date.now() - this.#readySince);
    this.#scheduleRetry(this.#quickCrashes);
  }

  async #teardown(reason: string): Promise<void> {
    this.#generation++;
    this.#stopReason = reason;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const client = this.#client;
    const transport = this.#transport;
    const subs = this.#subscriptions;
    this.#client = undefined;
    this.#transport = undefined;
    this.#subscriptions = undefined;
    this.#direct = undefined;
    this.#ties = undefined;
    this.#protocol = null;
    await subs?.close();
    if (client) await client.close().catch(() => {});
    // Also when the client is closed: one closed while it connects may not hold its transport yet
    // (the era probe opens it), and the server would go on running. Closing twice is one stop.
    await transport?.close().catch(() => {});
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
   * Whose call a request the server sent on the wire belongs to (ServerRequestExtra): the call
   * whose Streamable HTTP stream carried it, else every call in flight (stdio and the old SSE
   * transport carry no link between a request and a call).
   */
  #tieOf(requestId: unknown): Pick<ServerRequestExtra, 'call' | 'calls'> {
    const call = this.#ties?.take(requestId);
    if (call === undefined) return { calls: [...this.#inflight.values()] };
    if (!this.#inflight.has(call)) {
      this.#log.note(`a question came on the stream of a call that has ended; nobody was asked`);
      throw new NotAskedError(callEndedMessage(this.name));
    }
    return { call: { context: this.#inflight.get(call) }, calls: [] };
  }

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

  // ---- client --------------------------------------------------------------------------------

  #makeClient(gen: number): Client {
    const client = new Client(this.#opts.clientInfo ?? { name: 'switchboard', version: '0.1.0' }, {
      // The tasks extension (2026-07-28): a server may answer a call with a task, which the call follows.
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true }, extensions: { [TASKS_EXTENSION]: {} } },
      ...EraVerdict.clientOptions(this.#opts.startTimeoutMs ?? 60_000),
      // The old bound on pages: a server that always returns a cursor cannot loop us forever.
      listMaxPages: 1000,
    });
    client.onclose = () => this.#onClosed(gen);
    client.onerror = (err) => {
      // Transport hiccups are not fatal; the log says what happened for whoever looks.
      if (gen === this.#generation) this.#log.note(`connection error: ${err.message}`);
    };
    // On a 2025-era connection these answer the server's own requests; on 2026-07-28 the SDK
    // calls the same handlers to fulfil an `input_required` result, then retries the call.
    const relay = (method: string) => async (request: { id?: unknown; params?: Record<string, unknown> }, ctx: { mcpReq: { id: unknown; signal: AbortSignal } }) =>
      this.#answerServer({ method, params: request.params }, { signal: ctx.mcpReq.signal, ...this.#tieOf(ctx.mcpReq.id) });
    client.setRequestHandler('sampling/createMessage', relay('sampling/createMessage') as never);
    client.setRequestHandler('elicitation/create', relay('elicitation/create') as never);
    client.setRequestHandler('roots/list', relay('roots/list') as never);
    // A server may announce a change before it has even answered initialize (server-everything
    // does); the catalog fetched right after initialize covers those, so only later ones refresh.
    const onChanged = (kind: CatalogKind) => async () => {
      if (gen !== this.#generation || !this.#initialized || !this.#client) return;
      await this.#catalog.refresh(kind, this.#client, this.#capabilities ?? {}, () => gen === this.#generation).catch(() => {});
      if (gen === this.#generation && this.#state === 'ready') this.#opts.onCatalog?.(this.name);
    };
    client.setNotificationHandler('notifications/tools/list_changed', onChanged('tools'));
    client.setNotificationHandler('notifications/resources/list_changed', onChanged('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', onChanged('prompts'));
    const forward = (n: { method: string; params?: unknown }) => {
      if (gen !== this.#generation) return;
      // The listen stream's subscription id is ours, not the client's: drop it before relaying.
      const params = n.params as Record<string, unknown> | undefined;
      const meta = params?._meta as Record<string, unknown> | undefined;
      let clean = params;
      if (meta && SUBSCRIPTION_ID in meta) {
        const { [SUBSCRIPTION_ID]: _drop, ...rest } = meta;
        clean = { ...params, _meta: rest };
        if (Object.keys(rest).length === 0) delete clean._meta;
      }
      this.#opts.onNotification?.(this.name, { method: n.method, params: clean });
    };
    client.setNotificationHandler('notifications/resources/updated', forward as never);
    client.fallbackNotificationHandler = async (n) => forward(n);
    return client;
  }
}

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** Requests the SDK knows by name (typed results, multi round-trip); others go through ANY_RESULT. */
const SPEC_METHODS = new Set([
  'tools/call',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'ping',
]);

/** A result schema that accepts any object: relayed results are the client's to judge. */
const ANY_RESULT = {
  '~standard': {
    version: 1 as const,
    vendor: 'switchboard',
    validate: (value: unknown) =>
      value !== null && typeof value === 'object' ? { value: value as Record<string, unknown> } : { issues: [{ message: 'a result must be an object' }] },
  },
};


