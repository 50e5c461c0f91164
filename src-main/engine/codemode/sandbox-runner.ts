// Runs one code-mode run in QuickJS (sync WASM build, promise-based host functions). Lives in a
// sandbox worker; knows nothing of the engine but the bridge it is handed. The parts: the WASM
// modules (sandbox-module.ts), the spare runtime (sandbox-spare.ts), the run (sandbox-run.ts),
// and what a run's end means (run-failure.ts, run-output.ts, run-clock.ts: pure).
import { sandboxCrashFailure } from './run-failure.ts';
import { ModuleCache, type CappedModule } from './sandbox-module.ts';
import type { RunMessage, RunnerBridge, WorkerResult } from './sandbox-protocol.ts';
import { Run } from './sandbox-run.ts';
import { RuntimeSpare } from './sandbox-spare.ts';

export class SandboxRunner {
  readonly #modules = new ModuleCache();
  readonly #spare = new RuntimeSpare();
  /** The run that ended last, freed by afterRun() with what the next spare is made for. */
  #ended: { run: Run; capped: CappedModule; memoryMb: number; spec: string | undefined } | undefined;

  warm(memoryMb: number): Promise<CappedModule> {
    return this.#modules.warm(memoryMb);
  }

  async run(msg: RunMessage, bridge: RunnerBridge): Promise<WorkerResult> {
    this.afterRun();
    const { memoryMb } = msg.budgets;
    const capped = await this.#modules.warm(memoryMb);
    const spec = JSON.stringify({ globals: msg.globals, results: msg.results === true });
    let run: Run | undefined;
    let result: WorkerResult;
    const refusedBefore = capped.growthRefused;
    try {
      run = new Run(capped, msg, bridge, this.#spare.take(capped, memoryMb, spec));
      result = await run.execute();
    } catch (err) {
      // A WASM abort leaves the module unusable; say so and let the pool replace the worker.
      this.#modules.drop(memoryMb);
      const crash = capped.growthRefused > refusedBefore ? { type: 'out-of-memory' as const } : { type: 'failed' as const, error: err };
      return { ...sandboxCrashFailure(crash, memoryMb), calls: run?.calls ?? 0, poisoned: true };
    }
    // No pending call of the run can reach it any more; its runtime is freed by afterRun().
    run.end();
    this.#ended = { run, capped, memoryMb, spec: !result.ok && result.kind === 'memory' ? undefined : spec };
    return result;
  }

  /**
   * Frees the last run's runtime and readies the next run's, like the last run's. The worker
   * calls it once that run's answer is posted: both are off the caller's path (freeing a
   * runtime takes ~0.1 ms, readying one ~0.5 ms).
   */
  afterRun(): void {
    const ended = this.#ended;
    this.#ended = undefined;
    if (!ended) return;
    try {
      ended.run.dispose();
    } catch {
      // QuickJS can leak objects when allocation fails mid-run, and then aborts on freeing the
      // runtime. That instance is done for, but it is only this cap's module: drop it and the
      // next run with this cap gets a fresh one, without replacing the worker.
      this.#modules.drop(ended.memoryMb);
      return;
    }
    if (ended.spec !== undefined && this.#modules.has(ended.memoryMb)) this.#spare.refill(ended.capped, ended.memoryMb, ended.spec);
  }
}
