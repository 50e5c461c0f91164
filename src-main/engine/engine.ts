// The engine: owns every piece of state of one home and wires them together, in dependency
// order, each part given what it needs when it is made. What each part does lives in its file.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { StatusReport } from '../../src-shared/api.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';
import { ConfigStore } from './config/store.ts';
import { defaultConfig } from './config/default-config.ts';
import { acquireEngineLock, EngineRunningError, readEngineInfo, readOrCreateToken, removeEngineInfo, writeEngineInfo } from './engine-files.ts';
import { HandOver } from './handover/hand-over.ts';
import { askToHandOver } from './handover/take-over.ts';
import { GroupLedger } from './upstream/group-ledger.ts';
import { Supervisor } from './upstream/supervisor.ts';
import { AuditLog } from './records/audit-log.ts';
import { RunStore } from './records/run-store.ts';
import { RecordLosses } from './records/record-losses.ts';
import { SandboxPool } from './codemode/sandbox-pool.ts';
import { Gateway, type UpstreamAccess } from './gateway/gateway.ts';
import { recordCatalogs, serverStatus, upstreamAccess } from './gateway/upstream-access.ts';
import { CodeRunner } from './codemode/code-runner.ts';
import { ResultHandles } from './codemode/result-handles.ts';
import { LearnedTypes } from './codemode/learned-types.ts';
import { ApprovalCenter } from './codemode/approvals.ts';
import { SkillStore } from './codemode/skills.ts';
import { SocketServer } from './api/socket-server.ts';
import { ControlHandler, type ControlEngine } from './api/control-handlers.ts';
import { HttpServer } from './http/http-server.ts';
import { ensureHome, homePaths, type HomePaths } from './platform/home.ts';
import { BootAnswers } from './gateway/boot-answers.ts';
import { seedDemoCatalogs } from './trust/demo-pins.ts';
import { APP_ROOT } from './platform/app-root.ts';
import { FileSecretStore, type SecretStore } from './secrets/secret-store.ts';
import { secretValuesOf } from './secrets/secret-values.ts';
import { PinStore } from './trust/pins.ts';
import { statusReport } from './status-report.ts';
import { bundleUpkeep } from './catalog/bundle-store.ts';

const require = createRequire(import.meta.url);
/**
 * The app's version. SWITCHBOARD_TEST_VERSION replaces it, for tests only (an older or newer
 * engine taking over, tests/engine/handover/); nothing else reads it.
 */
export const VERSION: string = process.env.SWITCHBOARD_TEST_VERSION || (require(path.join(APP_ROOT, 'package.json')) as { version: string }).version;

/** How long a take-over waits for the old engine's lock once it said yes, in ms: its drain (2 min) and its stop. */
const TAKE_OVER_LOCK_WAIT_MS = 150_000;

/** The port `serve` tries first; the next free one is taken when it is busy. */
export const DEFAULT_PORT = 47_821;

export interface EngineOptions {
  home: string;
  /** undefined: DEFAULT_PORT or the next free one; 0: any free port; null: no HTTP server. */
  port?: number | null;
  log?: (line: string) => void;
  /** Aborting it stops a start under way: what the start made is stopped and start() throws. */
  signal?: AbortSignal;
  /**
   * When an engine serves the home, ask it to hand the home over instead of failing (`engine
   * --take-over`): start() resolves once this engine serves the home alone. With none running it
   * is an ordinary start. Throws TakeOverRefusedError when the running engine is newer.
   */
  takeOver?: boolean;
  /** Called once this engine has handed its home over to another and stopped: its process should exit. */
  onHandedOver?: () => void;
}

export class Engine implements ControlEngine {
  readonly startedAt = new Date().toISOString();
  readonly #log: (line: string) => void;
  readonly #losses: RecordLosses;
  readonly #releaseLock: () => void;
  /** The upstream servers with trust applied, as every surface sees them. */
  readonly #upstream: UpstreamAccess;
  readonly secrets: SecretStore;
  readonly secretValues: () => string[];
  readonly audit: AuditLog;
  readonly runs: RunStore;
  readonly pins: PinStore;
  readonly sandbox = new SandboxPool({ warm: false });
  readonly learned: LearnedTypes;
  readonly approvals: ApprovalCenter;
  readonly skills: SkillStore;
  readonly bootAnswers: BootAnswers;
  readonly supervisor: Supervisor;
  /** Where the servers' process groups are written down while they run (upstream/group-ledger.ts). */
  readonly groups: GroupLedger;
  readonly gateway: Gateway;
  readonly control: ControlHandler;
  readonly socket: SocketServer;
  readonly http: HttpServer | null;
  readonly handOver: HandOver;
  readonly version = VERSION;
  #unsubscribe: (() => void)[] = [];
  #disposed: Promise<void> | undefined;

