// Tasks of a 2026-07-28 server (the `io.modelcontextprotocol/tasks` extension). The engine
// declares the extension to such servers, so a tools/call may come back as a task handle
// (`resultType: "task"`) instead of its result. The v2 client SDK has no runtime for that result
// type (it refuses it), so the handle is lifted into an ordinary result's `_meta` as it arrives,
// and the call follows the task to its end: tasks/get at the server's pace until it completes
// (its inlined result answers the call), fails or is cancelled; a caller that gives up (or the
// call timeout) cancels it there.
import type { Transport } from '@modelcontextprotocol/client';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '../../../src-shared/errors.ts';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Where a lifted task handle sits in the result's `_meta` (the engine's own key, never relayed). */
const LIFTED = 'switchboard/upstream-task';
/** Bounds on a server's suggested polling interval, in ms. */
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 5_000;

/** Waits a server's suggested polling interval (bounded; 500 ms when it suggests none), or until `signal`. */
export function pollPause(suggestedMs: number | undefined, signal?: AbortSignal): Promise<void> {
  return sleep(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggestedMs ?? 500)), signal);
}

interface TaskState {
  taskId: string;
  status: string;
  statusMessage?: string;
  pollIntervalMs?: number;
  result?: Record<string, unknown>;
  error?: { code?: number; message?: string; data?: unknown };
}

/** Rewrites task answers on a connection before the SDK sees them (see the file comment). */
export function liftTaskResults(transport: Transport): void {
  const inner = transport.onmessage;
  if (!inner) return;
  transport.onmessage = ((message: unknown, extra?: unknown) => {
    const m = message as { result?: Record<string, unknown> } | undefined;
    const r = m?.result;
    if (r && typeof r === 'object' && r.resultType === 'task' && typeof r.taskId === 'string') {
      const { resultType: _t, _meta, ...task } = r;
      message = { ...m, result: { resultType: 'complete', content: [], _meta: { ...(_meta as object | undefined), [LIFTED]: task } } };
    }
    (inner as (m: unknown, e?: unknown) => void)(message, extra);
  }) as Transport['onmessage'];
}

/** The task handle a call was answered with, if it was. */
export function liftedTask(result: unknown): TaskState | undefined {
  const t = (result as { _meta?: Record<string, unknown> } | undefined)?._meta?.[LIFTED] as TaskState | undefined;
  return t && typeof t.taskId === 'string' ? t : undefined;
}

/**
 * Polls the task until it ends and answers its result. `get`/`cancel` send tasks/get and
 * tasks/cancel to the server; `signal` is the caller's (and the call timeout's).
 */
export async function followTask(
  task: TaskState,
  what: string,
  get: (taskId: string) => Promise<unknown>,
  cancel: (taskId: string) => void,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  let state = task;
  try {
    for (;;) {
      if (state.status === 'completed') return state.result ?? { content: [] };
      if (state.status === 'failed') {
        const e = state.error ?? {};
        throw new McpError(typeof e.code === 'number' ? e.code : ErrorCode.InternalError, e.message ?? state.statusMessage ?? 'the task failed', e.data);
      }
      if (state.status === 'cancelled') throw new SwitchboardError('cancelled', `${what} was cancelled by its server${state.statusMessage ? `: ${state.statusMessage}` : ''}`);
      await pollPause(state.pollIntervalMs, signal);
      state = (await get(state.taskId)) as TaskState;
    }
  } catch (err) {
    if (signal.aborted) cancel(state.taskId);
    throw err;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
