// Tasks for the profile's clients: a tools/call answered with a task handle, then polled
// (2025-11-25 core tasks: `params.task` on the call, tasks/get, tasks/result, tasks/list,
// tasks/cancel; 2026-07-28: the `io.modelcontextprotocol/tasks` extension, tasks/get with the
// result inlined, tasks/update, tasks/cancel). The gateway is the task receiver its clients see:
// - a call to a tool its server can run as a task (a 2025 server offering tasks) becomes that
//   server's task, and every request for it is routed there under the gateway's own task id (ids
//   of different servers cannot collide, and one client cannot reach another's tasks);
// - any other call a 2025 client asked to run as a task runs as an ordinary call through the
//   usual pipeline while the gateway keeps the task: its status, its result, and its
//   cancellation (which cancels the upstream call).
// Who may reach a task is never what a client says of itself alone (its clientInfo name, which any
// client can claim): a 2025 client's tasks, and those of a 2026-07-28 client on the shim's socket,
// are bound to its session, its connection (another session, whatever name it gives, sees none of
// them, and they go when the session does); a 2026-07-28 HTTP request has no session, so its
// task is reached by its id, 122 random bits, asked under the name of the client that made it
// (another client on the profile that learnt the id cannot read or cancel it).
// Whoever may not reach a task hears what an unknown id hears.
// Tasks are kept a bounded time after they end, at most MAX_TASKS_PER_CLIENT per session (and
// for all of a profile's sessionless requests together; the oldest finished ones go first), and
// at most MAX_TASKS_PER_PROFILE per profile (past it a new task is refused with a sentence).
import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toErrorData } from '../../../src-shared/errors.ts';
import { pollPause } from '../upstream/tasks-2026-07-28.ts';

/** The extension's identifier (2026-07-28), in capabilities and per-request client capabilities. */
export { TASKS_EXTENSION } from '../upstream/tasks-2026-07-28.ts';
/** Related-task `_meta` key of 2025-11-25 task results. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** How long a task the gateway runs is kept when the client asks for no ttl, in ms. */
export const DEFAULT_TASK_TTL_MS = 60 * 60_000;
/** Tasks kept per session (and for a profile's sessionless 2026-07-28 requests together). */
export const MAX_TASKS_PER_CLIENT = 100;
/** Tasks kept per profile, all its clients together. */
export const MAX_TASKS_PER_PROFILE = 500;
/** The polling interval suggested for tasks the gateway runs, in ms. */
const POLL_INTERVAL_MS = 500;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as 2025-11-25 spells it. */
export interface Rev20251125Task {
  taskId: string;
  status: TaskStatus;
  ttl: number | null;
  createdAt: string;
  lastUpdatedAt: string;
  pollInterval?: number;
  statusMessage?: string;
}

/** Who a task belongs to. */
export interface TaskOwner {
  profile: string;
  /** The client's name as it gave it: for logs and records only, never for access. */
  client: string;
  /**
   * The session that made it (a 2025 session, or a 2026-07-28 connection on the shim's socket);
   * absent for a sessionless HTTP request: its id, asked under its client's name, reaches it.
   */
  session?: string;
}

/** How the bridge reaches a server: the gateway's relay (unavailable servers throw). */
export type TaskRelay = (server: string, method: string, params: unknown, signal?: AbortSignal) => Promise<unknown>;
/** Tells a task's owner its new state (`notifications/tasks/status`, 2025-11-25). */
export type TaskStatusSink = (owner: TaskOwner, task: Rev20251125Task) => void;

interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

class Entry {
  readonly id = randomUUID();
  /** The server's own id of the task it runs; undefined for a task the gateway runs. */
  upstreamId: string | undefined;
  state: Rev20251125Task;
  result: Record<string, unknown> | undefined;
  error: JsonRpcError | undefined;
  abort: AbortController | undefined;
  /** Resolved when the task reaches a terminal status (a cancelled call need not settle for that). */
  readonly ended: Promise<void>;
  end!: () => void;

  constructor(
    readonly owner: TaskOwner,
    readonly server: string,
    state: Omit<Rev20251125Task, 'taskId'>,
  ) {
    this.state = { ...state, taskId: this.id };
    this.ended = new Promise((resolve) => (this.end = resolve));
  }

  get terminal(): boolean {
    return isTerminal(this.state.status);
  }
}

export class TaskBridge {
  readonly #relay: TaskRelay;
  readonly #onStatus: TaskStatusSink;
  readonly #tasks = new Map<string, Entry>();

