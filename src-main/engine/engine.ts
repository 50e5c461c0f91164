// The engine: owns every piece of state of one home and wires config, upstreams, gateways,
// records, the sandbox pool, the socket and the HTTP server together.
import path from 'node:path';
import { createRequire } from 'node:module';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SwitchboardConfig } from '../../src-shared/config/schema.ts';
import type { ProfileStatus, ServerStatus, StatusReport } from '../../src-shared/api.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';
import { ConfigStore } from './config/store.ts';
import { defaultConfig } from './config/default-config.ts';
import { acquireEngineLock, readOrCreateToken, removeEngineInfo, writeEngineInfo, type EngineInfo } from './engine-files.ts';
import { Supervisor } from './upstream/supervisor.ts';
import { AuditLog } from './records/audit-log.ts';
import { RunStore } from './records/run-store.ts';
import { SandboxPool } from './codemode/sandbox-pool.ts';
import { Gateway, type UpstreamAccess } from './gateway/gateway.ts';
import { CodeRunner } from './codemode/code-runner.ts';
import { ResultHandles } from './codemode/result-handles.ts';
import { LearnedTypes } from './codemode/learned-types.ts';
import { ApprovalCenter } from './codemode/approvals.ts';
import { SkillStore } from './codemode/skills.ts';
import { SocketServer } from './api/socket-server.ts';
import { ControlHandler } from './api/control-handlers.ts';
import { HttpServer } from './http/http-server.ts';
import { ensureHome, homePaths, type HomePaths } from './home.ts';
import { APP_ROOT } from './app-root.ts';
import { FileSecretStore, type SecretStore } from './secrets/secret-store.ts';
import { PinStore } from './trust/pins.ts';
import { tokenLikeValues } from './records/redact.ts';
import { clientLimitFields, clientLimitsReport } from './gateway/client-limits.ts';

const require = createRequire(import.meta.url);
export const VERSION: string = (require(path.join(APP_ROOT, 'package.json')) as { version: string }).version;

/** The port `serve` tries first; the next free one is taken when it is busy. */
export const DEFAULT_PORT = 47_821;

export interface EngineOptions {
  home: string;
  /** undefined: DEFAULT_PORT or the next free one; 0: any free port; null: no HTTP server. */
  port?: number | null;
  log?: (line: string) => void;
}

export class Engine {
  readonly paths: HomePaths;
  readonly token: string;
  readonly config: ConfigStore;
  readonly supervisor: Supervisor;
  readonly gateway: Gateway;
  readonly audit: AuditLog;
  readonly runs: RunStore;
  readonly sandbox: SandboxPool;
  readonly learned: LearnedTypes;
  readonly control: ControlHandler;
  readonly secrets: SecretStore;
  readonly pins: PinStore;
  readonly approvals: ApprovalCenter;
  readonly skills: SkillStore;
  socket!: SocketServer;
  http: HttpServer | null = null;
  readonly startedAt = new Date().toISOString();
  readonly #log: (line: string) => void;
  readonly #releaseLock: () => void;
  #disposed = false;
  #unsubscribe: (() => void)[] = [];

