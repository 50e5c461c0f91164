// One code-mode run in a prepared QuickJS runtime: picks the code form that compiles, drives the
// job loop against the clock and the budgets, carries host calls over the bridge and reads the
// outcome out of QuickJS. What the outcome means is decided in run-failure.ts and run-output.ts.
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { MAX_DESCRIBE_NAMES, MAX_QUERY_CHARS, queryTooLongMessage, tooManyNamesMessage } from '../../../src-shared/codemode/catalog-limits.ts';
import { jsonDeeperThan, tooDeepMessage } from '../../../src-shared/codemode/json-depth.ts';
import { MAX_RESULTS_ARGS_CHARS } from '../../../src-shared/codemode/result-pages.ts';
import { RunClock } from './run-clock.ts';
import {
  cancelledFailure,
  catalogBudgetFailure,
  closesWrapperFailure,
  failureFrom,
  neverSettlesFailure,
  syntaxFailure,
  timeoutFailure,
  toolBudgetFailure,
  type Described,
} from './run-failure.ts';
import { LogCap, resultFor } from './run-output.ts';
import type { CappedModule } from './sandbox-module.ts';
import type { HostReply, HostRequest, RunFailure, RunMessage, RunnerBridge, WorkerResult, WorkerValue } from './sandbox-protocol.ts';
import { MAX_CATALOG_CALLS } from './sandbox-setup.ts';
import type { Prepared } from './sandbox-spare.ts';

const FILENAME = 'code.js';
/**
 * Code that runs this long without awaiting anything is busy computing, or spinning: the worker
 * is told (RunnerBridge.onBusy) and lowers its thread's priority.
 */
export const BUSY_MS = 100;

export class Run {
  readonly runtime: QuickJSRuntime;
  readonly ctx: QuickJSContext;
  calls = 0;
  #catalogCalls = 0;
  #nextCallId = 0;
  readonly #pending = new Map<number, QuickJSDeferredPromise>();
  readonly #clock: RunClock;
  #fatal: RunFailure | undefined;
  /** When the code last started running without a pause (evaluation, pending jobs, the result's JSON). */
  #sliceStartedAt: number | undefined;
  #busyNoted = false;
  /** Wakes the run at its deadline: one timer per run (re-armed when a hold ends), not one per wait. */
  #deadlineTimer: NodeJS.Timeout | undefined;
  #unsubscribeStop: (() => void) | undefined;
  #finished = false;
  #wake: (() => void) | undefined;
  readonly #logs = new LogCap();
  #toJson: QuickJSHandle | undefined;
  #form = 0;

  readonly #prepared: Prepared;

