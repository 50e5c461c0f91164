// One run in one sandbox thread, seen from the engine: answers the run's tool calls and lookups
// through the host, collects its logs, stops its clock while a call waits for approval, and
// ends it exactly once — with the worker's outcome, at a cancellation, at the watchdog's
// deadline, or when the thread dies. Everything it holds (timers, listeners, the calls' signal)
// is let go in that one ending.
import { setMaxListeners } from 'node:events';
import type { LogLine } from '../../../src-shared/records.ts';
import type { HostTurns } from './host-turns.ts';
import type { SandboxHost, SandboxOutcome } from './sandbox-host.ts';
import type { FromWorker, HostReply, HostRequest, RunMessage, WorkerResult } from './sandbox-protocol.ts';
import type { SandboxThread, ThreadGone } from './sandbox-thread.ts';

/**
 * How long a worker gets, past its deadline or a cancellation, to stop by itself before it is
 * terminated, in milliseconds. Covers compiling a module for an unusual memory cap.
 */
export const STOP_GRACE_MS = 2000;

/** An outcome before the supervisor adds the run's logs and call count. */
type RunEnd = DistributiveOmit<SandboxOutcome, 'logs' | 'calls'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What the supervisor asks of the pool once the run is over. */
export interface RunEnding {
  /** The thread finished the run and may serve another. */
  release(thread: SandboxThread): void;
  /** The thread cannot be trusted or did not stop: terminate it (and replace it). */
  retire(thread: SandboxThread): void;
}