  constructor(relay: TaskRelay, onStatus: TaskStatusSink = () => {}) {
    this.#relay = relay;
    this.#onStatus = onStatus;
  }

  /**
   * A server's `notifications/tasks/status`: for a task routed there, its owner hears it under
   * the gateway's id; one the gateway does not know is dropped (its id would mean nothing to
   * any client).
   */
  fromServer(server: string, params: Partial<Rev20251125Task> | undefined): void {
    if (typeof params?.taskId !== 'string') return;
    for (const e of this.#tasks.values()) {
      if (e.server !== server || e.upstreamId !== params.taskId) continue;
      this.#take(e, params);
      this.#onStatus(e.owner, { ...e.state });
      return;
    }
  }

  /** Runs `run` as a task the gateway keeps; answers its first state at once. */
  runHere(owner: TaskOwner, server: string, ttl: number | undefined, run: (signal: AbortSignal) => Promise<CallToolResult>): Rev20251125Task {
    const now = new Date().toISOString();
    const e = new Entry(owner, server, { status: 'working', ttl: ttl ?? DEFAULT_TASK_TTL_MS, createdAt: now, lastUpdatedAt: now, pollInterval: POLL_INTERVAL_MS });
    // Kept first (or refused): a task that cannot be kept never starts its call.
    this.#add(e);
    e.abort = new AbortController();
    const signal = e.abort.signal;
    void Promise.resolve()
      // Cancelled before it started: it never starts.
      .then(() => (signal.throwIfAborted(), run(signal)))
      .then(
        (result) => this.#finish(e, 'completed', { result: result as Record<string, unknown> }),
        (err: unknown) => {
          if (signal.aborted) return this.#finish(e, 'cancelled', { statusMessage: 'The client cancelled the task.' });
          const error = rpcError(err);
          this.#finish(e, 'failed', { error, statusMessage: error.message });
        },
      );
    return { ...e.state };
  }

  /** Takes a task a server created for a call: routed there from now on, under a gateway id. */
  adopt(owner: TaskOwner, server: string, upstream: Rev20251125Task): Rev20251125Task {
    const e = new Entry(owner, server, { ...upstream });
    e.upstreamId = upstream.taskId;
    try {
      this.#add(e);
    } catch (err) {
      // No room after all (assertRoom is asked before the call; another task came in between).
      void this.#relay(server, 'tasks/cancel', { taskId: upstream.taskId }).catch(() => {});
      throw err;
    }
    return { ...e.state };
  }

  /** tasks/get (2025-11-25 shape). */
  async get(owner: TaskOwner, id: string, signal?: AbortSignal): Promise<Rev20251125Task> {
    const e = this.#find(owner, id);
    await this.#refresh(e, signal);
    return { ...e.state };
  }

