// Keeps one engine process alive: restarts it after a crash with exponential backoff, and stops
// trying once disposed. The process is spawned through an injected function (a detached process
// or utilityProcess.fork in the app, detached-engine.ts; a fake in tests).
import { backoffDelay, failuresInARow, RESTART_BACKOFF } from '../../src-shared/backoff.ts';

/** The part of Electron's UtilityProcess the supervisor and the RPC use. */
export interface EngineProcess {
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  postMessage(message: object): void;
  kill(): boolean;
  /**
   * Asks the process to outlive the app (a detached engine, detached-engine.ts); throws when it
   * will not. A process without it (a utilityProcess) ends with the app whatever is done.
   */
  release?(): Promise<void>;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export interface BackoffOptions {
  /** First restart delay, in ms. Defaults to 500. */
  initialMs?: number;
  /** Longest delay between restarts, in ms. Defaults to 30000. */
  maxMs?: number;
  /** A process that ran this long (ms) counts as healthy and resets the backoff. Defaults to 30000 (RESTART_BACKOFF). */
  healthyAfterMs?: number;
  /** Wait this long (ms) for an exit after kill() on dispose. Defaults to 5000. */
  stopGraceMs?: number;
}

export type EngineState =
  | { kind: 'running'; since: number }
  | { kind: 'waiting'; restartInMs: number; lastExitCode: number; crashes: number }
  | { kind: 'stopped' };

export interface EngineSupervisor {
  start(): void;
  /**
   * The person asked for the engine now (the app's "Start it again now"): a restart waiting out
   * its backoff happens at once; a running engine that stopped answering is killed and started
   * again without backoff.
   */
  restartNow(): void;
  readonly process: EngineProcess | null;
  readonly state: EngineState;
  /**
   * Lets the engine go without stopping it (the restart to an update: the new version's engine
   * takes over from it, docs/updates.md): first asks it to outlive the app (EngineProcess.release;
   * a refusal rejects and changes nothing), then no longer restarts it, and dispose() no longer
   * kills it.
   */
  release(): Promise<void>;
  dispose(): Promise<void>;
}

export interface SupervisorOptions {
  spawn: () => EngineProcess;
  timers?: Timers;
  backoff?: BackoffOptions;
  onstate?: (state: EngineState) => void;
  onprocess?: (proc: EngineProcess) => void;
}

export function createEngineSupervisor(opts: SupervisorOptions): EngineSupervisor {
  const timers = opts.timers ?? realTimers;
  const b = { initialMs: RESTART_BACKOFF.initialMs, maxMs: RESTART_BACKOFF.maxMs, healthyAfterMs: RESTART_BACKOFF.stableAfterMs, stopGraceMs: 5000, ...opts.backoff };
  const policy = { initialMs: b.initialMs, maxMs: b.maxMs, stableAfterMs: b.healthyAfterMs };
  let proc: EngineProcess | null = null;
  let state: EngineState = { kind: 'stopped' };
  let crashes = 0;
  let timer: unknown;
  let disposed = false;
  let exited: (() => void) | null = null;
  /** The next exit is one restartNow() asked for: relaunch at once. */
  let asked = false;

  const setState = (s: EngineState) => {
    state = s;
    opts.onstate?.(s);
  };

  function launch() {
    timer = undefined;
    if (disposed) return;
    const started = timers.now();
    const p = opts.spawn();
    proc = p;
    p.on('exit', (code) => {
      if (proc !== p) return;
      proc = null;
      exited?.();
      if (disposed) return;
      if (asked) {
        asked = false;
        launch();
        return;
      }
      crashes = failuresInARow(policy, crashes, timers.now() - started);
      const delay = backoffDelay(policy, crashes);
      setState({ kind: 'waiting', restartInMs: delay, lastExitCode: code, crashes });
      timer = timers.setTimeout(launch, delay);
    });
    setState({ kind: 'running', since: started });
    opts.onprocess?.(p);
  }

  return {
    start() {
      if (disposed || proc || timer !== undefined) return;
      launch();
    },
    restartNow() {
      if (disposed) return;
      if (timer !== undefined) {
        timers.clearTimeout(timer);
        launch();
      } else if (proc) {
        asked = true;
        proc.kill();
      } else {
        launch();
      }
    },
    get process() {
      return proc;
    },
    get state() {
      return state;
    },
    release() {
      const letGo = () => {
        disposed = true;
        if (timer !== undefined) timers.clearTimeout(timer);
        timer = undefined;
        proc = null;
      };
      const asking = proc?.release?.();
      if (!asking) {
        letGo();
        return Promise.resolve();
      }
      return asking.then(letGo);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      const p = proc;
      if (p) {
        await new Promise<void>((resolve) => {
          const grace = timers.setTimeout(resolve, b.stopGraceMs);
          exited = () => {
            timers.clearTimeout(grace);
            resolve();
          };
          p.kill();
        });
      }
      proc = null;
      setState({ kind: 'stopped' });
    },
  };
}