export class RunSupervisor {
  readonly #thread: SandboxThread;
  readonly #msg: RunMessage;
  readonly #host: SandboxHost;
  readonly #signal: AbortSignal | undefined;
  readonly #turns: HostTurns;
  readonly #ending: RunEnding;
  readonly #logs: LogLine[] = [];
  #calls = 0;
  /** One signal for all the run's calls (cancelled together as the run ends), made at the first call. */
  #ended: AbortController | undefined;
  #unanswered = 0;
  #settled = false;
  #resolve: ((o: SandboxOutcome) => void) | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #watchdogAt: number;
  #drainTimer: NodeJS.Timeout | undefined;
  /** Held (a call waits for approval): neither the watchdog nor the worker's deadline runs. */
  #holds = 0;
  #heldAt = 0;
  readonly #onAbort = (): void => {
    this.#finish({ ok: false, kind: 'aborted', message: 'the run was cancelled' });
    this.#stopWorker();
  };

  constructor(thread: SandboxThread, msg: RunMessage, host: SandboxHost, signal: AbortSignal | undefined, turns: HostTurns, ending: RunEnding) {
    this.#thread = thread;
    this.#msg = msg;
    this.#host = host;
    this.#signal = signal;
    this.#turns = turns;
    this.#ending = ending;
    this.#watchdogAt = msg.deadline + STOP_GRACE_MS;
  }

  /** Hands the run to its thread; settles with its outcome. */
  start(): Promise<SandboxOutcome> {
    const t = this.#thread;
    return new Promise<SandboxOutcome>((resolve) => {
      this.#resolve = resolve;
      this.#armWatchdog();
      t.run = {
        runId: this.#msg.runId,
        onMessage: (m) => this.#onMessage(m),
        onGone: (why) => this.#onGone(why),
      };
      this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
      t.runs++;
      t.keepProcessAlive(true);
      t.post(this.#msg);
    });
  }

  #onMessage(m: FromWorker): void {
    if (m.type === 'log') {
      if (!this.#settled) this.#logs.push(m.line);
    } else if (m.type === 'call') {
      if (!this.#settled) this.#answer(m.callId, m.request);
    } else if (m.type === 'done') {
      clearTimeout(this.#drainTimer);
      if (m.heapMb !== undefined) this.#thread.heapMb = m.heapMb;
      this.#finish(fromWorker(m.result));
      if (m.result.poisoned) this.#ending.retire(this.#thread);
      else this.#ending.release(this.#thread);
    }
  }

  #onGone(why: ThreadGone): void {
    clearTimeout(this.#drainTimer);
    if (why.reason === 'out-of-memory') this.#finish({ ok: false, kind: 'memory', message: 'the sandbox ran out of memory' });
    else if (why.reason === 'stopped') this.#finish({ ok: false, kind: 'aborted', message: 'the engine is shutting down' });
    else {
      const detail = why.reason === 'exited' ? `the sandbox worker exited (code ${why.code})` : why.message;
      this.#finish({ ok: false, kind: 'runtime', message: `the sandbox stopped unexpectedly: ${detail}` });
    }
  }

  /** The run's one ending: its outcome goes out, and everything it held is let go. */
  #finish(outcome: RunEnd): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#watchdog);
    this.#signal?.removeEventListener('abort', this.#onAbort);
    // Calls still pending when the run ends are cancelled (docs/code-mode.md, "The sandbox").
    if (this.#unanswered > 0) this.#ended?.abort(new Error('the run ended'));
    this.#resolve!({ ...outcome, logs: this.#logs, calls: this.#calls } as SandboxOutcome);
  }

  /** Asks the worker to stop; if it cannot within the grace period, it is terminated. */
  #stopWorker(): void {
    const { runId } = this.#msg;
    this.#thread.requestStop(runId);
    this.#drainTimer ??= setTimeout(() => {
      if (this.#thread.run?.runId === runId) this.#ending.retire(this.#thread);
    }, STOP_GRACE_MS);
  }

  // The worker enforces timeoutMs itself; the watchdog catches a worker stuck where QuickJS
  // cannot interrupt it.
  #armWatchdog(): void {
    this.#watchdog = setTimeout(() => {
      this.#finish({
        ok: false,
        kind: 'timeout',
        message: `the run took longer than ${this.#msg.budgets.timeoutMs} ms`,
        hint: 'Do less per run, or raise budgets.timeoutMs for this profile.',
      });
      this.#ending.retire(this.#thread);
    }, Math.max(0, this.#watchdogAt - Date.now()));
  }

  /** Stops the run's clock until the function returned is called. */
  readonly #hold = (): (() => void) => {
    const { runId } = this.#msg;
    if (this.#holds++ === 0 && !this.#settled) {
      clearTimeout(this.#watchdog);
      this.#heldAt = Date.now();
      this.#thread.post({ type: 'hold', runId, on: true });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds === 0 && !this.#settled) {
        this.#watchdogAt += Date.now() - this.#heldAt;
        this.#armWatchdog();
        this.#thread.post({ type: 'hold', runId, on: false });
      }
    };
  };

  #callsSignal(): AbortSignal {
    if (!this.#ended) setMaxListeners(0, (this.#ended = new AbortController()).signal);
    return this.#ended.signal;
  }

  #answer(callId: number, request: HostRequest): void {
    const signal = this.#callsSignal();
    const { runId } = this.#msg;
    this.#unanswered++;
    const reply = (r: HostReply): void => {
      this.#unanswered--;
      if (!this.#settled && this.#thread.run?.runId === runId) this.#thread.post({ type: 'reply', runId, callId, reply: r });
    };
    if (request.kind === 'tool') {
      this.#calls++;
      void perform(this.#host, request, signal, this.#hold).then(reply);
      return;
    }
    // A lookup still queued when its run ends is dropped unanswered.
    this.#turns.add(runId, () => {
      if (!signal.aborted) void perform(this.#host, request, signal, this.#hold).then(reply);
    });
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

const NOT_JSON = Symbol('not JSON');

function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return NOT_JSON;
  }
}

/** One request from code, answered by the host; whatever it throws becomes the call's error. */
async function perform(host: SandboxHost, request: HostRequest, signal: AbortSignal, hold: () => () => void): Promise<HostReply> {
  try {
    switch (request.kind) {
      case 'tool': {
        const args = parseArgs(request.argsJson);
        if (args === NOT_JSON) return { ok: false, message: 'the arguments are not valid JSON' };
        const r = await host.callTool(request.global, request.method, args, signal, hold, request.argsBytes, request.argsJson);
        return r.ok ? { ok: true, json: toJson(r.value) } : { ok: false, message: r.message };
      }
      case 'search':
        return { ok: true, json: toJson(await host.search(request.query, request.limit)) };
      case 'describe':
        return { ok: true, json: toJson(await host.describe(request.names)) };
      case 'results': {
        const args = parseArgs(request.argsJson);
        if (args === NOT_JSON) return { ok: false, message: 'the arguments are not valid JSON' };
        if (!host.results || !Array.isArray(args)) return { ok: false, message: 'results are not kept in this profile' };
        return { ok: true, json: toJson(await host.results(request.op, args)) };
      }
    }
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
