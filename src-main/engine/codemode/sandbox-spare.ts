// Runtimes made ready ahead of their run: a QuickJS runtime and context with the limits set and
// the globals, catalog and console installed. The runner keeps one spare, readied right after a
// run's answer is posted, for the next run of the same profile and memory cap: a run still gets
// a runtime no code has ever run in, but its ~0.5 ms of set-up is off the caller's path.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { startFailure } from './run-failure.ts';
import type { RunFailure } from './sandbox-protocol.ts';
import type { CappedModule } from './sandbox-module.ts';
import { SETUP_SOURCE } from './sandbox-setup.ts';

/** QuickJS's own stack guard; without it deep recursion overflows the host stack. */
const MAX_STACK_BYTES = 256 * 1024;

/** What a runtime's host functions and interrupt handler reach: the run using the runtime now. */
export interface RunTarget {
  hostCall(args: QuickJSHandle[]): QuickJSHandle | undefined;
  log(level: string, text: string): void;
  interrupt(): boolean;
}

export interface Prepared {
  capped: CappedModule;
  /** The globals (and whether `results` is installed) it was set up for, as JSON. */
  spec: string;
  runtime: QuickJSRuntime;
  ctx: QuickJSContext;
  toJson: QuickJSHandle | undefined;
  failure: RunFailure | undefined;
  target: RunTarget | undefined;
}

/** A fresh runtime and context with the limits set and the globals, catalog and console installed. */
export function prepare(capped: CappedModule, memoryMb: number, spec: string): Prepared {
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
      p.failure = startFailure('compile', String(ctx.dump(installer.error)?.message ?? ''));
      installer.error.dispose();
      return p;
    }
    const installed = ctx.callFunction(installer.value, ctx.undefined, hostCall, hostLog, specH);
    installer.value.dispose();
    if (installed.error) {
      p.failure = startFailure('install', String(ctx.dump(installed.error)?.message ?? ''));
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

/** The one spare runtime of a worker. */
export class RuntimeSpare {
  #spare: Prepared | undefined;

  /** The spare when it was made for this module and spec, else a fresh runtime (an unfitting spare is freed). */
  take(capped: CappedModule, memoryMb: number, spec: string): Prepared {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare && spare.capped === capped && spare.spec === spec) return spare;
    if (spare) disposePrepared(spare);
    return prepare(capped, memoryMb, spec);
  }

  /**
   * Readies the next run's runtime now (the runner calls it once the last answer is posted),
   * unless a spare is already there.
   */
  refill(capped: CappedModule, memoryMb: number, spec: string): void {
    if (this.#spare) return;
    try {
      this.#spare = prepare(capped, memoryMb, spec);
    } catch {
      this.#spare = undefined;
    }
  }
}
