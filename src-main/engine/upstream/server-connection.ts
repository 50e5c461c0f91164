// One connection to one configured upstream server, shared by every profile and client.
// It keeps the server running (restart with backoff, give up after repeated failed starts),
// keeps its catalogs current (list_changed), bounds every call by callTimeoutSec, and turns
// every failure into a SwitchboardError with a sentence the user can act on.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolRequest,
  type CallToolResult,
  type Progress,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerState, ServerStatus } from '../../../src-shared/api.ts';
import { DEFAULT_CALL_TIMEOUT_SEC, type SecretOrString, type ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { buildChildEnv } from './child-env.ts';
import { loginShellPath, resolveCommand } from './command-resolve.ts';
import { ServerLog } from './server-log.ts';
import { RedactingServerLog } from '../trust/redacting-server-log.ts';
import { ChildStdioTransport, SDK_STDIO_MESSAGE_BYTES } from './stdio-transport.ts';
import { formatBytes } from '../../../src-shared/codemode/unwrap.ts';
import { UpstreamAuth } from './oauth/upstream-auth.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { configuredRoots, followsClientRoots } from '../gateway/roots.ts';
import { backoffDelay, failuresInARow, RESTART_BACKOFF } from '../../../src-shared/backoff.ts';
import { answerWithoutClient } from './answer-without-client.ts';

export interface ServerRequestExtra {
  /** Aborted when the server cancels its request or the connection ends. */
  signal: AbortSignal;
  /** `context` of this server's calls in flight, oldest first: who the request most likely belongs to. */
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
  /** Opaque to us; handed back in ServerRequestExtra.calls so requests can be routed to the caller. */
  context?: unknown;
}

/** A ready-made error that retrying will not fix (missing secret or command): no backoff loop. */
class FatalStartError extends SwitchboardError {}


type CatalogKind = 'tools' | 'resources' | 'prompts';

export class Upstream {
  readonly name: string;
  #config: ServerConfig;
  readonly #opts: UpstreamOptions;
  readonly #log: ServerLog;
  #state: ServerState;
  #lastError: string | null = null;
  #restarts = 0;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #stdio: ChildStdioTransport | undefined;
  #capabilities: ServerCapabilities | undefined;
  #generation = 0;
  #initialized = false;
  #failedStarts = 0;
  #quickCrashes = 0;
  #readySince = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #stopReason: string | undefined;
  #disposed = false;
  #tools: Tool[] = [];
  #resources: Resource[] = [];
  #templates: ResourceTemplate[] = [];
  #prompts: Prompt[] = [];
  #refreshing = new Map<CatalogKind, { again: boolean; done: Promise<void> }>();
  #inflight = new Map<number, unknown>();
  #callSeq = 0;
  #stateListeners = new Set<() => void>();
  readonly #auth: UpstreamAuth | undefined;

  constructor(name: string, config: ServerConfig, opts: UpstreamOptions) {
    this.name = name;
    this.#config = config;
    this.#opts = opts;
    this.#log = new RedactingServerLog(path.join(opts.logsDir, `${name}.log`), opts.secretValues ?? (() => []), { maxBytes: opts.maxLogBytes });
    this.#state = config.disabled ? 'disabled' : 'starting';
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

  tools(): Tool[] {
    return this.#tools;
  }
  resources(): Resource[] {
    return this.#resources;
  }
  resourceTemplates(): ResourceTemplate[] {
    return this.#templates;
  }
  prompts(): Prompt[] {
    return this.#prompts;
  }
  serverCapabilities(): ServerCapabilities | undefined {
    return this.#capabilities;
  }

  status(): ServerStatus {
    const s: ServerStatus = {
      state: this.#state,
      tools: this.#tools.length,
      lastError: this.#auth?.needsSignIn ? this.#auth.signInError().message : this.#lastError,
      auth: this.#auth?.status() ?? { state: 'none' },
      kind: this.config.url !== undefined ? 'remote' : 'local',
      restarts: this.#restarts,
    };
    const pid = this.pid;
    if (pid !== undefined && (this.#state === 'ready' || this.#state === 'starting' || this.#state === 'restarting')) s.pid = pid;
    return s;
  }

  logTail(lines: number): string[] {
    return this.#log.tail(lines);
  }

  /** Starts the server (a disabled one stays disabled). Progress shows in state and lastError. */
  start(): void {
    if (this.#disposed || this.config.disabled) return;
    void this.#connect();
  }

  /** Stops and starts again, forgetting earlier failures: the way out of `failed`. */
  async restart(): Promise<void> {
    if (this.#disposed || this.config.disabled) return;
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
    const result = await this.#send('tools/call', params, opts, `${this.name}.${params.name}`, true);
    return result as CallToolResult;
  }

  /** Any other client→server request (resources/read, prompts/get, completion/complete, …), relayed as is. */
  async request(method: string, params: unknown, opts: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.#send(method, params, opts, `${this.name} ${method}`, false);
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

  async #send(method: string, params: unknown, opts: CallOptions, what: string, isToolCall: boolean): Promise<Record<string, unknown>> {
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
    try {
      opts.signal?.throwIfAborted();
      if (this.#auth?.needsSignIn) throw this.#auth.signInError();
      if (this.#state !== 'ready') await this.#waitReadyOrAbort(deadline - Date.now(), ctrl.signal);
      const client = this.#client;
      if (!client) throw this.#unavailable();
      return await client.request({ method, params } as never, isToolCall ? CallToolResultSchema : ResultSchema, {
        signal: ctrl.signal,
        // Our own timer decides; this only keeps the SDK's 60 s default out of the way.
        timeout: sec * 1000 + 60_000,
        onprogress: opts.onProgress,
      });
    } catch (err) {
      if (timedOut) throw new SwitchboardError('timeout', `${what} took longer than ${sec} s (callTimeoutSec) and was cancelled`);
      if (opts.signal?.aborted) throw new SwitchboardError('cancelled', `${what} was cancelled`);
      throw this.#callError(err, what);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      this.#inflight.delete(id);
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
    if (err instanceof SwitchboardError) return err;
    const signIn = this.#auth?.errorFor(err);
    if (signIn) return signIn;
    if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
      return new SwitchboardError('server-unavailable', this.#stopReason ?? `${this.name} stopped while the call was running; it is being restarted${this.#hugeRequestNote()}`);
    }
    if (err instanceof Error && err.message === 'Not connected') return this.#unavailable();
    const message = err instanceof Error ? err.message : String(err);
    const e = new SwitchboardError('upstream-error', `${what} failed: ${message}`);
    (e as Error).cause = err;
    return e;
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
    if (this.#disposed) return new SwitchboardError('server-unavailable', `${this.name} was stopped`);
    switch (this.#state) {
      case 'disabled':
        return new SwitchboardError('server-unavailable', `${this.name} is disabled in config.json`);
      case 'failed':
        return new SwitchboardError('server-unavailable', `${this.name} is not running: ${this.#lastError ?? 'it failed to start'}`);
      case 'needs-approval':
        return new SwitchboardError('server-unavailable', `${this.name} is waiting for your approval`);
      default:
        return new SwitchboardError('server-unavailable', `${this.name} is not ready yet (${this.#state})`);
    }
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  async #connect(): Promise<void> {
    const gen = ++this.#generation;
    this.#initialized = false;
    this.#stopReason = undefined;
    let transport: Transport | undefined;
    try {
      transport = await this.#makeTransport();
      if (gen !== this.#generation) {
        await transport.close();
        return;
      }
      const client = this.#makeClient(gen);
      this.#client = client;
      this.#transport = transport;
      await client.connect(transport, { timeout: this.#opts.startTimeoutMs ?? 60_000 });
      if (gen !== this.#generation) return;
      this.#capabilities = client.getServerCapabilities();
      this.#initialized = true;
      await Promise.all([this.#refresh('tools', gen, true), this.#refresh('resources', gen), this.#refresh('prompts', gen)]);
      if (gen !== this.#generation) return;
      this.#failedStarts = 0;
      this.#lastError = null;
      this.#auth?.connected();
      this.#readySince = Date.now();
      this.#log.note('ready');
      this.#setState('ready');
      this.#opts.onCatalog?.(this.name);
    } catch (err) {
      if (gen !== this.#generation || this.#disposed) return;
      const message = this.#startErrorMessage(err);
      this.#generation++;
      const t = this.#transport ?? transport;
      this.#client = undefined;
      this.#transport = undefined;
      await t?.close().catch(() => {});
      if (this.#auth?.errorFor(err)) return this.#signInNeeded();
      this.#startFailed(message, err instanceof FatalStartError);
    }
  }

  #startFailed(message: string, fatal: boolean): void {
    this.#log.note(`could not start: ${message}`);
    this.#failedStarts++;
    const max = this.#opts.maxFailedStarts ?? 5;
    if (fatal || this.#failedStarts >= max) {
      this.#lastError = fatal ? message : `${message} (gave up after ${this.#failedStarts} tries; fix it, then restart the server)`;
      this.#clearCatalogs();
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
    const exit = this.#stdio?.exitInfo;
    const line = this.#log.lastServerLine();
    const how = exit ? (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`) : 'closed the connection';
    this.#lastError = `${this.name} ${how}${line ? `: ${line}` : ''}`;
    this.#client = undefined;
    this.#transport = undefined;
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
    this.#client = undefined;
    this.#transport = undefined;
    if (client) await client.close().catch(() => {});
    else await transport?.close().catch(() => {});
  }

  #startErrorMessage(err: unknown): string {
    if (err instanceof SwitchboardError) return err.message;
    const exit = this.#stdio?.exitInfo;
    const line = this.#log.lastServerLine();
    const detail = line ? `: ${line}` : '';
    if (exit) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      return `${this.name} ${how} before it was ready${detail}`;
    }
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      const sec = Math.round((this.#opts.startTimeoutMs ?? 60_000) / 1000);
      return `${this.name} did not answer initialize within ${sec} s${detail}`;
    }
    const message = err instanceof Error ? err.message : String(err);
    if (this.config.url !== undefined) return `${this.name} could not connect to ${this.config.url}: ${message}`;
    return `${this.name} failed to start: ${message}${detail}`;
  }

  /**
   * The server wants a sign-in this engine cannot do. No retry loop: only the user can fix it.
   * Tools from the last good connection stay listed (calls to them say to sign in again).
   */
  #signInNeeded(): void {
    this.#log.note('needs sign-in');
    this.#lastError = this.#auth!.signInError().message;
    this.#setState(this.#tools.length > 0 ? 'ready' : 'failed');
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

  #clearCatalogs(): void {
    this.#tools = [];
    this.#resources = [];
    this.#templates = [];
    this.#prompts = [];
  }

  // ---- transport and client ------------------------------------------------------------------

  async #makeTransport(): Promise<Transport> {
    const cfg = this.config;
    if (cfg.url !== undefined) {
      const headers = this.#resolveValues(cfg.headers, 'headers');
      const url = new URL(cfg.url);
      this.#log.note(`connecting to ${url.origin}${url.pathname} (${cfg.transport ?? 'http'})`);
      const auth = this.#auth ? { authProvider: this.#auth.provider, fetch: this.#auth.fetch } : {};
      // Loaded on first use: an engine with only local servers does not pay their memory.
      if (cfg.transport === 'sse') {
        const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
        return new SSEClientTransport(url, { requestInit: { headers }, ...auth });
      }
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...auth });
    }
    const command = cfg.command!;
    const configured = this.#resolveValues(cfg.env, 'env');
    if (cfg.cwd !== undefined) {
      const isDir = await stat(cfg.cwd).then((s) => s.isDirectory(), () => false);
      if (!isDir) throw new FatalStartError('server-unavailable', `${this.name}: the folder in "cwd" (${cfg.cwd}) does not exist`);
    }
    const parentEnv = this.#opts.parentEnv ?? process.env;
    const base = buildChildEnv({ configured, parentEnv, path: configured.PATH === undefined ? await loginShellPath() : undefined });
    const found = await resolveCommand(command, { env: base, cwd: cfg.cwd });
    if (!found.path) {
      const where = found.searched.length > 0 ? found.searched.join(', ') : 'nowhere: PATH is empty';
      const onPath = /[\\/]/.test(command) ? 'was not found' : 'was not found on PATH';
      throw new FatalStartError('server-unavailable', `${this.name}: the command "${command}" ${onPath} (looked in ${where}). ${found.hint ?? ''}`.trim());
    }
    const env = buildChildEnv({ configured, parentEnv, path: base.PATH, command: found.path });
    const t = new ChildStdioTransport({
      command: found.path,
      args: cfg.args ?? [],
      env,
      cwd: cfg.cwd,
      log: this.#log,
      label: this.name,
      maxMessageBytes: this.#opts.maxMessageBytes,
      killGraceMs: this.#opts.killGraceMs,
    });
    this.#stdio = t;
    return t;
  }

  #resolveValues(values: Record<string, SecretOrString> | undefined, where: 'env' | 'headers'): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(values ?? {})) {
      if (typeof v === 'string') {
        out[k] = v;
        continue;
      }
      const value = this.#opts.resolveSecret?.(v.secret);
      if (value === undefined) {
        throw new FatalStartError(
          'secret-missing',
          `${this.name} needs the secret "${v.secret}" (for ${where}.${k}), which is not set; set it in the app or with \`switchboard secret set ${v.secret}\``,
        );
      }
      out[k] = value;
    }
    return out;
  }

  #makeClient(gen: number): Client {
    const client = new Client(this.#opts.clientInfo ?? { name: 'switchboard', version: '0.1.0' }, {
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
    });
    client.onclose = () => this.#onClosed(gen);
    client.onerror = (err) => {
      // Transport hiccups are not fatal; the log says what happened for whoever looks.
      if (gen === this.#generation) this.#log.note(`connection error: ${err.message}`);
    };
    const relay = (method: string) => async (request: { params?: Record<string, unknown> }, extra: { signal: AbortSignal }) => {
      const handler = this.#opts.onServerRequest;
      const req = { method, params: request.params };
      if (handler) return handler(this.name, req, { signal: extra.signal, calls: [...this.#inflight.values()] });
      return answerWithoutClient(method);
    };
    client.setRequestHandler(CreateMessageRequestSchema, relay('sampling/createMessage') as never);
    client.setRequestHandler(ElicitRequestSchema, relay('elicitation/create') as never);
    // Roots are answered from config.json unless the server opted in to its client's (roots.ts):
    // a shared server must never be steered by whichever client happens to be connected.
    const relayRoots = relay('roots/list');
    client.setRequestHandler(ListRootsRequestSchema, (async (request: { params?: Record<string, unknown> }, extra: { signal: AbortSignal }) =>
      followsClientRoots(this.#config) ? relayRoots(request, extra) : configuredRoots(this.#config)) as never);
    // A server may announce a change before it has even answered initialize (server-everything
    // does); the catalog fetched right after initialize covers those, so only later ones refresh.
    const onChanged = (kind: CatalogKind) => async () => {
      if (gen !== this.#generation || !this.#initialized) return;
      await this.#refresh(kind, gen).catch(() => {});
      if (gen === this.#generation && this.#state === 'ready') this.#opts.onCatalog?.(this.name);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, onChanged('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, onChanged('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, onChanged('prompts'));
    client.fallbackNotificationHandler = async (n) => {
      if (gen === this.#generation) this.#opts.onNotification?.(this.name, { method: n.method, params: n.params as Record<string, unknown> | undefined });
    };
    return client;
  }

  /** Re-reads one catalog; overlapping refreshes of the same kind collapse into one more run. */
  #refresh(kind: CatalogKind, gen: number, strict = false): Promise<void> {
    const running = this.#refreshing.get(kind);
    if (running) {
      running.again = true;
      return running.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await this.#load(kind, gen, strict);
        } while (entry.again && gen === this.#generation);
      } finally {
        this.#refreshing.delete(kind);
      }
    })();
    this.#refreshing.set(kind, entry);
    return entry.done;
  }

  async #load(kind: CatalogKind, gen: number, strict: boolean): Promise<void> {
    const client = this.#client;
    const caps = this.#capabilities ?? {};
    if (!client) return;
    try {
      if (kind === 'tools') {
        const tools = caps.tools ? await listAll((cursor) => client.listTools({ cursor }), (r) => r.tools) : [];
        if (gen === this.#generation) this.#tools = tools;
      } else if (kind === 'resources') {
        const [resources, templates] = caps.resources
          ? await Promise.all([
              listAll((cursor) => client.listResources({ cursor }), (r) => r.resources),
              listAll((cursor) => client.listResourceTemplates({ cursor }), (r) => r.resourceTemplates).catch(() => [] as ResourceTemplate[]),
            ])
          : [[], []];
        if (gen === this.#generation) {
          this.#resources = resources;
          this.#templates = templates;
        }
      } else {
        const prompts = caps.prompts ? await listAll((cursor) => client.listPrompts({ cursor }), (r) => r.prompts) : [];
        if (gen === this.#generation) this.#prompts = prompts;
      }
    } catch (err) {
      if (strict) throw err;
      // A server that advertises resources or prompts but cannot list them still has usable tools.
      this.#log.note(`could not list ${kind}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

async function listAll<R extends { nextCursor?: string }, T>(page: (cursor: string | undefined) => Promise<R>, items: (r: R) => T[]): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  // A bound on pages keeps a server that always returns a cursor from looping forever.
  for (let i = 0; i < 1000; i++) {
    const r = await page(cursor);
    out.push(...items(r));
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}
