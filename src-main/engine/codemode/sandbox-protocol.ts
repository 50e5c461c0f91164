// Messages between the sandbox pool (engine thread) and a sandbox worker. Values cross as JSON
// text only (a kept result as its UTF-8 bytes), so nothing from the engine can reach QuickJS as
// a live object.
import type { ResolvedBudgets } from '../../../src-shared/config/schema.ts';
import type { CodeForm } from '../../../src-shared/codemode/normalize-code.ts';
import type { ResultText, RunFailureInfo } from '../../../src-shared/codemode/result-text.ts';
import type { LogLine } from '../../../src-shared/records.ts';
import type { KeptJson } from './result-handles.ts';

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
  /** Send the value's whole JSON even when its text is cut (a skill's run: the value goes back to its caller). */
  wholeValue?: boolean;
}

export type HostRequest =
  /** `argsBytes`: argsJson's UTF-8 bytes, counted in the worker so that the engine need not re-serialize 20 MB to measure it. */
  | { kind: 'tool'; global: string; method: string; argsJson: string; argsBytes: number }
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

/**
 * A run's value as the worker hands it over. The worker holds the value, so it makes the text
 * (a million objects took the engine's thread 2.8 s to parse, format and redact): `text` is
 * absent when the function returned undefined; `json` (compact) only when the whole result fits
 * maxResultChars (or the run asked for its wholeValue), so the engine parses no more than the
 * client sees; `keep` only for a result
 * cut in a profile that keeps results, its bytes moved (transferred), not copied.
 */
export interface WorkerValue {
  ok: true;
  text?: ResultText;
  json?: string;
  keep?: KeptJson;
}

/** A run's end as the worker sees it. */
export type WorkerResult = (WorkerValue | RunFailure) & {
  calls: number;
  /** The QuickJS module can no longer be trusted (WASM abort): replace the worker. */
  poisoned?: boolean;
};

export type FromWorker =
  | { type: 'ready' }
  | { type: 'log'; runId: number; line: LogLine }
  | { type: 'call'; runId: number; callId: number; request: HostRequest }
  /** `heapMb`: the worker's V8 heap (committed) after the run, for the pool's recycling. */
  | { type: 'done'; runId: number; result: WorkerResult; heapMb?: number };

/** What a run in the worker reaches of the outside: the pool, through the worker's port. */
export interface RunnerBridge {
  request(req: HostRequest): Promise<HostReply>;
  log(line: LogLine): void;
  /** Polled between bytecodes: has the pool asked this run to stop? */
  stopRequested(): boolean;
  /** Called when a stop request arrives while the run waits on the host. */
  onStopRequest(cb: () => void): () => void;
  /** Called when the pool stops (true) or restarts (false) the run's clock, e.g. during an approval. */
  onHold?(cb: (on: boolean) => void): void;
  /** Called once per run when its code has kept the CPU busy for BUSY_MS (sandbox-run.ts) without pausing. */
  onBusy?(): void;
}
