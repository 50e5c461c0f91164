// Messages between the sandbox pool (engine thread) and a sandbox worker. Values cross as JSON
// text only, so nothing from the engine can reach QuickJS as a live object.
import type { ResolvedBudgets } from '../../../src-shared/config/schema.ts';
import type { CodeForm } from '../../../src-shared/codemode/normalize-code.ts';
import type { RunFailureInfo } from '../../../src-shared/codemode/result-text.ts';
import type { LogLine } from '../../../src-shared/records.ts';

export interface WorkerData {
  /**
   * Int32Array over a SharedArrayBuffer: the pool writes the id of a run to stop there, since a
   * worker spinning inside QuickJS never reads its message port.
   */
  stopFlag: SharedArrayBuffer;
  /** Memory cap whose WASM module is compiled before the worker says it is ready. */
  warmMemoryMb: number;
}

export interface RunMessage {
  type: 'run';
  runId: number;
  forms: CodeForm[];
  likelyForm: number;
  fenceLanguage: string | null;
  budgets: ResolvedBudgets;
  globals: Record<string, string[]>;
  /**
   * When the run must end (Date.now() time): timeoutMs after the pool got the run, so that
   * time spent waiting for a worker counts against it.
   */
  deadline: number;
  /** Install the `results` global (the profile keeps results past maxResultChars). */
  results?: boolean;
}

export type HostRequest =
  | { kind: 'tool'; global: string; method: string; argsJson: string }
  | { kind: 'search'; query: string; limit?: number }
  | { kind: 'describe'; names: string[] }
  /** `results.get` / `results.query`; the arguments as a JSON array. */
  | { kind: 'results'; op: 'get' | 'query'; argsJson: string };

export type HostReply = { ok: true; json: string | undefined } | { ok: false; message: string };

export type ToWorker =
  | RunMessage
  | { type: 'reply'; runId: number; callId: number; reply: HostReply }
  | { type: 'stop'; runId: number }
  /** The run's clock stops (`on`) or goes on: a call waits for a person's approval. */
  | { type: 'hold'; runId: number; on: boolean };

export type RunFailure = { ok: false } & RunFailureInfo;

/** A run's end as the worker sees it; `json` is absent when the function returned undefined. */
export type WorkerResult = ({ ok: true; json: string | undefined } | RunFailure) & {
  calls: number;
  /** The QuickJS module can no longer be trusted (WASM abort): replace the worker. */
  poisoned?: boolean;
};

export type FromWorker =
  | { type: 'ready' }
  | { type: 'log'; runId: number; line: LogLine }
  | { type: 'call'; runId: number; callId: number; request: HostRequest }
  | { type: 'done'; runId: number; result: WorkerResult };
