// Runs code-mode code in sandbox workers (worker_threads, one QuickJS run at a time each) and
// answers their tool calls through the engine's SandboxHost. Workers are kept warm so a run
// does not pay start-up; one that does not stop in time is terminated and replaced, which never
// harms the engine.
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { APP_ROOT, BUNDLED } from '../app-root.ts';
import { DEFAULT_BUDGETS, type ResolvedBudgets } from '../../../src-shared/config/budgets.ts';
import { normalizeCode } from '../../../src-shared/codemode/normalize-code.ts';
import type { RunOutcome } from '../../../src-shared/codemode/result-text.ts';
import type { LogLine, RunErrorKind } from '../../../src-shared/records.ts';
import type { KeptJson } from './result-handles.ts';
import type { FromWorker, HostReply, HostRequest, RunFailure, RunMessage, ToWorker, WorkerData, WorkerResult } from './sandbox-protocol.ts';

export interface SandboxRunRequest {
  code: string;
  budgets: ResolvedBudgets;
  /** Code global name → its method names, already sanitised (names.ts). */
  globals: Record<string, string[]>;
  /**
   * Whose run this is (the profile): the pool shares its workers fairly between shares, so one
   * profile's runaway runs cannot keep another's from starting.
   */
  share?: string;
  /** Install the `results` global. */
  results?: boolean;
  /** A skill's call: the value bound to `input` (SPEC §9). */
  input?: unknown;
  /** The outcome carries the whole value even when its text is cut (a skill's value goes back to its caller). */
  wholeValue?: boolean;
}

export interface SandboxHost {
  /**
   * One tool call from code; `signal` fires when the run ends before the call does. `hold`
   * stops the run's clock (its timeout) until the function it returns is called.
   */
  callTool(
    global: string,
    method: string,
    args: unknown,
    signal: AbortSignal,
    hold: () => () => void,
    /** UTF-8 bytes of the arguments as JSON, counted by the worker. */
    argBytes?: number,
  ): Promise<{ ok: true; value: unknown } | { ok: false; message: string }>;
  search(query: string, limit?: number): Promise<unknown>;
  describe(names: string[]): Promise<string>;
  /** `results.get` / `results.query` with the code's arguments; absent when the profile keeps no results. */
  results?(op: 'get' | 'query', args: unknown[]): Promise<unknown>;
}

/** A run's outcome; `keep` is a cut result's JSON to keep, for a run asked to keep results. */
export type SandboxOutcome = RunOutcome & { keep?: KeptJson };
/** An outcome before the pool adds the run's logs and call count. */
type RunEnd = DistributiveOmit<SandboxOutcome, 'logs' | 'calls'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface SandboxPoolOptions {
  /** Warm workers kept ready. Defaults to 1; busier engines start more on demand. */
  size?: number;
  /** Start the warm workers at construction. Defaults to true; see warmUp(). */
  warm?: boolean;
  /** Replace a worker after this many runs. Defaults to RECYCLE_AFTER_RUNS. */
  recycleAfterRuns?: number;
  /** Replace a worker whose V8 heap is above this many MB after a run. Defaults to RECYCLE_HEAP_MB. */
  recycleHeapMb?: number;
  /** Stop every idle worker after this long without runs, in ms. Defaults to REST_AFTER_MS. */
  restAfterMs?: number;
}

/**
 * How long a worker gets, past its deadline or a cancellation, to stop by itself before it is
 * terminated, in milliseconds. Covers compiling a module for an unusual memory cap.
 */
const STOP_GRACE_MS = 2000;
/** Workers at most; further runs wait for one (they are mostly waiting on tool calls, not CPU). */
export const MAX_WORKERS = 8;
/**
 * Workers one share may hold at most while others could use them: however many runs a profile
 * starts, two workers stay for other profiles.
 */
export const MAX_SHARE_WORKERS = MAX_WORKERS - 2;
/**
 * A share with no run going starts one at once, past MAX_WORKERS up to this many: each profile
 * always gets a run going, even when others fill the pool with runs that spin until their timeout.
 */
