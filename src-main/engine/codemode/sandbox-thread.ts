// One sandbox worker thread as the pool sees it: started with its resource limits, ready once
// its QuickJS module is compiled, running at most one run at a time, and gone — by a crash,
// an exit or dispose() — exactly once, with a typed reason.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { APP_ROOT, BUNDLED } from '../platform/app-root.ts';
import { DEFAULT_BUDGETS } from '../../../src-shared/config/budgets.ts';
import type { FromWorker, ToWorker, WorkerData } from './sandbox-protocol.ts';

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

/** Why a thread is gone. */
export type ThreadGone =
  /** Its V8 heap reached WORKER_HEAP_MB (Node's ERR_WORKER_OUT_OF_MEMORY). */
  | { reason: 'out-of-memory' }
  | { reason: 'failed'; message: string }
  | { reason: 'exited'; code: number }
  /** The pool stopped it (dispose()). */
  | { reason: 'stopped' };

/** The run a thread is serving: it gets the run's messages and the thread's end. */
export interface ThreadRun {
  runId: number;
  onMessage(msg: FromWorker): void;
  onGone(why: ThreadGone): void;
}

export class SandboxThread {
  readonly #worker: Worker;
  readonly #stopFlag = new Int32Array(new SharedArrayBuffer(4));
  readonly ready: Promise<void>;
  isReady = false;
  dead = false;
  run: ThreadRun | undefined;
  /** The share whose place in the pool this thread holds, from its run's start until it is free again. */
  share: string | undefined;
  /** Runs started in this thread. */
  runs = 0;
  /** Its V8 heap after its last run, in MB (the worker reports it). */
  heapMb = 0;
  /** The fresh thread starting to take this one's place (recycling). */
  successor: SandboxThread | undefined;

  constructor(onGone: (t: SandboxThread) => void) {
    const data: WorkerData = { stopFlag: this.#stopFlag.buffer as SharedArrayBuffer, warmMemoryMb: DEFAULT_BUDGETS.memoryMb };
    this.#worker = new Worker(WORKER_URL, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    this.#worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (msg: FromWorker) => {
        if (msg.type === 'ready') {
          this.isReady = true;
          resolve();
        } else if (this.run && msg.runId === this.run.runId) {
          this.run.onMessage(msg);
        }
      });
      const gone = (why: ThreadGone): void => {
        reject(new Error(`the sandbox worker is gone (${why.reason})`));
        if (this.dead) return;
        this.dead = true;
        this.run?.onGone(why);
        onGone(this);
      };
      this.#worker.on('error', (err: Error & { code?: string }) =>
        gone(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { reason: 'out-of-memory' } : { reason: 'failed', message: err.message }),
      );
      this.#worker.on('exit', (code) => gone({ reason: 'exited', code }));
    });
    // A thread that fails to start is noticed by whoever awaits `ready`.
    this.ready.catch(() => {});
  }

  post(msg: ToWorker, transfer?: ArrayBuffer[]): void {
    if (!this.dead) this.#worker.postMessage(msg, transfer);
  }

  /** Asks run `runId` to stop: through the shared flag too, as code spinning in QuickJS never reads its port. */
  requestStop(runId: number): void {
    Atomics.store(this.#stopFlag, 0, runId);
    this.post({ type: 'stop', runId });
  }

  /** While it runs, the thread keeps the process alive; idle, it must not (a short-lived `switchboard exec`). */
  keepProcessAlive(on: boolean): void {
    if (on) this.#worker.ref();
    else this.#worker.unref();
  }

  /** Terminates the thread; the run it serves, if any, is told it is gone (`stopped`). */
  dispose(): Promise<void> {
    if (this.dead) return Promise.resolve();
    this.dead = true;
    const run = this.run;
    this.run = undefined;
    run?.onGone({ reason: 'stopped' });
    return this.#worker.terminate().then(() => undefined);
  }
}