  private constructor(
    readonly paths: HomePaths,
    readonly token: string,
    readonly config: ConfigStore,
    releaseLock: () => void,
    log: (line: string) => void,
    serveHttp: boolean,
    /** Taking the home over: listen on this socket until the old engine moves it onto the home's, and start no server yet. */
    takeOverSocket?: string,
    onHandedOver: () => void = () => {},
  ) {
    this.#log = log;
    this.#releaseLock = releaseLock;
    this.#losses = new RecordLosses(log);
    this.secrets = new FileSecretStore(paths.secretsFile);
    this.secretValues = secretValuesOf(this.secrets, () => config.config);
    const records = (store: string) => ({ deferWrites: true, onError: this.#losses.reporter(store), secrets: this.secretValues });
    this.audit = AuditLog.open(paths.auditDir, records('audit log'));
    this.runs = RunStore.open(paths.runsDir, records('run history'));
    this.pins = new PinStore(paths.pinsFile, { onError: (m) => log(`tool pins: ${m}`) });
    this.learned = new LearnedTypes(paths.learnedTypesFile, { onError: (m) => log(`learned types: ${m}`) });
    this.approvals = new ApprovalCenter({ log });
    this.skills = SkillStore.open(paths.skillsFile);
    this.bootAnswers = new BootAnswers({ dir: BootAnswers.dirOf(paths.runDir), configFile: paths.config, log });
    if (this.skills.problem) log(`skills: ${this.skills.problem}`);
    // Servers ask clients things (sampling, elicitation) and the gateway routes them; the gateway
    // calls servers. The handlers below run only once apply() started a server, after `gateway` exists.
    this.groups = new GroupLedger(path.join(paths.runDir, 'groups'));
    const supervisor: Supervisor = new Supervisor({
      logsDir: paths.logsDir,
      launchersDir: path.join(paths.runDir, 'node-bin'),
      resolveSecret: (name) => this.secrets.get(name),
      secrets: this.secrets,
      secretValues: this.secretValues,
      clientInfo: { name: 'switchboard', version: VERSION },
      onServerRequest: async (server, request, extra) =>
        (await gateway.serverRequest(server, request as ServerRequest, extra.signal, extra)) as Record<string, unknown>,
      onNotification: (server, notification) => gateway.serverNotification(server, notification as ServerNotification),
      holdStarts: takeOverSocket !== undefined,
      groups: this.groups,
    });
    const runner = new CodeRunner({
      sandbox: this.sandbox, runs: this.runs, log, gateway: () => gateway, results: new ResultHandles(paths.resultsDir),
      learned: this.learned, approvals: this.approvals, skills: this.skills,
    });
    this.#upstream = upstreamAccess({ supervisor, pins: this.pins, learned: this.learned, skills: () => this.skills.list(), log });
    const gateway: Gateway = new Gateway({
      upstream: this.#upstream,
      audit: (entry) => this.audit.append(entry),
      execute: async (view, session, code, signal, requestId, client, onProgress) => {
        const { runId, ...result } = await runner.execute(view, { client: client ?? session.clientName, session, requestId, ...(onProgress ? { onProgress } : {}) }, code, signal);
        return { ...result, _meta: { 'switchboard/runId': runId } };
      },
      version: VERSION,
      bootAnswers: this.bootAnswers,
    });
    this.supervisor = supervisor;
    // The bench's side-by-side of the tools/call fast path and the SDK path (bench/index.ts --sdk-path).
    if (process.env.SWITCHBOARD_SDK_PATH === '1') gateway.knobs.fastPath = false;
    this.gateway = gateway;
    this.control = new ControlHandler(this, runner);
    this.handOver = new HandOver(this, onHandedOver);
    this.socket = new SocketServer(takeOverSocket ?? paths.socket, { gateway, control: this.control, takeOver: (hello, sock) => this.handOver.accept(hello, sock) });
    this.http = serveHttp ? new HttpServer({ token, control: this.control, gateway }) : null;
  }

  /**
   * Stops the servers an engine killed outright left running (their process groups written down
   * in run/groups/) before this one starts its own: a server must not run twice at once (two
   * writers of its data). This engine holds the lock, so no other one serves the home; with
   * nothing left behind this is one folder listing.
   */
  async #stopLeftServers(): Promise<void> {
    const stopped = await this.groups.sweep().catch(() => [] as string[]);
    if (stopped.length) this.#log(`stopped ${stopped.length} server${stopped.length === 1 ? '' : 's'} an engine that was killed had left running: ${stopped.join('; ')}`);
  }

  static async start(opts: EngineOptions): Promise<Engine> {
    // Checked after each step that waits: a start stopped midway must not go on to start servers.
    const stopped = () => {
      if (opts.signal?.aborted) throw new SwitchboardError('cancelled', 'The engine was stopped while it was starting.');
    };
    stopped();
    const paths = homePaths(opts.home);
    ensureHome(paths);
    const log = opts.log ?? (() => {});
    let releaseLock: () => void;
    try {
      releaseLock = acquireEngineLock(paths.lock);
    } catch (err) {
      if (!(opts.takeOver && err instanceof EngineRunningError)) throw err;
      return Engine.#takeOver(paths, opts, log, stopped);
    }
    let engine: Engine | undefined;
    try {
      const token = readOrCreateToken(paths.token);
      let firstRun = false;
      const createDefault = () => {
        firstRun = true;
        return defaultConfig({ home: paths.home, nodePath: process.execPath });
      };
      const config = await ConfigStore.open({ file: paths.config, stateDir: paths.home, createDefault, log });
      engine = new Engine(paths, token, config, releaseLock, log, opts.port !== null, undefined, opts.onHandedOver);
      await engine.#stopLeftServers();
      stopped();
      // The demo's servers are known: their shipped catalogs answer the first lists while they start.
      if (firstRun) await seedDemoCatalogs(engine.pins, config.config.servers);
      await engine.#serve(opts.port, stopped);
      stopped();
      return engine;
    } catch (err) {
      if (engine) await engine.dispose().catch(() => {});
      else releaseLock();
      throw err;
    }
  }

  /**
   * Takes the home over from the engine serving it (docs/updates.md): made and listening on a
   * socket and port of its own first, then asks; once the old engine said yes, new shim
   * connections reach this one (the socket was moved) and new HTTP connections are piped here.
   * It binds the port the moment the old one frees it, and starts its servers only once the old
   * one has stopped its own and released the lock: a server never runs twice at once.
   */
  static async #takeOver(paths: HomePaths, opts: EngineOptions, log: (line: string) => void, stopped: () => void): Promise<Engine> {
    const lock = { release: () => {} };
    let engine: Engine | undefined;
    try {
      const token = readOrCreateToken(paths.token);
      const config = await ConfigStore.open({ file: paths.config, stateDir: paths.home, log });
      // Beside the home's socket (same owner-only folder), short so that it fits wherever that one does.
      const ownSocket = path.join(path.dirname(paths.socket), `t${process.pid.toString(36)}.s`);
      engine = new Engine(paths, token, config, () => lock.release(), log, opts.port !== null, ownSocket, opts.onHandedOver);
      stopped();
      await engine.#prepare();
      stopped();
      const oldInfo = readEngineInfo(paths.engineInfo);
      const oldPort = oldInfo?.http ? Number(new URL(oldInfo.http.url).port) : undefined;
      const http = engine.http;
      if (http) {
        await http.listen({ port: 0, fallbackToNext: false });
        if (oldPort) http.acceptPort(oldPort);
      }
      await engine.socket.listen();
      stopped();
      const talk = await askToHandOver(paths.socket, { version: VERSION, pid: process.pid, socket: ownSocket, httpPort: http?.port ?? null });
      engine.socket.adoptPath(paths.socket);
      log(`taking this home over from engine ${talk.from.pid} (${talk.from.version})`);
      // It answers the socket from now on (status included), at the old engine's address.
      engine.#announce(true);
      const aborted = new Promise<void>((r) => opts.signal?.addEventListener('abort', () => r(), { once: true }));
      await Promise.race([talk.httpReleased, aborted]);
      stopped();
      // The old engine's port whatever --port says: HTTP clients and the UI's page hold that address.
      if (http) await http.takePort(oldPort ?? opts.port ?? DEFAULT_PORT);
      // The old engine releases the lock once its servers are stopped (or it died: the lock is reclaimed).
      const until = Date.now() + TAKE_OVER_LOCK_WAIT_MS;
      for (;;) {
        stopped();
        try {
          lock.release = acquireEngineLock(paths.lock);
          break;
        } catch (err) {
          if (!(err instanceof EngineRunningError) || Date.now() > until) throw err;
          await sleep(20);
        }
      }
      talk.close();
      await engine.#stopLeftServers();
      // Saves made on the old engine after this one read config.json.
      await config.reload();
      engine.supervisor.startHeld();
      stopped();
      engine.#announce();
      log(`took this home over from engine ${talk.from.pid}`);
      return engine;
    } catch (err) {
      if (engine) await engine.dispose().catch(() => {});
      else lock.release();
      throw err;
    }
  }

