// Runs code-mode code in sandbox workers (worker_threads, one QuickJS run at a time each) and
// answers their tool calls through the engine's SandboxHost. The parts: places shared fairly
// between profiles (fair-queue.ts), a worker thread's life (sandbox-thread.ts), one run seen from
// the engine (run-supervisor.ts) and lookups taking turns (host-turns.ts). This file keeps the
// workers: warm while runs come, replaced after many runs or a large heap, stopped when quiet.
import type { ResolvedBudgets } from '../../../src-shared/config/budgets.ts';
import { normalizeCode } from '../../../src-shared/codemode/normalize-code.ts';
import type { RunErrorKind } from '../../../src-shared/records.ts';
import { FairQueue, type QueueRefusal } from './fair-queue.ts';
import { HostTurns } from './host-turns.ts';
import { RunSupervisor } from './run-supervisor.ts';
import type { RunMessage } from './sandbox-protocol.ts';
import { SandboxThread } from './sandbox-thread.ts';

export { HARD_MAX_WORKERS, MAX_SHARE_WORKERS, MAX_WORKERS } from './fair-queue.ts';

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
  /** A skill's call: the value bound to `input` (docs/code-mode.md). */
  input?: unknown;
  /** The outcome carries the whole value even when its text is cut (a skill's value goes back to its caller). */
  wholeValue?: boolean;
}

export type { SandboxHost, SandboxOutcome } from './sandbox-host.ts';
import type { SandboxHost, SandboxOutcome } from './sandbox-host.ts';

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

const DEFAULT_SHARE = '';
/** Idle workers kept at most, whatever the load was. */
const MAX_IDLE_WORKERS = 4;
/** How long a worker beyond the warm count may sit idle before it is stopped, in ms. */
const EXTRA_WORKER_IDLE_MS = 30_000;

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

function failure(kind: RunErrorKind, message: string, hint?: string): SandboxOutcome {
  return { ok: false, kind, message, ...(hint ? { hint } : {}), logs: [], calls: 0 };
}

function refusalOutcome(r: QueueRefusal, timeoutMs: number): SandboxOutcome {
  if (r.refused === 'closed') return failure('aborted', 'the engine is shutting down');
  if (r.refused === 'cancelled') return failure('aborted', 'the run was cancelled while it waited for a free sandbox');
  return failure(
    'timeout',
    `the run waited ${r.waitedMs} ms for a free sandbox and did not start within its ${timeoutMs} ms`,
    'Every sandbox is busy with other runs: run fewer at once, or raise budgets.timeoutMs for this profile.',
  );
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
  readonly #idle: SandboxThread[] = [];
  readonly #all = new Set<SandboxThread>();
  readonly #queue = new FairQueue<SandboxThread>({
    take: () => {
      this.#resting = false;
      return this.#takeWorker();
    },
    onEmpty: () => this.#armRest(),
  });
  readonly #turns = new HostTurns();
  readonly #ending = { release: (t: SandboxThread) => this.#release(t), retire: (t: SandboxThread) => this.#retire(t) };
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
    if (this.#queue.busy === 0) this.#armRest();
  }

  /** Workers alive (idle, starting or running). */
  get workers(): number {
    return this.#all.size;
  }

  /** Places held by runs (starting, running, or with a worker still stopping). */
  get busy(): number {
    return this.#queue.busy;
  }

  /** Workers started since the pool was made (warm, on demand, replacements). */
  get started(): number {
    return this.#started;
  }

  #spawn(): SandboxThread {
    const w = new SandboxThread((gone) => this.#forget(gone));
    this.#all.add(w);
    this.#started++;
    return w;
  }

  /**
   * Starts a fresh worker to take `w`'s place; `w` stops as soon as the fresh one is ready and
   * `w` is free (at once if it is idle then, else when its run ends).
   */
  #recycle(w: SandboxThread): void {
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
  #forget(w: SandboxThread): void {
    this.#all.delete(w);
    const i = this.#idle.indexOf(w);
    if (i >= 0) this.#idle.splice(i, 1);
    const share = w.share;
    w.share = undefined;
    if (share !== undefined) this.#queue.free(share);
    if (!this.#disposed && !this.#resting && this.#idle.length < this.#size && this.#all.size < this.#size) this.#idle.push(this.#spawn());
  }

  /** From the moment no run is going: stops the idle workers after restAfterMs more without runs. */
  #armRest(): void {
    this.#idleSince = Date.now();
    if (this.#restTimer || this.#disposed) return;
    const check = (): void => {
      this.#restTimer = undefined;
      if (this.#disposed || this.#queue.busy > 0 || this.#resting) return;
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

  #retire(w: SandboxThread): void {
    void w.dispose();
    this.#forget(w);
  }

  /** A worker for a place just given: ready first, else starting, else a new one. */
  #takeWorker(): SandboxThread {
    const readyIndex = this.#idle.findIndex((w) => w.isReady);
    if (readyIndex >= 0) return this.#idle.splice(readyIndex, 1)[0]!;
    return this.#idle.shift() ?? this.#spawn();
  }

  /**
   * A ready worker holding a place for `share`, or why the run cannot have one: cancelled, or
   * still waiting at its deadline. A cancelled run leaves the queue at once.
   */
  async #acquire(share: string, signal: AbortSignal | undefined, deadline: number, timeoutMs: number): Promise<SandboxThread | SandboxOutcome> {
    const got = await this.#queue.acquire(share, signal, deadline);
    if (!(got instanceof SandboxThread)) return refusalOutcome(got, timeoutMs);
    let w = got;
    // The place is held from here; a worker that fails to start is replaced under it.
    for (;;) {
      try {
        await w.ready;
      } catch {
        // Dead before it was ready: take another below.
      }
      if (this.#disposed) {
        this.#queue.free(share);
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

  #release(w: SandboxThread): void {
    const share = w.share;
    w.share = undefined;
    w.run = undefined;
    w.keepProcessAlive(false);
    if (!w.dead) {
      if (this.#disposed || w.successor?.isReady) this.#retire(w);
      else this.#idle.push(w);
    }
    // Back in the idle list first, so that a run waiting for this place takes this worker.
    if (share !== undefined) this.#queue.free(share);
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
    if (!(w instanceof SandboxThread)) return w;
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
    return new RunSupervisor(w, msg, host, signal, this.#turns, this.#ending).start();
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#restTimer);
    this.#queue.close();
    this.#turns.clear();
    const all = [...this.#all];
    this.#idle.length = 0;
    this.#all.clear();
    // Each run still going ends as aborted (the engine is shutting down).
    await Promise.all(all.map((w) => w.dispose()));
  }
}