  constructor(
    readonly capped: CappedModule,
    readonly msg: RunMessage,
    readonly bridge: RunnerBridge,
    prepared: Prepared,
  ) {
    this.#clock = new RunClock(msg.deadline);
    this.#prepared = prepared;
    this.runtime = prepared.runtime;
    this.ctx = prepared.ctx;
    prepared.target = {
      hostCall: (args) => this.#hostCall(args),
      log: (level, text) => {
        for (const line of this.#logs.take(level, text)) this.bridge.log(line);
      },
      interrupt: () => {
        this.#noteBusy();
        return this.#stopReason() !== undefined;
      },
    };
    bridge.onHold?.((on) => {
      if (this.#clock.hold(on)) {
        this.#armDeadline();
        this.#wake?.();
      } else if (this.#clock.held) {
        // While the clock is held only a reply, a stop or the clock going on again wakes the run.
        clearTimeout(this.#deadlineTimer);
        this.#deadlineTimer = undefined;
      }
    });
  }

  /** Tells the bridge, once, that the code has run BUSY_MS without pausing. */
  #noteBusy(): void {
    if (this.#busyNoted || this.#sliceStartedAt === undefined || Date.now() - this.#sliceStartedAt < BUSY_MS) return;
    this.#busyNoted = true;
    this.bridge.onBusy?.();
  }

  /** (Re)arms the deadline timer, unless the clock is held (no deadline then). */
  #armDeadline(): void {
    clearTimeout(this.#deadlineTimer);
    const left = this.#clock.msLeft();
    this.#deadlineTimer = left !== undefined ? setTimeout(() => this.#wake?.(), left + 1) : undefined;
  }

  #stopReason(): RunFailure | undefined {
    if (this.#fatal) return this.#fatal;
    if (this.bridge.stopRequested()) return cancelledFailure();
    if (this.#clock.pastDeadline()) return timeoutFailure(this.msg.budgets.timeoutMs);
    return undefined;
  }

  async execute(): Promise<WorkerResult> {
    const r = await this.#execute();
    return { ...r, calls: this.calls };
  }

  async #execute(): Promise<WorkerValue | RunFailure> {
    const setupFailure = this.#setup();
    if (setupFailure) return setupFailure;
    const started = this.#evaluate();
    if ('ok' in started) return started;
    const promise = started.handle;
    this.#unsubscribeStop = this.bridge.onStopRequest(() => this.#wake?.());
    this.#armDeadline();
    try {
      for (;;) {
        const stop = this.#stopReason();
        if (stop) return stop;
        this.#clock.jobStarted();
        this.#sliceStartedAt = Date.now();
        const jobs = this.runtime.executePendingJobs();
        this.#sliceStartedAt = undefined;
        this.#clock.jobEnded();
        if (jobs.error) {
          const failure = this.#failureFrom(jobs.error);
          jobs.error.dispose();
          return this.#stopReason() ?? failure;
        }
        // A refused call (budget) may have ended the run without any bytecode left to interrupt.
        const stopped = this.#stopReason();
        if (stopped) return stopped;
        const state = this.ctx.getPromiseState(promise);
        if (state.type === 'fulfilled') {
          try {
            return this.#toResult(state.value);
          } finally {
            state.value.dispose();
          }
        }
        if (state.type === 'rejected') {
          const failure = this.#failureFrom(state.error);
          state.error.dispose();
          return this.#stopReason() ?? failure;
        }
        if (this.#pending.size === 0 && !this.runtime.hasPendingJob()) return neverSettlesFailure();
        await this.#nextEvent();
      }
    } finally {
      clearTimeout(this.#deadlineTimer);
      this.#deadlineTimer = undefined;
      this.#unsubscribeStop?.();
      this.#wake = undefined;
      promise.dispose();
    }
  }

  /** Waits for a host reply, a stop request or the deadline (#armDeadline), whichever comes first. */
  #nextEvent(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }

  #setup(): RunFailure | undefined {
    this.#toJson = this.#prepared.toJson;
    this.#prepared.toJson = undefined;
    return this.#prepared.failure;
  }

  /**
   * Compiles the forms without running them and runs the first that compiles, with its probe
   * (see CodeForm.probe); user code runs up to its first await here. Nothing runs before the
   * choice is made, so a failed form never leaves effects behind, and an error thrown while
   * running, a SyntaxError from JSON.parse included, is the run's outcome.
   */
  #evaluate(): { handle: QuickJSHandle } | RunFailure {
    const { forms, likelyForm } = this.msg;
    let reported: RunFailure | undefined;
    let brokeOut = false;
    for (let i = 0; i < forms.length; i++) {
      this.#form = i;
      const syntax = this.#compiles(forms[i]!.source);
      if (syntax === 'stopped') return this.#stopReason()!;
      if (syntax !== undefined) {
        if (syntax.name !== 'SyntaxError') return this.#failureFromDescription(syntax);
        if (i === likelyForm || reported === undefined) reported = syntaxFailure(syntax, forms[i]!, this.msg.fenceLanguage);
        continue;
      }
      const probe = this.#compiles(forms[i]!.probe);
      if (probe === 'stopped') return this.#stopReason()!;
      if (probe !== undefined) {
        brokeOut = true;
        continue;
      }
      this.#sliceStartedAt = Date.now();
      const r = this.ctx.evalCode(forms[i]!.source, FILENAME);
      this.#sliceStartedAt = undefined;
      if (!r.error) return { handle: r.value };
      const d = this.#describe(r.error);
      r.error.dispose();
      return this.#stopReason() ?? this.#failureFromDescription(d);
    }
    if (brokeOut) return closesWrapperFailure();
    return reported!;
  }

  /** Compiles `source` without running it: undefined when it compiles, else why not. */
  #compiles(source: string): Described | 'stopped' | undefined {
    const r = this.ctx.evalCode(source, FILENAME, { compileOnly: true });
    if (!r.error) {
      r.value.dispose();
      return undefined;
    }
    const d = this.#describe(r.error);
    r.error.dispose();
    return this.#stopReason() ? 'stopped' : d;
  }

  #hostCall(args: QuickJSHandle[]): QuickJSHandle | undefined {
    const [kind, a, b, c] = args.map((h) => this.#string(h));
    let request: HostRequest;
    if (kind === 'tool') {
      const argsJson = c ?? '{}';
      // Refused here, before it counts or crosses: the engine must never walk such a value.
      if (jsonDeeperThan(argsJson)) return this.#rejected(tooDeepMessage(`the arguments of ${a}.${b} are`));
      this.calls++;
      if (this.calls > this.msg.budgets.maxToolCalls) {
        this.#fatal = toolBudgetFailure(this.msg.budgets.maxToolCalls);
        this.calls--;
        return this.#neverSettling();
      }
      request = { kind: 'tool', global: a ?? '', method: b ?? '', argsJson, argsBytes: Buffer.byteLength(argsJson) };
    } else {
      if (++this.#catalogCalls > MAX_CATALOG_CALLS) {
        this.#fatal = catalogBudgetFailure(MAX_CATALOG_CALLS, kind);
        return this.#neverSettling();
      }
      if (kind === 'results') {
        const argsJson = b ?? '[]';
        if (argsJson.length > MAX_RESULTS_ARGS_CHARS) return this.#rejected(`results.${a} takes a handle and a short path or { offset, limit }, not ${argsJson.length} characters of arguments`);
        request = { kind: 'results', op: a === 'query' ? 'query' : 'get', argsJson };
      } else if (kind === 'search') {
        const query = a ?? '';
        // The engine refuses these too; refusing here keeps the text from crossing at all.
        if (query.length > MAX_QUERY_CHARS) return this.#rejected(queryTooLongMessage(query.length));
        const limit = b === undefined ? undefined : Number(b);
        request = { kind: 'search', query, ...(limit !== undefined && Number.isFinite(limit) ? { limit } : {}) };
      } else {
        let names: string[] = [];
        try {
          const parsed: unknown = JSON.parse(a ?? '[]');
          if (Array.isArray(parsed)) names = parsed.map(String);
        } catch {
          // Malformed names describe nothing.
        }
        if (names.length > MAX_DESCRIBE_NAMES) return this.#rejected(tooManyNamesMessage(names.length));
        request = { kind: 'describe', names };
      }
    }
    const deferred = this.ctx.newPromise();
    const id = ++this.#nextCallId;
    this.#pending.set(id, deferred);
    this.bridge.request(request).then(
      (reply) => this.#settle(id, reply),
      (err: unknown) => this.#settle(id, { ok: false, message: err instanceof Error ? err.message : String(err) }),
    );
    return deferred.handle;
  }

  /** A promise already rejected with `message`, for a request refused without asking the engine. */
  #rejected(message: string): QuickJSHandle {
    const deferred = this.ctx.newPromise();
    const err = this.ctx.newError(message);
    deferred.reject(err);
    err.dispose();
    const handle = deferred.handle.dup();
    deferred.dispose();
    return handle;
  }