  async #serve(port: number | null | undefined, stopped: () => void): Promise<void> {
    await this.#prepare();
    stopped();
    await this.http?.listen({ port: port ?? DEFAULT_PORT, fallbackToNext: port === undefined });
    stopped();
    await this.socket.listen();
    stopped();
    this.#announce();
  }

  /** engine.json: this engine serves the home (`takingOver`: its socket already, its port soon). */
  #announce(takingOver = false): void {
    const http = this.http ? { url: this.http.url } : null;
    writeEngineInfo(this.paths.engineInfo, { pid: process.pid, socket: this.paths.socket, http, version: VERSION, startedAt: this.startedAt });
    if (!takingOver) this.#log(`engine ${process.pid} serving ${this.paths.home}`);
  }

  /** Loads what the engine keeps and applies the config (servers start, unless held for a take-over). */
  async #prepare(): Promise<void> {
    await this.learned.load();
    const apply = () => {
      const cfg = this.config.config;
      // The sandbox's worker starts once the servers have (a code run waits for them anyway):
      // at boot it would take the CPU the first answers need.
      this.supervisor.apply(cfg.servers);
      if (Object.values(cfg.profiles).some((p) => p.surface === 'code')) void this.supervisor.settle(Object.keys(cfg.servers)).then(() => this.sandbox.warmUp());
      this.gateway.applyConfig(cfg);
      // A proposed bundle approved by hand is unpacked (its servers restarted, since they may have
      // started without it); folders no entry names any more, and a killed install's leftovers, go.
      void bundleUpkeep(this.paths.home, cfg.servers).then(
        (names) => {
          for (const name of names) void this.supervisor.get(name)?.restart().catch(() => undefined);
        },
        (err: Error) => this.#log(`bundles: ${err.message}`),
      );
    };
    recordCatalogs(this.supervisor, this.pins, (name) => this.#upstream.tools(name), (name, toolsChanged) => this.gateway.catalogChanged(name, toolsChanged));
    apply();
    this.#unsubscribe.push(this.config.onChange(apply), this.skills.onChange(() => this.gateway.skillsChanged()));
  }

  log(line: string): void {
    this.#log(line);
  }

  status(): StatusReport {
    return statusReport({
      version: VERSION, home: this.paths.home, token: this.token, httpUrl: this.http?.listening ? this.http.url : null,
      servers: () => this.supervisor.names(), server: (name) => serverStatus(this, name),
      gateway: this.gateway, config: this.config, secrets: this.secrets, recordLosses: this.#losses, approvals: this.approvals,
    });
  }

  /** Trusts a server's changed tool definitions (docs/configuration.md) and shows the tools to clients again. */
  approveTools(server: string): string[] {
    const approved = this.pins.approve(server);
    // Its boot catalog shows the approved tools from now on.
    const u = this.supervisor.get(server);
    if (u?.state === 'ready') this.pins.record(server, u.tools());
    this.gateway.catalogChanged(server);
    if (approved.length) this.#log(`approved changed tools of ${server}: ${approved.join(', ')}`);
    return approved;
  }

  /** Stops everything; a second call waits for the first. */
  dispose(): Promise<void> {
    this.#disposed ??= this.#dispose();
    return this.#disposed;
  }

  async #dispose(): Promise<void> {
    for (const u of this.#unsubscribe) u();
    this.approvals.dispose();
    await this.control.dispose();
    await this.http?.close();
    await this.socket.close();
    await this.gateway.dispose();
    await this.bootAnswers.dispose();
    await this.sandbox.dispose();
    await this.learned.flush();
    await this.supervisor.dispose();
    // A save under way is finished before the lock goes (an engine taking over reads it next).
    await this.config.settled();
    this.config.dispose();
    this.audit.dispose();
    this.runs.dispose();
    // Handed over: engine.json is the next engine's to write.
    if (!this.handOver.started) removeEngineInfo(this.paths.engineInfo);
    this.#releaseLock();
  }
}