export const HARD_MAX_WORKERS = MAX_WORKERS + 4;
const DEFAULT_SHARE = '';
/** Idle workers kept at most, whatever the load was. */
const MAX_IDLE_WORKERS = 4;
/** How long a worker beyond the warm count may sit idle before it is stopped, in ms. */
const EXTRA_WORKER_IDLE_MS = 30_000;
// From the bundle the worker is plain JavaScript beside it; from source it needs tsx first.
const WORKER_URL = BUNDLED
  ? // In the packaged app the worker is unpacked beside app.asar, where Node's loader can read it.
    pathToFileURL(path.join(APP_ROOT, 'out', 'bundle', 'sandbox-worker.mjs').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1'))
  : new URL('./sandbox-worker-bootstrap.mjs', import.meta.url);
/** A safety net for the worker's own JS heap (QuickJS memory is capped separately, per run). */
const WORKER_HEAP_MB = 1024;
/**
 * The worker's young generation, in MB. V8 sizes it for throughput (tens of MB) and lets it
 * fill before collecting; a sandbox worker allocates little per run, so a small one keeps an
 * idle engine's memory down (measured: +37 MB over 2,000 runs with the default, flat with 4;
 * 1 saves 3 MB more of a settled engine, and the worker's live heap after a full GC stays at
 * ~4.5 MB from run 500 to 2,000, so it needs no more).
 */
const WORKER_YOUNG_MB = 1;

/**
 * A worker is replaced by a fresh one after this many runs, or once its V8 heap is above
 * RECYCLE_HEAP_MB after a run; the fresh one is started first, and the old one stops once it is
 * ready and free, so no run waits for it. What this bounds: a worker's live heap stays ~4.5 MB,
 * but V8 keeps the capacity a run needed (a run that built a large value leaves tens of MB) and
 * its compiled code and feedback grow slowly with the code it has seen; a fresh worker is back
 * at ~6 MB. The cost is one worker start (~50–300 ms of CPU on a low-priority thread, measured
 * here) per replacement, off the runs' path.
 */
export const RECYCLE_AFTER_RUNS = 2000;
export const RECYCLE_HEAP_MB = 48;
/**
 * After this long without runs the pool stops its warm workers too, and the next run starts one
 * (measured here: 50–300 ms more for that run, on a loaded 2-core machine). A warm worker is a
 * whole Node environment with its own V8 heap, thread and allocator arena: ~10 MB of the engine's
 * RSS. Runs come in bursts while a model works and stop between its turns, so the worker is kept
 * through a burst and given back between them.
 */
export const REST_AFTER_MS = 20_000;

interface ActiveRun {
  runId: number;
  onMessage(msg: FromWorker): void;
  onCrash(err: Error): void;
}

class PooledWorker {
  readonly worker: Worker;
  readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  readonly ready: Promise<void>;
  isReady = false;
  dead = false;
  run: ActiveRun | undefined;
  /** The share whose place in the pool this worker holds, from its run's start until it is free again. */
  share: string | undefined;
  /** Runs started in this worker. */
  runs = 0;
  /** Its V8 heap after its last run, in MB (the worker reports it). */
  heapMb = 0;
  /** The fresh worker starting to take this one's place (recycling). */
  successor: PooledWorker | undefined;

  constructor(onGone: (w: PooledWorker) => void) {
    const data: WorkerData = { stopFlag: this.stopFlag.buffer as SharedArrayBuffer, warmMemoryMb: DEFAULT_BUDGETS.memoryMb };
    this.worker = new Worker(WORKER_URL, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (msg: FromWorker) => {
        if (msg.type === 'ready') {
          this.isReady = true;
          resolve();
        } else if (this.run && 'runId' in msg && msg.runId === this.run.runId) {
          this.run.onMessage(msg);
        }
      });
      const gone = (err: Error): void => {
        reject(err);
        if (this.dead) return;
        this.dead = true;
        this.run?.onCrash(err);
        onGone(this);
      };
      this.worker.on('error', gone);
      this.worker.on('exit', (code) => gone(new Error(`the sandbox worker exited (code ${code})`)));
    });
    // A worker that fails to start is noticed by whoever awaits `ready`.
    this.ready.catch(() => {});
  }

  post(msg: ToWorker): void {
    if (!this.dead) this.worker.postMessage(msg);
  }

  kill(): void {
    if (this.dead) return;
    this.dead = true;
    void this.worker.terminate();
  }
}

