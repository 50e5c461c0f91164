// A sandbox worker thread: runs one code-mode run at a time in QuickJS and asks the pool for
// everything else over its port. Started through sandbox-worker-bootstrap.mjs.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, HostReply, ToWorker, WorkerData } from './sandbox-protocol.ts';
import { SandboxRunner } from './sandbox-runner.ts';

const port = parentPort!;
const data = workerData as WorkerData;
const stopFlag = new Int32Array(data.stopFlag);
const runner = new SandboxRunner();

let current:
  | { runId: number; replies: Map<number, (r: HostReply) => void>; onStop: Set<() => void>; onHold?: (on: boolean) => void }
  | undefined;
let nextCallId = 0;
/** This thread's priority was lowered (a run kept the CPU busy): it stays so for the thread's life. */
let lowered = false;

function send(msg: FromWorker): void {
  port.postMessage(msg);
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'run') {
    void start(msg);
  } else if (current && msg.runId === current.runId) {
    if (msg.type === 'reply') {
      const resolve = current.replies.get(msg.callId);
      current.replies.delete(msg.callId);
      resolve?.(msg.reply);
    } else if (msg.type === 'hold') {
      current.onHold?.(msg.on);
    } else {
      for (const cb of [...current.onStop]) cb();
    }
  }
});

async function start(msg: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  const run: NonNullable<typeof current> = { runId: msg.runId, replies: new Map(), onStop: new Set() };
  current = run;
  const result = await runner.run(msg, {
    request(request) {
      const callId = ++nextCallId;
      return new Promise<HostReply>((resolve) => {
        run.replies.set(callId, resolve);
        send({ type: 'call', runId: run.runId, callId, request });
      });
    },
    log(line) {
      send({ type: 'log', runId: run.runId, line });
    },
    stopRequested: () => Atomics.load(stopFlag, 0) === run.runId,
    onStopRequest(cb) {
      run.onStop.add(cb);
      return () => run.onStop.delete(cb);
    },
    onHold(cb) {
      run.onHold = cb;
    },
    onBusy() {
      if (!lowered) lowered = lowerOwnPriority();
    },
  });
  current = undefined;
  // A kept result's bytes are moved to the engine, not copied (up to 8 MB).
  const bytes = result.ok ? result.keep?.bytes : undefined;
  const heapMb = getHeapStatistics().total_heap_size / (1024 * 1024);
  port.postMessage({ type: 'done', runId: msg.runId, result, heapMb } satisfies FromWorker, bytes ? [bytes.buffer as ArrayBuffer] : []);
  // The run's runtime is freed and the next run's readied now, with the answer on its way: not
  // left to a later turn of this thread's loop, which a busy machine delayed until the next run.
  runner.afterRun();
}

await runner.warm(data.warmMemoryMb);
send({ type: 'ready' });

/**
 * A runaway run must never slow the engine (docs/protocol.md). On Linux a thread has its own nice value:
 * lowering this worker's (no privilege needed) lets the engine's main thread, the shims and the
 * upstream servers win the CPU from a spinning `while (true) {}` until the deadline ends it.
 * It is lowered only once a run keeps the CPU busy (RunnerBridge.onBusy): a worker lowered from
 * the start waited behind every other process of a busy machine each time a tool call's answer
 * woke it, while it only ever runs for tens of microseconds at a time. Raising it back needs a
 * privilege, so a worker once lowered stays so (as every worker was before). True when lowered.
 */
function lowerOwnPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, 15);
    return true;
  } catch {
    // No /proc (or a sandbox that forbids it): run at normal priority.
    return false;
  }
}