  private constructor(paths: HomePaths, parts: {
    token: string;
    config: ConfigStore;
    releaseLock: () => void;
    log: (line: string) => void;
  }) {
    this.paths = paths;
    this.token = parts.token;
    this.config = parts.config;
    this.#releaseLock = parts.releaseLock;
    this.#log = parts.log;
    this.audit = AuditLog.open(paths.auditDir, { deferWrites: true, onError: this.#recordLoss('audit log'), secrets: () => this.secretValues() });
    this.runs = RunStore.open(paths.runsDir, { deferWrites: true, onError: this.#recordLoss('run history'), secrets: () => this.secretValues() });
    this.pins = new PinStore(paths.pinsFile, { onError: (m) => this.#log(`tool pins: ${m}`) });
    this.sandbox = new SandboxPool({ warm: false });
    this.learned = new LearnedTypes(paths.learnedTypesFile, { onError: (m) => this.#log(`learned types: ${m}`) });
    this.secrets = new FileSecretStore(paths.secretsFile);
    this.approvals = new ApprovalCenter({ log: this.#log });
    this.skills = SkillStore.open(paths.skillsFile);
    if (this.skills.problem) this.#log(`skills: ${this.skills.problem}`);
    let gateway!: Gateway;
    this.supervisor = new Supervisor({
      logsDir: paths.logsDir,
      resolveSecret: (name) => this.secrets.get(name),
      secrets: this.secrets,
      secretValues: () => this.secretValues(),
      clientInfo: { name: 'switchboard', version: VERSION },
      onServerRequest: async (server, request, extra) =>
        (await gateway.serverRequest(server, request as ServerRequest, extra.signal, extra.calls)) as Record<string, unknown>,
      onNotification: (server, notification) => gateway.serverNotification(server, notification as ServerNotification),
    });
    const runner = new CodeRunner({
      sandbox: this.sandbox,
      runs: this.runs,
      log: this.#log,
      gateway: () => gateway,
      results: new ResultHandles(paths.resultsDir),
      learned: this.learned,
      approvals: this.approvals,
      skills: this.skills,
    });
    gateway = new Gateway({
      upstream: this.#upstreamAccess(),
      audit: (entry) => this.audit.append(entry),
      execute: async (view, session, code, signal, requestId, client) => {
        const { runId, ...result } = await runner.execute(view, { client: client ?? session.clientName, session, requestId }, code, signal);
        return { ...result, _meta: { 'switchboard/runId': runId } };
      },
      version: VERSION,
    });
    this.gateway = gateway;
    this.control = new ControlHandler(this, runner);
  }

  static async start(opts: EngineOptions): Promise<Engine> {
    const paths = homePaths(opts.home);
    ensureHome(paths);
    const log = opts.log ?? (() => {});
    const releaseLock = acquireEngineLock(paths.lock);
    try {
      const token = readOrCreateToken(paths.token);
      const config = await ConfigStore.open({
        file: paths.config,
        stateDir: paths.home,
        createDefault: () => defaultConfig({ home: paths.home, nodePath: process.execPath }),
        log,
      });
      const engine = new Engine(paths, { token, config, releaseLock, log });
      await engine.#startServing(opts.port);
      return engine;
    } catch (err) {
      releaseLock();
      throw err;
    }
  }

  async #startServing(port: number | null | undefined): Promise<void> {
    await this.learned.load();
    this.#applyConfig(this.config.config);
    this.#unsubscribe.push(this.config.onChange((cfg) => this.#applyConfig(cfg)));
    this.supervisor.on('catalog', (name) => this.gateway.catalogChanged(name));
    this.#unsubscribe.push(this.skills.onChange(() => this.gateway.skillsChanged()));
    this.socket = await SocketServer.listen(this.paths.socket, this.gateway, this.control);
    if (port !== null) this.http = await HttpServer.start({ engine: this, port: port ?? DEFAULT_PORT, fallbackToNext: port === undefined });
    const info: EngineInfo = {
      pid: process.pid,
      socket: this.paths.socket,
      http: this.http ? { url: this.http.url } : null,
      version: VERSION,
      startedAt: this.startedAt,
    };
    writeEngineInfo(this.paths.engineInfo, info);
    this.#log(`engine ${process.pid} serving ${this.paths.home}`);
  }

  #applyConfig(cfg: SwitchboardConfig): void {
    if (Object.values(cfg.profiles).some((p) => p.surface === 'code')) this.sandbox.warmUp();
    this.supervisor.apply(cfg.servers);
    this.gateway.applyConfig(cfg);
  }

  #upstreamAccess(): UpstreamAccess {
    const ready = (server: string) => {
      const u = this.supervisor.get(server);
      return u && u.state === 'ready' ? u : undefined;
    };
    return {
      // Tool pins (SPEC §3): a tool whose definition changed since it was pinned is withheld here,
      // the one place every surface reads tools from.
      tools: (s) => {
        const tools = ready(s)?.tools();
        return tools && this.pins.filter(s, tools);
      },
      learned: this.learned,
      resources: (s) => ready(s)?.resources(),
      resourceTemplates: (s) => ready(s)?.resourceTemplates(),
      prompts: (s) => ready(s)?.prompts(),
      skills: () => this.skills.list(),
      callTool: (s, params, opts) => {
        const u = this.supervisor.get(s);
        if (!u) throw new SwitchboardError('unknown-server', `There is no server "${s}".`);
        return u.callTool(params, opts);
      },
      // The pin check of the one call pipeline (gateway.ts), for every surface and path.
      withheld: (s, tool) =>
        this.pins.withheld(s, tool) ? `The tool "${tool}" of "${s}" changed since it was approved; approve it in the app or with \`switchboard approve ${s}\`.` : undefined,
      direct: (s) => this.supervisor.get(s)?.direct(),
      request: (s, method, params, opts) => {
        const u = this.supervisor.get(s);
        if (!u) throw new SwitchboardError('unknown-server', `There is no server "${s}".`);
        return u.request(method, params, opts);
      },
      settle: (servers, timeoutMs, signal) => this.supervisor.settle(servers, timeoutMs, signal),
      status: (s) => this.#serverStatus(s),
      restart: (s) => {
        const u = this.supervisor.get(s);
        if (!u) return;
        this.#log(`restarting ${s}: it holds roots of a client that no longer uses it alone`);
        void u.restart();
      },
      rootsChanged: (s) => this.supervisor.get(s)?.rootsChanged(),
      extensions: (s) => ready(s)?.serverCapabilities()?.extensions as Record<string, object> | undefined,
      unavailable: (s) => {
        const u = this.supervisor.get(s);
        if (!u) return `There is no server "${s}" in config.json.`;
        if (u.state === 'ready') return undefined;
        const st = u.status();
        const base =
          st.state === 'disabled'
            ? `The server "${s}" is disabled in config.json.`
            : st.state === 'needs-approval'
              ? `The server "${s}" waits for approval (switchboard approve ${s}).`
              : st.state === 'failed'
                ? `The server "${s}" failed to start.`
                : `The server "${s}" is ${st.state}; try again in a moment.`;
        return st.lastError ? `${base} ${st.lastError}` : base;
      },
    };
  }

  /** Values to redact from records and server logs: stored secrets and token-like plain env/header values. */
  secretValues(): string[] {
    // Asked for every record written: derived once per (secrets file, config) version.
    const stored = this.secrets.values();
    const config = this.config.config;
    const c = this.#secretValuesCache;
    if (c && c.stored === stored && c.config === config) return c.out;
    const out = [...stored];
    for (const cfg of Object.values(config.servers)) {
      const plain = (m: Record<string, unknown> | undefined) =>
        Object.fromEntries(Object.entries(m ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
      out.push(...tokenLikeValues(plain(cfg.env)), ...tokenLikeValues(plain(cfg.headers)));
    }
    this.#secretValuesCache = { stored, config, out };
    return out;
  }
  #secretValuesCache: { stored: string[]; config: SwitchboardConfig; out: string[] } | undefined;

  /** Trusts a server's changed tool definitions (SPEC §3) and shows the tools to clients again. */
  approveTools(server: string): string[] {
    const approved = this.pins.approve(server);
    this.gateway.catalogChanged(server);
    if (approved.length) this.#log(`approved changed tools of ${server}: ${approved.join(', ')}`);
    return approved;
  }

  readonly #recordLosses: NonNullable<StatusReport['recordLosses']> = [];

  /** A record store lost a write (disk full, read-only home): said once in the log and kept in status. */
  #recordLoss(store: string): (err: Error) => void {
    return (err) => {
      const message = `${store}: records are not being saved (${err.message}); calls and runs still answer.`;
      this.#log(message);
      const seen = this.#recordLosses.find((l) => l.store === store);
      if (seen) seen.count++;
      else this.#recordLosses.push({ store, message, since: new Date().toISOString(), count: 1 });
    };
  }

  /** A server's status with the tools withheld since their definitions changed (SPEC §3). */
  #serverStatus(name: string): ServerStatus | undefined {
    const st = this.supervisor.get(name)?.status();
    if (!st) return undefined;
    const changed = this.pins.changedTools(name);
    if (changed.length) st.changedTools = changed;
    return st;
  }

  status(): StatusReport {
    const servers: Record<string, ServerStatus> = {};
    for (const name of this.supervisor.names()) servers[name] = this.#serverStatus(name)!;
    const profiles: Record<string, ProfileStatus> = {};
    const limits = clientLimitsReport(this.gateway.sessions);
    for (const name of this.gateway.profileNames()) {
      const view = this.gateway.view(name)!;
      const p: ProfileStatus = {
        surface: view.surface,
        servers: [...view.servers],
        tools: view.exposedToolCount(),
        url: this.http ? `${this.http.url}/mcp/${encodeURIComponent(name)}` : null,
      };
      if (view.surface === 'code') {
        const cat = view.codeCatalog();
        p.inlineDeclarations = cat.inline;
        p.declarationChars = cat.declarationChars;
        p.budgets = view.budgets;
      }
      const warnings = limits.byProfile.get(name);
      if (warnings) p.warnings = warnings;
      profiles[name] = p;
    }
    const approvals = this.approvals.list();
    return {
      pid: process.pid,
      version: VERSION,
      home: this.paths.home,
      http: this.http ? { url: this.http.url, token: this.token } : null,
      servers,
      profiles,
      config: this.config.status,
      secrets: { store: this.secrets.kind },
      ...(this.#recordLosses.length ? { recordLosses: [...this.#recordLosses] } : {}),
      ...(approvals.length ? { approvals } : {}),
      clients: [...this.gateway.sessions].map((s) => ({
        id: s.id,
        name: s.clientName,
        profile: s.profile,
        transport: s.transportKind,
        since: s.since,
        ...clientLimitFields(limits.bySession.get(s)),
      })),
    };
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const u of this.#unsubscribe) u();
    this.approvals.dispose();
    await this.control.dispose();
    await this.http?.close();
    await this.socket?.close();
    await this.gateway.dispose();
    await this.sandbox.dispose();
    await this.learned.flush();
    await this.supervisor.dispose();
    this.config.dispose();
    this.audit.dispose();
    this.runs.dispose();
    removeEngineInfo(this.paths.engineInfo);
    this.#releaseLock();
  }
}