function failure(kind: RunErrorKind, message: string, hint?: string): SandboxOutcome {
  return { ok: false, kind, message, ...(hint ? { hint } : {}), logs: [], calls: 0 };
}

interface Waiter {
  share: string;
  grant(w: PooledWorker): void;
  fail(outcome: SandboxOutcome): void;
}

interface HostJob {
  run(): void;
}

export class SandboxPool {
  readonly #size: number;
  readonly #recycleAfterRuns: number;
  readonly #recycleHeapMb: number;
  readonly #restAfterMs: number;
  #started = 0;
  /** When the pool last had no run going; its rest timer checks this. */
  #idleSince = Date.now();
  #restTimer: NodeJS.Timeout | undefined;
  /** Resting: warm workers stopped after a quiet spell; the next run starts one. */
  #resting = false;
  /** Workers not running anything (ready or still starting). */
  readonly #idle: PooledWorker[] = [];
  readonly #all = new Set<PooledWorker>();
  /** Places held per share (a run starting, running, or its worker still stopping). */
  readonly #running = new Map<string, number>();
  #busy = 0;
  /** Runs waiting for a place, oldest first; served fairly between shares (#pump). */
  readonly #waiters: Waiter[] = [];
  /** Catalog lookups waiting for the engine's thread, per run, served in turn (#scheduleHostTurn). */
  readonly #hostJobs = new Map<number, HostJob[]>();
  #hostTurnScheduled = false;
  #nextRunId = 0;
  #disposed = false;

  constructor(opts: SandboxPoolOptions = {}) {
    this.#size = Math.max(1, opts.size ?? 1);
    this.#recycleAfterRuns = opts.recycleAfterRuns ?? RECYCLE_AFTER_RUNS;
    this.#recycleHeapMb = opts.recycleHeapMb ?? RECYCLE_HEAP_MB;
    this.#restAfterMs = opts.restAfterMs ?? REST_AFTER_MS;
    if (opts.warm !== false) this.warmUp();
  }