  /** The promise a refused call returns: the run is already ending, so it is never settled. */
  #neverSettling(): QuickJSHandle {
    const deferred = this.ctx.newPromise();
    this.#pending.set(++this.#nextCallId, deferred);
    return deferred.handle;
  }

  #settle(id: number, reply: HostReply): void {
    const deferred = this.#pending.get(id);
    if (this.#finished || !deferred) return;
    this.#pending.delete(id);
    if (reply.ok) {
      const value = reply.json === undefined ? undefined : this.ctx.newString(reply.json);
      deferred.resolve(value ?? this.ctx.undefined);
      value?.dispose();
    } else {
      const err = this.ctx.newError(reply.message);
      deferred.reject(err);
      err.dispose();
    }
    deferred.dispose();
    this.#wake?.();
  }

  #toResult(value: QuickJSHandle): WorkerValue | RunFailure {
    if (this.ctx.typeof(value) === 'undefined') return { ok: true };
    this.#sliceStartedAt = Date.now();
    const r = this.ctx.callFunction(this.#toJson!, this.ctx.undefined, value);
    this.#sliceStartedAt = undefined;
    if (r.error) {
      const failure = this.#failureFrom(r.error);
      r.error.dispose();
      return this.#stopReason() ?? failure;
    }
    const json = this.#string(r.value);
    r.value.dispose();
    if (json !== undefined && jsonDeeperThan(json)) {
      return { ok: false, kind: 'runtime', message: tooDeepMessage('the result is'), hint: 'Return plain data a few levels deep.' };
    }
    if (json === undefined) return { ok: true };
    return resultFor(json, this.msg.budgets.maxResultChars, this.msg.results === true, this.msg.wholeValue === true);
  }

  #string(h: QuickJSHandle | undefined): string | undefined {
    return h !== undefined && this.ctx.typeof(h) === 'string' ? this.ctx.getString(h) : undefined;
  }

  /** Reads a thrown value out of QuickJS. */
  #describe(h: QuickJSHandle): Described {
    const { ctx } = this;
    try {
      if (ctx.typeof(h) === 'object') {
        const prop = (key: string): string | number | undefined => {
          const p = ctx.getProp(h, key);
          try {
            const t = ctx.typeof(p);
            return t === 'string' ? ctx.getString(p) : t === 'number' ? ctx.getNumber(p) : undefined;
          } finally {
            p.dispose();
          }
        };
        const name = prop('name');
        const message = prop('message');
        if (typeof message === 'string' || typeof name === 'string') {
          const lineNumber = prop('lineNumber');
          const stack = prop('stack');
          return {
            name: typeof name === 'string' ? name : undefined,
            message: typeof message === 'string' ? message : '',
            stack: typeof stack === 'string' ? stack : undefined,
            lineNumber: typeof lineNumber === 'number' ? lineNumber : undefined,
          };
        }
      }
      const dumped: unknown = ctx.dump(h);
      // QuickJS throws null when it cannot even allocate the error for running out of memory.
      if (dumped === null && this.#nearMemoryCap()) return { name: 'InternalError', message: 'out of memory' };
      return { message: `the code threw ${typeof dumped === 'string' ? JSON.stringify(dumped) : (JSON.stringify(dumped) ?? String(dumped))}` };
    } catch {
      return { message: 'the code threw a value that cannot be read' };
    }
  }

  #nearMemoryCap(): boolean {
    if (this.capped.memory.buffer.byteLength >= this.capped.maxBytes * 0.9) return true;
    try {
      const usage = this.runtime.computeMemoryUsage();
      const dumped = this.ctx.dump(usage) as { malloc_size?: number };
      usage.dispose();
      return (dumped.malloc_size ?? 0) >= this.msg.budgets.memoryMb * 1024 * 1024 * 0.5;
    } catch {
      return true;
    }
  }

  #failureFrom(h: QuickJSHandle): RunFailure {
    return this.#failureFromDescription(this.#describe(h));
  }

  #failureFromDescription(d: Described): RunFailure {
    return failureFrom(d, { form: this.msg.forms[this.#form]!, memoryMb: this.msg.budgets.memoryMb, globals: this.msg.globals });
  }

  /** The run is over: replies still to come and the interrupt handler no longer reach it. */
  end(): void {
    this.#finished = true;
    this.#prepared.target = undefined;
  }

  dispose(): void {
    this.end();
    this.#toJson?.dispose();
    for (const d of this.#pending.values()) d.dispose();
    this.#pending.clear();
    this.ctx.dispose();
    this.runtime.dispose();
  }
}
