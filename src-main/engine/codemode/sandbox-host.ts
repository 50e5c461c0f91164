// What a sandbox run needs of the engine (its tool calls, search, results) and what it ends
// with: the types both the pool and each run's supervisor use, kept apart so neither imports the other.
import type { RunOutcome } from '../../../src-shared/codemode/result-text.ts';
import type { KeptJson } from './result-handles.ts';

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
    /** The arguments as the worker serialised them (compact JSON), so the engine need not serialise them again. */
    argsJson?: string,
  ): Promise<{ ok: true; value: unknown } | { ok: false; message: string }>;
  search(query: string, limit?: number): Promise<unknown>;
  describe(names: string[]): Promise<string>;
  /** `results.get` / `results.query` with the code's arguments; absent when the profile keeps no results. */
  results?(op: 'get' | 'query', args: unknown[]): Promise<unknown>;
}

/** A run's outcome; `keep` is a cut result's JSON to keep, for a run asked to keep results. */
export type SandboxOutcome = RunOutcome & { keep?: KeptJson };