  /**
   * Starts the warm workers now, so the first run does not pay a worker's start-up. The engine
   * calls it once some profile uses the code surface; until then the pool costs no memory.
   */
  warmUp(): void {
    if (this.#disposed) return;
    this.#resting = false;
    while (this.#all.size < this.#size) this.#idle.push(this.#spawn());
    if (this.#busy === 0) this.#armRest();
  }

  /** Workers alive (idle, starting or running). */
  get workers(): number {
    return this.#all.size;
  }

  /** Places held by runs (starting, running, or with a worker still stopping). */
  get busy(): number {
    return this.#busy;
  }

  /** Workers started since the pool was made (warm, on demand, replacements). */
  get started(): number {
    return this.#started;
  }

  #spawn(): PooledWorker {
    const w = new PooledWorker((gone) => this.#forget(gone));
    this.#all.add(w);
    this.#started++;
    return w;
  }

  /**
   * Starts a fresh worker to take `w`'s place; `w` stops as soon as the fresh one is ready and
   * `w` is free (at once if it is idle then, else when its run ends).
   */
  #recycle(w: PooledWorker): void {
    if (w.successor || this.#disposed) return;
    const fresh = this.#spawn();
    w.successor = fresh;
    this.#idle.push(fresh);
    void fresh.ready.then(
      () => {
        const i = this.#idle.indexOf(w);
        if (i >= 0) {
          this.#idle.splice(i, 1);
          this.#retire(w);
        }
      },
      // The fresh one failed to start (#forget dropped it): keep the old one, try again later.
      () => {
        w.successor = undefined;
      },
    );
  }

  /** Drops a dead worker, frees its place and keeps the warm count up. */
  #forget(w: PooledWorker): void {
    this.#all.delete(w);
    const i = this.#idle.indexOf(w);
    if (i >= 0) this.#idle.splice(i, 1);
    const share = w.share;
    w.share = undefined;
    if (share !== undefined) this.#free(share);
    if (!this.#disposed && !this.#resting && this.#idle.length < this.#size && this.#all.size < this.#size) this.#idle.push(this.#spawn());
  }

  /** From the moment no run is going: stops the idle workers after restAfterMs more without runs. */
  #armRest(): void {
    this.#idleSince = Date.now();
    if (this.#restTimer || this.#disposed) return;
    const check = (): void => {
      this.#restTimer = undefined;
      if (this.#disposed || this.#busy > 0 || this.#resting) return;
      const left = this.#idleSince + this.#restAfterMs - Date.now();
      if (left > 0) {
        this.#restTimer = setTimeout(check, left).unref();
        return;
      }
      this.#resting = true;
      for (const w of this.#idle.splice(0)) this.#retire(w);
    };
    this.#restTimer = setTimeout(check, this.#restAfterMs).unref();
  }

  #retire(w: PooledWorker): void {
    w.kill();
    this.#forget(w);
  }

  #canStart(share: string): boolean {
    const mine = this.#running.get(share) ?? 0;
    if (mine === 0) return this.#busy < HARD_MAX_WORKERS;
    return this.#busy < MAX_WORKERS && mine < MAX_SHARE_WORKERS;
  }

  /** Takes a place for `share` and a worker for it (ready first, else starting, else a new one). */
  #grant(share: string): PooledWorker {
    this.#resting = false;
    this.#running.set(share, (this.#running.get(share) ?? 0) + 1);
    this.#busy++;
    return this.#takeWorker();
  }

  #takeWorker(): PooledWorker {
    const readyIndex = this.#idle.findIndex((w) => w.isReady);
    if (readyIndex >= 0) return this.#idle.splice(readyIndex, 1)[0]!;
    return this.#idle.shift() ?? this.#spawn();
  }

  #free(share: string): void {
    const left = (this.#running.get(share) ?? 1) - 1;
    if (left > 0) this.#running.set(share, left);
    else this.#running.delete(share);
    this.#busy--;
    if (this.#busy === 0) this.#armRest();
    this.#pump();
  }

  /**
   * Starts waiting runs while places allow: the share with the fewest runs going first, the
   * oldest run within it, so a share that fills the pool gets the next place only when no
   * other share is waiting.
   */
  #pump(): void {
    if (this.#disposed) return;
    for (;;) {
      let pick = -1;
      let fewest = Infinity;
      for (let i = 0; i < this.#waiters.length; i++) {
        const share = this.#waiters[i]!.share;
        const mine = this.#running.get(share) ?? 0;
        if (mine < fewest && this.#canStart(share)) {
          pick = i;
          fewest = mine;
        }
      }
      if (pick < 0) return;
      const [waiter] = this.#waiters.splice(pick, 1);
      waiter!.grant(this.#grant(waiter!.share));
    }
  }

  /**
   * A ready worker holding a place for `share`, or why the run cannot have one: cancelled, or
   * still waiting at its deadline. A cancelled run leaves the queue at once.
   */
  async #acquire(share: string, signal: AbortSignal | undefined, deadline: number, timeoutMs: number): Promise<PooledWorker | SandboxOutcome> {
    const queuedAt = Date.now();
    let w: PooledWorker;
    if (this.#canStart(share)) {
      w = this.#grant(share);
    } else {
      const got = await new Promise<PooledWorker | SandboxOutcome>((resolve) => {
        const leave = (): void => {
          const i = this.#waiters.indexOf(waiter);
          if (i >= 0) this.#waiters.splice(i, 1);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const waiter: Waiter = {
          share,
          grant: (granted) => {
            leave();
            resolve(granted);
          },
          fail: (outcome) => {
            leave();
            resolve(outcome);
          },
        };
        const onAbort = (): void => waiter.fail(failure('aborted', 'the run was cancelled while it waited for a free sandbox'));
        const timer = setTimeout(
          () =>
            waiter.fail(
              failure(
                'timeout',
                `the run waited ${Date.now() - queuedAt} ms for a free sandbox and did not start within its ${timeoutMs} ms`,
                'Every sandbox is busy with other runs: run fewer at once, or raise budgets.timeoutMs for this profile.',
              ),
            ),
          Math.max(0, deadline - Date.now()),
        );
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#waiters.push(waiter);
      });
      if (!(got instanceof PooledWorker)) return got;
      w = got;
    }
    // The place is held from here; a worker that fails to start is replaced under it.
    for (;;) {
      try {
        await w.ready;
      } catch {
        // Dead before it was ready: take another below.
      }
      if (this.#disposed) {
        this.#free(share);
        return failure('aborted', 'the engine is shutting down');
      }
      if (!w.dead) break;
      w = this.#takeWorker();
    }
    w.share = share;
    if (signal?.aborted) {
      this.#release(w);
      return failure('aborted', 'the run was cancelled before it started');
    }
    return w;
  }

  #release(w: PooledWorker): void {
    const share = w.share;
    w.share = undefined;
    w.run = undefined;
    // Idle warm workers must not keep a short-lived process (such as `switchboard exec`) alive.
    w.worker.unref();
    if (!w.dead) {
      if (this.#disposed || w.successor?.isReady) this.#retire(w);
      else this.#idle.push(w);
    }
    // Back in the idle list first, so that a run waiting for this place takes this worker.
    if (share !== undefined) this.#free(share);
    if (w.dead || !this.#idle.includes(w)) return;
    if (w.runs >= this.#recycleAfterRuns || w.heapMb > this.#recycleHeapMb) {
      this.#recycle(w);
      return;
    }
    if (this.#idle.length > MAX_IDLE_WORKERS) {
      this.#idle.splice(this.#idle.indexOf(w), 1);
      this.#retire(w);
      return;
    }
    // Extra workers started under load stay warm a while (no start-up churn when runs keep
    // coming), then go, so an idle engine holds only its `size` warm workers.
    if (this.#idle.length > this.#size) {
      setTimeout(() => {
        const i = this.#idle.indexOf(w);
        if (i >= 0 && this.#idle.length > this.#size && !w.run) {
          this.#idle.splice(i, 1);
          this.#retire(w);
        }
      }, EXTRA_WORKER_IDLE_MS).unref();
    }
  }

  /**
   * Runs catalog lookups on the engine's thread one per turn of its event loop, taking runs in
   * turn: each lookup is bounded (catalog-limits.ts), and whatever number a run asks for at
   * once, the engine answers everything else between them.
   */
  #hostWork(runId: number, job: HostJob): void {
    let jobs = this.#hostJobs.get(runId);
    if (!jobs) this.#hostJobs.set(runId, (jobs = []));
    jobs.push(job);
    this.#scheduleHostTurn();
  }

  #scheduleHostTurn(): void {
    if (this.#hostTurnScheduled || this.#hostJobs.size === 0) return;
    this.#hostTurnScheduled = true;
    setImmediate(() => {
      this.#hostTurnScheduled = false;
      const [runId, jobs] = this.#hostJobs.entries().next().value as [number, HostJob[]];
      const job = jobs.shift()!;
      // The run goes to the back of the line for its next lookup.
      this.#hostJobs.delete(runId);
      if (jobs.length > 0) this.#hostJobs.set(runId, jobs);
      job.run();
      this.#scheduleHostTurn();
    });
  }

  async run(req: SandboxRunRequest, host: SandboxHost, signal?: AbortSignal): Promise<SandboxOutcome> {
    if (this.#disposed) return failure('aborted', 'the engine is shutting down');
    // The timeout runs from here: time spent waiting for a worker counts against it.
    const deadline = Date.now() + req.budgets.timeoutMs;
    const bytes = Buffer.byteLength(req.code, 'utf8');
    if (bytes > req.budgets.maxSourceBytes) {
      return failure(
        'budget',
        `the code is ${bytes} bytes, more than the ${req.budgets.maxSourceBytes} bytes allowed`,
        'Send shorter code, or raise budgets.maxSourceBytes for this profile.',
      );
    }
    const normalized = normalizeCode(req.code, req.input === undefined ? {} : { inputJson: JSON.stringify(req.input) });
    if (!normalized.ok) return failure('syntax', normalized.message);
    if (signal?.aborted) return failure('aborted', 'the run was cancelled before it started');

    const w = await this.#acquire(req.share ?? DEFAULT_SHARE, signal, deadline, req.budgets.timeoutMs);
    if (!(w instanceof PooledWorker)) return w;
    const msg: RunMessage = {
      type: 'run',
      runId: ++this.#nextRunId,
      forms: normalized.forms,
      likelyForm: normalized.likelyForm,
      fenceLanguage: normalized.fenceLanguage,
      budgets: req.budgets,
      globals: req.globals,
      deadline,
      ...(req.results ? { results: true } : {}),
      ...(req.wholeValue ? { wholeValue: true } : {}),
    };
    return this.#start(w, msg, host, signal);
  }

  #start(w: PooledWorker, msg: RunMessage, host: SandboxHost, signal: AbortSignal | undefined): Promise<SandboxOutcome> {
    const { runId, budgets } = msg;
    const logs: LogLine[] = [];
    // One signal for all the run's calls (they are cancelled together, when the run ends), made
    // at the first call; aborted only when some are still unanswered.
    let ended: AbortController | undefined;
    let unanswered = 0;
    const endedSignal = (): AbortSignal => {
      if (!ended) setMaxListeners(0, (ended = new AbortController()).signal);
      return ended.signal;
    };
    let calls = 0;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    return new Promise<SandboxOutcome>((resolve) => {
      const finish = (outcome: RunEnd): void => {
        if (settled) return;
        settled = true;
        clearTimeout(watchdog);
        signal?.removeEventListener('abort', onAbort);
        // Calls still pending when the run ends are cancelled (seed, "The sandbox").
        if (unanswered > 0) ended?.abort(new Error('the run ended'));
        resolve({ ...outcome, logs, calls } as SandboxOutcome);
      };

      /** Asks the worker to stop; if it cannot within the grace period, it is terminated. */
      const stopWorker = (): void => {
        Atomics.store(w.stopFlag, 0, runId);
        w.post({ type: 'stop', runId });
        drainTimer ??= setTimeout(() => {
          if (w.run?.runId === runId) this.#retire(w);
        }, STOP_GRACE_MS);
      };

      const onAbort = (): void => {
        finish({ ok: false, kind: 'aborted', message: 'the run was cancelled' });
        stopWorker();
      };

      // The worker enforces timeoutMs itself; this catches a worker stuck where QuickJS cannot
      // interrupt it.
      const onWatchdog = (): void => {
        finish({
          ok: false,
          kind: 'timeout',
          message: `the run took longer than ${budgets.timeoutMs} ms`,
          hint: 'Do less per run, or raise budgets.timeoutMs for this profile.',
        });
        this.#retire(w);
      };
      let watchdogAt = msg.deadline + STOP_GRACE_MS;
      let watchdog = setTimeout(onWatchdog, Math.max(0, watchdogAt - Date.now()));

      // Held (a call waits for approval): neither this watchdog nor the worker's deadline runs.
      let holds = 0;
      let heldAt = 0;
      const hold = (): (() => void) => {
        if (holds++ === 0 && !settled) {
          clearTimeout(watchdog);
          heldAt = Date.now();
          w.post({ type: 'hold', runId, on: true });
        }
        let released = false;
        return () => {
          if (released) return;
          released = true;
          if (--holds === 0 && !settled) {
            watchdogAt += Date.now() - heldAt;
            watchdog = setTimeout(onWatchdog, Math.max(0, watchdogAt - Date.now()));
            w.post({ type: 'hold', runId, on: false });
          }
        };
      };

      const answer = (callId: number, request: HostRequest): void => {
        const signal = endedSignal();
        unanswered++;
        const reply = (r: HostReply): void => {
          unanswered--;
          if (!settled && w.run?.runId === runId) w.post({ type: 'reply', runId, callId, reply: r });
        };
        if (request.kind === 'tool') {
          calls++;
          void perform(host, request, signal, hold).then(reply);
          return;
        }
        this.#hostWork(runId, {
          // A lookup still queued when its run ends is dropped unanswered.
          run: () => {
            if (!signal.aborted) void perform(host, request, signal, hold).then(reply);
          },
        });
      };

      w.run = {
        runId,
        onMessage: (m) => {
          if (m.type === 'log') {
            if (!settled) logs.push(m.line);
          } else if (m.type === 'call') {
            if (!settled) answer(m.callId, m.request);
          } else if (m.type === 'done') {
            clearTimeout(drainTimer);
            if (m.heapMb !== undefined) w.heapMb = m.heapMb;
            finish(fromWorker(m.result));
            if (m.result.poisoned) {
              this.#retire(w);
            } else {
              this.#release(w);
            }
          }
        },
        onCrash: (err) => {
          clearTimeout(drainTimer);
          const outOfMemory = /memory/i.test(err.message);
          finish({
            ok: false,
            kind: outOfMemory ? 'memory' : 'runtime',
            message: outOfMemory ? 'the sandbox ran out of memory' : `the sandbox stopped unexpectedly: ${err.message}`,
          });
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      w.runs++;
      w.worker.ref();
      w.post(msg);
    });
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#restTimer);
    for (const waiter of this.#waiters.splice(0)) waiter.fail(failure('aborted', 'the engine is shutting down'));
    this.#hostJobs.clear();
    const all = [...this.#all];
    this.#idle.length = 0;
    this.#all.clear();
    for (const w of all) w.run?.onCrash(new Error('the engine is shutting down'));
    await Promise.all(all.map((w) => (w.dead ? undefined : ((w.dead = true), w.worker.terminate()))));
  }
}

/**
 * The outcome of a run as the worker reported it. Only a result that fits maxResultChars is
 * parsed here (the worker sends its JSON only then): a bigger one stays the text the worker made.
 */
function fromWorker(r: WorkerResult): RunEnd {
  if (!r.ok) {
    const { ok, kind, message, line, column, hint } = r;
    return { ok, kind, message, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}), ...(hint ? { hint } : {}) };
  }
  if (r.text === undefined) return { ok: true, value: undefined, returnedUndefined: true };
  return { ok: true, returnedUndefined: false, text: r.text, ...(r.json !== undefined ? { value: JSON.parse(r.json) } : {}), ...(r.keep ? { keep: r.keep } : {}) };
}

function toJson(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

async function perform(host: SandboxHost, request: HostRequest, signal: AbortSignal, hold: () => () => void): Promise<HostReply> {
  try {
    switch (request.kind) {
      case 'tool': {
        let args: unknown;
        try {
          args = JSON.parse(request.argsJson);
        } catch {
          return { ok: false, message: 'the arguments are not valid JSON' };
        }
        const r = await host.callTool(request.global, request.method, args, signal, hold, request.argsBytes);
        return r.ok ? { ok: true, json: toJson(r.value) } : { ok: false, message: r.message };
      }
      case 'search':
        return { ok: true, json: toJson(await host.search(request.query, request.limit)) };
      case 'describe':
        return { ok: true, json: toJson(await host.describe(request.names)) };
      case 'results': {
        let args: unknown;
        try {
          args = JSON.parse(request.argsJson);
        } catch {
          return { ok: false, message: 'the arguments are not valid JSON' };
        }
        if (!host.results || !Array.isArray(args)) return { ok: false, message: 'results are not kept in this profile' };
        return { ok: true, json: toJson(await host.results(request.op, args)) };
      }
    }
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