  /**
   * tasks/result (2025-11-25): waits until the task ends, then answers the call's result, or
   * throws the error it ended with.
   */
  async result(owner: TaskOwner, id: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const e = this.#find(owner, id);
    if (e.upstreamId !== undefined) {
      // Polled until it ends, then asked for its result: one tasks/result held open for the
      // whole task would be cut by the server's callTimeoutSec, which bounds each request.
      await this.#refresh(e, signal);
      while (!e.terminal) {
        await pollPause(e.state.pollInterval, signal);
        await this.#refresh(e, signal);
      }
      const r = (await this.#upstream(e, 'tasks/result', signal)) as Record<string, unknown>;
      return withRelatedTask(r, e.id);
    }
    await abortable(e.ended, signal);
    if (e.result) return withRelatedTask(e.result, e.id);
    const err = e.error ?? { code: ErrorCode.InvalidRequest, message: `The task "${id}" was cancelled.` };
    throw new McpError(err.code, err.message, err.data);
  }

  /** tasks/cancel: a task the gateway runs stops its upstream call; a server's task is cancelled there. */
  async cancel(owner: TaskOwner, id: string, signal?: AbortSignal): Promise<Rev20251125Task> {
    const e = this.#find(owner, id);
    if (e.upstreamId !== undefined) {
      const r = (await this.#upstream(e, 'tasks/cancel', signal)) as Partial<Rev20251125Task>;
      this.#take(e, r);
      return { ...e.state };
    }
    if (e.terminal) throw new McpError(ErrorCode.InvalidParams, `The task "${id}" already ended (${e.state.status}); it cannot be cancelled.`);
    this.#finish(e, 'cancelled', { statusMessage: 'The client cancelled the task.' });
    e.abort?.abort(new Error('The client cancelled the task.'));
    return { ...e.state };
  }

  /** tasks/list: the client's tasks in this profile, newest first. */
  async list(owner: TaskOwner, signal?: AbortSignal): Promise<Rev20251125Task[]> {
    const mine = [...this.#tasks.values()].filter((e) => sameOwner(e.owner, owner)).reverse();
    await Promise.all(mine.map((e) => this.#refresh(e, signal).catch(() => {})));
    return mine.map((e) => ({ ...e.state }));
  }

  /**
   * tasks/get for a 2026-07-28 client: the task with its result (completed), error (failed)
   * inlined, in that revision's field names.
   */
  async detailed(owner: TaskOwner, id: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const e = this.#find(owner, id);
    await this.#refresh(e, signal);
    if (e.upstreamId !== undefined && e.terminal && e.state.status !== 'cancelled' && !e.result && !e.error) {
      try {
        e.result = withRelatedTask((await this.#upstream(e, 'tasks/result', signal)) as Record<string, unknown>, e.id);
      } catch (err) {
        e.error = rpcError(err);
      }
    }
    const out: Record<string, unknown> = rev20260728Task(e.state);
    if (e.state.status === 'completed' && e.result) out.result = e.result;
    if (e.state.status === 'failed') out.error = e.error ?? { code: ErrorCode.InternalError, message: e.state.statusMessage ?? 'The task failed.' };
    // A 2025 server's question inside a task cannot be carried to a 2026-07-28 client here.
    if (out.status === 'input_required') {
      out.status = 'working';
      out.statusMessage = 'The server is waiting for input that Switchboard cannot relay inside a task; cancel the task and call the tool without one.';
    }
    return out;
  }

  /** Whether the owner has this task (tasks/update answers only for known tasks). */
  has(owner: TaskOwner, id: string): boolean {
    const e = this.#tasks.get(id);
    return e !== undefined && sameOwner(e.owner, owner);
  }

  #find(owner: TaskOwner, id: string): Entry {
    this.#sweep();
    const e = this.#tasks.get(id);
    if (!e || !sameOwner(e.owner, owner)) throw new McpError(ErrorCode.InvalidParams, `Failed to retrieve task: there is no task "${id}" (it ended and was discarded, or belongs to another client or profile).`);
    return e;
  }

  async #refresh(e: Entry, signal?: AbortSignal): Promise<void> {
    if (e.upstreamId === undefined || e.terminal) return;
    this.#take(e, (await this.#upstream(e, 'tasks/get', signal)) as Partial<Rev20251125Task>);
  }

  /** Takes the server's view of its task, keeping the gateway's id. */
  #take(e: Entry, r: Partial<Rev20251125Task> | undefined): void {
    if (!r || typeof r !== 'object' || typeof r.status !== 'string') return;
    const { taskId: _theirs, ...rest } = r;
    const next: Rev20251125Task = { ...e.state, ...pickTask(rest), taskId: e.id };
    if (rest.statusMessage === undefined) delete next.statusMessage;
    e.state = next;
  }

  async #upstream(e: Entry, method: string, signal?: AbortSignal): Promise<unknown> {
    try {
      return await this.#relay(e.server, method, { taskId: e.upstreamId }, signal);
    } catch (err) {
      if (err instanceof McpError) throw err;
      const data = toErrorData(err);
      throw new McpError(ErrorCode.InternalError, `${e.server} could not answer ${method} for task "${e.id}": ${data.message}`, data);
    }
  }

  #finish(e: Entry, status: TaskStatus, extra: { result?: Record<string, unknown>; error?: JsonRpcError; statusMessage?: string }): void {
    if (e.terminal) return;
    e.state = { ...e.state, status, lastUpdatedAt: new Date().toISOString() };
    if (extra.statusMessage) e.state.statusMessage = extra.statusMessage;
    if (extra.result) e.result = extra.result;
    if (extra.error) e.error = extra.error;
    e.end();
    this.#onStatus(e.owner, { ...e.state });
  }

  /**
   * Throws when the owner's profile holds MAX_TASKS_PER_PROFILE tasks: asked before a task is
   * made (a server's task included), so that nothing is started that could not be kept.
   */
  assertRoom(owner: TaskOwner): void {
    this.#sweep();
    let n = 0;
    for (const e of this.#tasks.values()) if (e.owner.profile === owner.profile) n++;
    if (n < MAX_TASKS_PER_PROFILE) return;
    // The owner's own finished tasks make room first; another client's are never taken.
    if (this.#evict((x) => sameOwner(x.owner, owner) && x.terminal, 1) > 0) return;
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Profile "${owner.profile}" already holds ${MAX_TASKS_PER_PROFILE} tasks, the most it keeps: wait for some to end (or cancel them), then try again.`,
    );
  }

  /** Drops every task of a session that ended: nobody else can reach them. */
  forgetSession(session: string): void {
    this.#evict((x) => x.owner.session === session, Infinity, 'The client that made the task disconnected.');
  }

  #evict(which: (e: Entry) => boolean, max: number, why = 'Too many tasks: the oldest was discarded.'): number {
    let n = 0;
    for (const e of [...this.#tasks.values()]) {
      if (n >= max) break;
      if (!which(e)) continue;
      this.#discard(e, why);
      n++;
    }
    return n;
  }

  /** Forgets a task and stops it: its call here, or (best effort) the server's own task. */
  #discard(e: Entry, why: string): void {
    this.#tasks.delete(e.id);
    e.abort?.abort(new Error(why));
    if (e.upstreamId !== undefined && !e.terminal) void this.#relay(e.server, 'tasks/cancel', { taskId: e.upstreamId }).catch(() => {});
  }

  #add(e: Entry): void {
    this.assertRoom(e.owner);
    this.#tasks.set(e.id, e);
    const mine = [...this.#tasks.values()].filter((x) => sameBucket(x.owner, e.owner));
    let excess = mine.length - MAX_TASKS_PER_CLIENT;
    // Finished ones go first, oldest first; then, if need be, the oldest still running.
    for (const old of [...mine.filter((x) => x.terminal), ...mine.filter((x) => !x.terminal && x !== e)]) {
      if (excess-- <= 0) break;
      this.#discard(old, 'Too many tasks: the oldest was discarded.');
    }
  }

  /** Drops tasks past their ttl (counted from creation, as the spec does). */
  #sweep(): void {
    const now = Date.now();
    for (const e of [...this.#tasks.values()]) {
      const ttl = e.state.ttl;
      if (ttl === null || now < Date.parse(e.state.createdAt) + ttl) continue;
      this.#discard(e, 'The task outlived its ttl.');
    }
  }
}

export function isTerminal(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A 2025-11-25 task in 2026-07-28 field names (`ttlMs`, `pollIntervalMs`). */
export function rev20260728Task(t: Rev20251125Task): Record<string, unknown> {
  return {
    taskId: t.taskId,
    status: t.status,
    ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttlMs: t.ttl,
    ...(t.pollInterval !== undefined ? { pollIntervalMs: t.pollInterval } : {}),
  };
}

function pickTask(r: Partial<Rev20251125Task>): Partial<Rev20251125Task> {
  const out: Partial<Rev20251125Task> = {};
  if (typeof r.status === 'string') out.status = r.status;
  if (r.ttl === null || typeof r.ttl === 'number') out.ttl = r.ttl;
  if (typeof r.createdAt === 'string') out.createdAt = r.createdAt;
  if (typeof r.lastUpdatedAt === 'string') out.lastUpdatedAt = r.lastUpdatedAt;
  if (typeof r.pollInterval === 'number') out.pollInterval = r.pollInterval;
  if (typeof r.statusMessage === 'string') out.statusMessage = r.statusMessage;
  return out;
}

/**
 * Who may reach a task: the same profile and the same session, or (both sessionless) the same
 * client name too. A name alone is a claim and opens nothing: without a session the task's id
 * must be held as well.
 */
function sameOwner(a: TaskOwner, b: TaskOwner): boolean {
  return sameBucket(a, b) && (a.session !== undefined || a.client === b.client);
}

/**
 * Whose tasks count together against MAX_TASKS_PER_CLIENT: a session's, or all of a profile's
 * sessionless requests (a name rotated on each request would otherwise escape the bound).
 */
function sameBucket(a: TaskOwner, b: TaskOwner): boolean {
  return a.profile === b.profile && a.session === b.session;
}

/** A result as the client gets it: tied to the gateway's task id, not the server's. */
function withRelatedTask(result: Record<string, unknown>, id: string): Record<string, unknown> {
  const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
  return { ...result, _meta: { ...meta, [RELATED_TASK]: { taskId: id } } };
}

function rpcError(err: unknown): JsonRpcError {
  if (err instanceof McpError) return { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  const data = toErrorData(err);
  return { code: ErrorCode.InternalError, message: data.message, data };
}

function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
  ]);
}
