// Runs one code-mode run in QuickJS (sync WASM build, promise-based host functions). Lives in a
// sandbox worker; knows nothing of the engine but the bridge it is handed.
import {
  RELEASE_SYNC,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';
import { MAX_LOG_BYTES } from '../../../src-shared/config/budgets.ts';
import { LOG_CUT_NOTE, MAX_LOG_ENTRIES, cutToBytes, resultTextOf, utf8Bytes } from '../../../src-shared/codemode/result-text.ts';
import { MAX_DESCRIBE_NAMES, MAX_QUERY_CHARS, queryTooLongMessage, tooManyNamesMessage } from '../../../src-shared/codemode/catalog-limits.ts';
import { jsonDeeperThan, tooDeepMessage } from '../../../src-shared/codemode/json-depth.ts';
import type { LogLine } from '../../../src-shared/records.ts';
import { calleeAt, unknownMethodHint, unknownNameHint } from './sandbox-hints.ts';
import type { HostReply, HostRequest, RunFailure, RunMessage, WorkerResult, WorkerValue } from './sandbox-protocol.ts';
import { MAX_KEPT_RESULT_CHARS, MAX_RESULTS_ARGS_CHARS } from '../../../src-shared/codemode/result-pages.ts';
import { CONSOLE_LEVELS, MAX_CATALOG_CALLS, SETUP_SOURCE } from './sandbox-setup.ts';

export interface RunnerBridge {
  request(req: HostRequest): Promise<HostReply>;
  log(line: LogLine): void;
  /** Polled between bytecodes: has the pool asked this run to stop? */
  stopRequested(): boolean;
  /** Called when a stop request arrives while the run waits on the host. */
  onStopRequest(cb: () => void): () => void;
  /** Called when the pool stops (true) or restarts (false) the run's clock, e.g. during an approval. */
  onHold?(cb: (on: boolean) => void): void;
}

/** The module's own minimum memory in 64 KiB pages (16 MB: static data and the C stack). */
const BASE_PAGES = 256;
const PAGES_PER_MB = 16;
/** QuickJS's own stack guard; without it deep recursion overflows the host stack. */
const MAX_STACK_BYTES = 256 * 1024;
const MAX_MESSAGE_CHARS = 2000;
const FILENAME = 'code.js';

/** The slice of WebAssembly.Memory used here (the project's lib settings do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { WebAssembly: Wasm } = globalThis as unknown as {
  WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
};

interface CappedModule {
  module: QuickJSWASMModule;
  memory: WasmMemory;
  maxBytes: number;
}

async function createModule(memoryMb: number): Promise<CappedModule> {
  // setMemoryLimit does not see every allocation (long strings, ArrayBuffers), so the linear
  // memory itself is capped: the allocator then fails cleanly with "out of memory".
  const maxPages = BASE_PAGES + memoryMb * PAGES_PER_MB;
  const memory = new Wasm.Memory({ initial: BASE_PAGES, maximum: maxPages });
  // A WASM abort is reported to the pool as data; emscripten's own stderr line would only be noise.
  const options = { wasmMemory: memory, emscriptenModule: { printErr: () => {} } } as Parameters<typeof newVariant>[1];
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, options));
  return { module, memory, maxBytes: maxPages * 64 * 1024 };
}

export class SandboxRunner {
  // One module per memory cap, reused: compiling costs far more than a fresh runtime.
  readonly #modules = new Map<number, Promise<CappedModule>>();

  warm(memoryMb: number): Promise<CappedModule> {
    let m = this.#modules.get(memoryMb);
    if (!m) {
      m = createModule(memoryMb);
      this.#modules.set(memoryMb, m);
    }
    return m;
  }

  /**
   * A runtime and context made ready (limits set, globals installed) right after the previous
   * run, for the next run of the same profile and memory cap: a run still gets a runtime no
   * code has ever run in, but its ~0.5 ms of set-up is off the caller's path.
   */
  #spare: Prepared | undefined;

  async run(msg: RunMessage, bridge: RunnerBridge): Promise<WorkerResult> {
    const capped = await this.warm(msg.budgets.memoryMb);
    const spec = JSON.stringify({ globals: msg.globals, results: msg.results === true });
    let prepared = this.#spare;
    this.#spare = undefined;
    if (prepared && (prepared.capped !== capped || prepared.spec !== spec)) {
      disposePrepared(prepared);
      prepared = undefined;
    }
    let run: Run | undefined;
    let result: WorkerResult;
    try {
      run = new Run(capped, msg, bridge, prepared ?? prepare(capped, msg.budgets.memoryMb, spec));
      result = await run.execute();
    } catch (err) {
      // A WASM abort leaves the module unusable; say so and let the pool replace the worker.
      this.#modules.delete(msg.budgets.memoryMb);
      const outOfMemory = /memory|alloc/i.test(String(err));
      return {
        ok: false,
        kind: outOfMemory ? 'memory' : 'runtime',
        message: outOfMemory ? `the run used more than its ${msg.budgets.memoryMb} MB of memory` : `the sandbox failed: ${String(err)}`,
        calls: run?.calls ?? 0,
        poisoned: true,
      };
    }
    try {
      run.dispose();
    } catch {
      // QuickJS can leak objects when allocation fails mid-run, and then aborts on freeing the
      // runtime. That instance is done for, but it is only this cap's module: drop it and the
      // next run with this cap gets a fresh one, without replacing the worker.
      this.#modules.delete(msg.budgets.memoryMb);
      return result;
    }
    if (!result.ok && result.kind === 'memory') return result;
    // Ready the next run's runtime once this answer is on its way.
    setImmediate(() => {
      if (this.#spare || this.#modules.get(msg.budgets.memoryMb) === undefined) return;
      try {
        this.#spare = prepare(capped, msg.budgets.memoryMb, spec);
      } catch {
        this.#spare = undefined;
      }
    });
    return result;
  }
}

/** What a run's host functions and interrupt handler reach: the run using the runtime now. */
interface RunTarget {
  hostCall(args: QuickJSHandle[]): QuickJSHandle | undefined;
  log(level: string, text: string): void;
  interrupt(): boolean;
}

interface Prepared {
  capped: CappedModule;
  spec: string;
  runtime: QuickJSRuntime;
  ctx: QuickJSContext;
  toJson: QuickJSHandle | undefined;
  failure: RunFailure | undefined;
  target: RunTarget | undefined;
}

/** A fresh runtime and context with the limits set and the globals, catalog and console installed. */
function prepare(capped: CappedModule, memoryMb: number, spec: string): Prepared {
  const runtime = capped.module.newRuntime();
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  runtime.setMemoryLimit(memoryMb * 1024 * 1024);
  const ctx = runtime.newContext();
  const p: Prepared = { capped, spec, runtime, ctx, toJson: undefined, failure: undefined, target: undefined };
  // No run is attached while the set-up itself runs: it is our code, and it must finish.
  runtime.setInterruptHandler(() => p.target?.interrupt() ?? false);
  const hostCall = ctx.newFunction('hostCall', (...args) => p.target?.hostCall(args));
  const hostLog = ctx.newFunction('hostLog', (levelH, textH) => {
    const str = (h: QuickJSHandle) => (ctx.typeof(h) === 'string' ? ctx.getString(h) : undefined);
    p.target?.log(str(levelH) ?? 'log', str(textH) ?? '');
  });
  const specH = ctx.newString(spec);
  try {
    const installer = ctx.evalCode(SETUP_SOURCE, 'setup.js', { strict: true });
    if (installer.error) {
      p.failure = { ok: false, kind: 'runtime', message: `the sandbox could not start: ${String(ctx.dump(installer.error)?.message ?? '')}` };
      installer.error.dispose();
      return p;
    }
    const installed = ctx.callFunction(installer.value, ctx.undefined, hostCall, hostLog, specH);
    installer.value.dispose();
    if (installed.error) {
      p.failure = { ok: false, kind: 'memory', message: `the sandbox could not start: ${String(ctx.dump(installed.error)?.message ?? '')}` };
      installed.error.dispose();
      return p;
    }
    p.toJson = installed.value;
    return p;
  } finally {
    hostCall.dispose();
    hostLog.dispose();
    specH.dispose();
  }
}

function disposePrepared(p: Prepared): void {
  try {
    p.toJson?.dispose();
    p.ctx.dispose();
    p.runtime.dispose();
  } catch {
    // A spare that cannot be freed is only garbage inside its module.
  }
}

type Stop = RunFailure;

class Run {
  readonly runtime: QuickJSRuntime;
  readonly ctx: QuickJSContext;
  calls = 0;
  #catalogCalls = 0;
  #nextCallId = 0;
  readonly #pending = new Map<number, QuickJSDeferredPromise>();
  #deadline: number;
  /**
   * When the clock was stopped (a call waits for approval). Only waiting is free: time the code
   * spends running meanwhile (other calls answered) still counts, so a held run cannot spin.
   */
  #heldSince: number | undefined;
  /** At the hold: time left until the deadline; and the running time spent since. */
  #leftAtHold = 0;
  #busyWhileHeld = 0;
  #jobStartedAt: number | undefined;
  #fatal: Stop | undefined;
  #finished = false;
  #wake: (() => void) | undefined;
  #logBytes = 0;
  #logEntries = 0;
  #logsCut = false;
  #toJson: QuickJSHandle | undefined;
  #form = 0;

  readonly #prepared: Prepared;

  constructor(
    readonly capped: CappedModule,
    readonly msg: RunMessage,
    readonly bridge: RunnerBridge,
    prepared: Prepared,
  ) {
    this.#deadline = msg.deadline;
    this.#prepared = prepared;
    this.runtime = prepared.runtime;
    this.ctx = prepared.ctx;
    prepared.target = {
      hostCall: (args) => this.#hostCall(args),
      log: (level, text) => this.#log(level, text),
      interrupt: () => this.#stopReason() !== undefined,
    };
    bridge.onHold?.((on) => {
      if (on) {
        if (this.#heldSince !== undefined) return;
        this.#heldSince = Date.now();
        this.#leftAtHold = this.#deadline - this.#heldSince;
        this.#busyWhileHeld = 0;
      } else if (this.#heldSince !== undefined) {
        this.#deadline = Date.now() + this.#leftAtHold - this.#busyWhileHeld;
        this.#heldSince = undefined;
        this.#wake?.();
      }
    });
  }

  #stopReason(): Stop | undefined {
    if (this.#fatal) return this.#fatal;
    if (this.bridge.stopRequested()) return { ok: false, kind: 'aborted', message: 'the run was cancelled' };
    if (this.#pastDeadline()) {
      const s = this.msg.budgets.timeoutMs;
      return {
        ok: false,
        kind: 'timeout',
        message: `the run took longer than ${s} ms`,
        hint: 'Do less per run, or raise budgets.timeoutMs for this profile.',
      };
    }
    return undefined;
  }

  #pastDeadline(): boolean {
    const now = Date.now();
    if (this.#heldSince === undefined) return now > this.#deadline;
    const running = this.#jobStartedAt !== undefined ? now - this.#jobStartedAt : 0;
    return this.#busyWhileHeld + running > this.#leftAtHold;
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
    try {
      for (;;) {
        const stop = this.#stopReason();
        if (stop) return stop;
        this.#jobStartedAt = Date.now();
        const jobs = this.runtime.executePendingJobs();
        if (this.#heldSince !== undefined) this.#busyWhileHeld += Date.now() - this.#jobStartedAt;
        this.#jobStartedAt = undefined;
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
        if (this.#pending.size === 0 && !this.runtime.hasPendingJob()) {
          return {
            ok: false,
            kind: 'timeout',
            message: 'the code waits for a promise that can never settle: no tool call or other work is still pending',
            hint: 'Every await must end in a tool call or a promise that resolves; there are no timers in the sandbox.',
          };
        }
        await this.#nextEvent();
      }
    } finally {
      promise.dispose();
    }
  }

  /** Waits for a host reply, a stop request or the deadline, whichever comes first. */
  #nextEvent(): Promise<void> {
    return new Promise<void>((resolve) => {
      // While the clock is held only a reply, a stop or the clock going on again wakes the run.
      const timer = this.#heldSince === undefined ? setTimeout(done, Math.max(0, this.#deadline - Date.now()) + 1) : undefined;
      const unsubscribe = this.bridge.onStopRequest(done);
      this.#wake = done;
      function done(): void {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
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
        if (i === likelyForm || reported === undefined) reported = this.#syntaxFailure(syntax);
        continue;
      }
      const probe = this.#compiles(forms[i]!.probe);
      if (probe === 'stopped') return this.#stopReason()!;
      if (probe !== undefined) {
        brokeOut = true;
        continue;
      }
      const r = this.ctx.evalCode(forms[i]!.source, FILENAME);
      if (!r.error) return { handle: r.value };
      const d = this.#describe(r.error);
      r.error.dispose();
      return this.#stopReason() ?? this.#failureFromDescription(d);
    }
    if (brokeOut) {
      return {
        ok: false,
        kind: 'syntax',
        message: 'the code closes the function it is wrapped in: an unmatched ")" or "}" ends it early, and what follows would run outside it',
        hint: 'Send one async arrow function such as async () => { … }, or one function body.',
      };
    }
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

  #syntaxFailure(d: Described): RunFailure {
    const failure: RunFailure = { ok: false, kind: 'syntax', message: clip(d.message), ...this.#location(d).user };
    if (this.msg.fenceLanguage === 'ts' || this.msg.fenceLanguage === 'typescript' || this.msg.fenceLanguage === 'tsx') {
      failure.hint = 'The sandbox runs plain JavaScript: leave out type annotations and other TypeScript syntax.';
    } else {
      failure.hint = 'Send an async arrow function such as async () => { … }, or a function body.';
    }
    return failure;
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
        this.#fatal = {
          ok: false,
          kind: 'budget',
          message: `the run made more than ${this.msg.budgets.maxToolCalls} tool calls`,
          hint: 'Batch the work into fewer calls, or raise budgets.maxToolCalls for this profile.',
        };
        this.calls--;
        return this.#neverSettling();
      }
      request = { kind: 'tool', global: a ?? '', method: b ?? '', argsJson, argsBytes: Buffer.byteLength(argsJson) };
    } else {
      if (++this.#catalogCalls > MAX_CATALOG_CALLS) {
        this.#fatal = { ok: false, kind: 'budget', message: `the run made more than ${MAX_CATALOG_CALLS} catalog lookups${kind === 'results' ? ' (results reads count as lookups)' : ''}` };
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

  #log(level: string, text: string): void {
    if (this.#logsCut) return;
    const lvl = (CONSOLE_LEVELS as readonly string[]).includes(level) ? (level as LogLine['level']) : 'log';
    const size = utf8Bytes(text) + 1;
    if (this.#logEntries < MAX_LOG_ENTRIES && this.#logBytes + size <= MAX_LOG_BYTES) {
      this.#logBytes += size;
      this.#logEntries++;
      this.bridge.log({ level: lvl, text });
      return;
    }
    const room = MAX_LOG_BYTES - this.#logBytes - 1;
    if (this.#logEntries < MAX_LOG_ENTRIES && room > 0) this.bridge.log({ level: lvl, text: cutToBytes(text, room) });
    this.bridge.log({ level: 'warn', text: LOG_CUT_NOTE });
    this.#logsCut = true;
  }

  #toResult(value: QuickJSHandle): WorkerValue | RunFailure {
    if (this.ctx.typeof(value) === 'undefined') return { ok: true };
    const r = this.ctx.callFunction(this.#toJson!, this.ctx.undefined, value);
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
    const { user: where, raw } = this.#location(d);
    const message = clip(d.name && d.name !== 'Error' ? `${d.name}: ${d.message}` : d.message);
    if (d.name === 'InternalError' && /out of memory|string too long|invalid array buffer length/i.test(d.message)) {
      return {
        ok: false,
        kind: 'memory',
        message: `the run used more than its ${this.msg.budgets.memoryMb} MB of memory (${d.message})`,
        ...where,
        hint: 'Work on smaller pieces of data, or raise budgets.memoryMb for this profile.',
      };
    }
    const failure: RunFailure = { ok: false, kind: 'runtime', message, ...where };
    if (d.name === 'InternalError' && /stack overflow/i.test(d.message)) {
      failure.hint = 'The recursion went too deep; use a loop instead.';
    }
    const unknown = d.name === 'ReferenceError' ? /^'?([^' ]+)'? is not defined/.exec(d.message) : null;
    if (unknown) failure.hint = unknownNameHint(unknown[1]!, this.msg.globals);
    if (d.name === 'TypeError' && /not a function/.test(d.message) && raw) {
      const callee = calleeAt(this.msg.forms[this.#form]!.source, raw.line, raw.column ?? 1);
      const hint = callee && unknownMethodHint(callee.object, callee.property, this.msg.globals);
      if (hint) failure.hint = hint;
    }
    return failure;
  }

  /** Where the error points, in the code as sent (`user`) and in the evaluated source (`raw`). */
  #location(d: Described): { user: { line?: number; column?: number }; raw?: { line: number; column?: number } } {
    const form = this.msg.forms[this.#form]!;
    let line: number | undefined;
    let column: number | undefined;
    const frame = d.stack ? /code\.js:(\d+)(?::(\d+))?/.exec(d.stack) : null;
    if (frame) {
      line = Number(frame[1]);
      column = frame[2] !== undefined ? Number(frame[2]) : undefined;
    } else if (d.lineNumber !== undefined) {
      line = d.lineNumber;
    }
    // The first and last lines of the source belong to the wrapper, not to the user.
    if (line === undefined || line < 2 || line > form.source.split('\n').length - 1) return { user: {} };
    const user = column !== undefined ? { line: line - form.lineOffset, column } : { line: line - form.lineOffset };
    return { user, raw: { line, column } };
  }

  dispose(): void {
    this.#finished = true;
    this.#prepared.target = undefined;
    this.#toJson?.dispose();
    for (const d of this.#pending.values()) d.dispose();
    this.#pending.clear();
    this.ctx.dispose();
    this.runtime.dispose();
  }
}

/**
 * A result as the engine gets it, made here on the worker's thread from the compact JSON QuickJS
 * wrote: the client's text cut at maxResultChars (plus the slack redaction needs) and the true
 * size; the compact JSON itself only when nothing is cut or the run needs the whole value (a
 * skill's), or as bytes when the profile keeps cut results and it is small enough to keep.
 */
function resultFor(json: string, maxResultChars: number, keeping: boolean, whole: boolean): WorkerValue {
  const text = resultTextOf(JSON.parse(json), maxResultChars);
  if (whole || text.chars <= maxResultChars) return { ok: true, text, json };
  if (!keeping) return { ok: true, text };
  const keep = json.length > MAX_KEPT_RESULT_CHARS ? { chars: json.length } : { chars: json.length, bytes: new TextEncoder().encode(json) };
  return { ok: true, text, keep };
}

interface Described {
  name?: string;
  message: string;
  stack?: string;
  lineNumber?: number;
}

function clip(s: string): string {
  return s.length > MAX_MESSAGE_CHARS ? `${s.slice(0, MAX_MESSAGE_CHARS)}… (message cut)` : s;
}
