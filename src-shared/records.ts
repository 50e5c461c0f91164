// Audit and run-history record shapes (docs/configuration.md). Both stores and every reader use these.
import type { ResolvedBudgets } from './config/schema.ts';
import { clientDisplayName } from './client-names.ts';

export type CallOutcome = 'ok' | 'error' | 'denied' | 'timeout' | 'cancelled';

/** How a call that needed approval (profile `approvals`) was decided. */
export interface ApprovalRecord {
  decision: 'approved' | 'denied';
  /**
   * Who decided: the calling client (elicitation), the app / control API, nobody in time, the
   * run ending, or the run's own limit (too many waiting at once, or one already timed out).
   */
  by: 'client' | 'app' | 'timeout' | 'cancelled' | 'limit';
  /** How long the call waited for the decision, in ms (the run's clock was paused meanwhile). */
  waitedMs: number;
}

export interface AuditEntry {
  /** ISO 8601. */
  time: string;
  /** The MCP client's name from `initialize` (clientInfo.name), or "unknown". */
  client: string;
  /**
   * The connector id of the client (docs/clients.md), when known: the one its entry names (`--client`),
   * else the one its clientInfo name stands for (src-shared/client-names.ts). Absent for others.
   */
  clientId?: string;
  profile: string;
  server: string;
  tool: string;
  outcome: CallOutcome;
  durationMs: number;
  argBytes: number;
  resultBytes: number;
  /** Present when the call came from an `execute` run. */
  runId?: string;
  /** A sentence for non-ok outcomes. */
  error?: string;
  /** Present when the call needed approval. */
  approval?: ApprovalRecord;
  /**
   * The call's arguments as JSON text, secrets redacted, cut to AUDIT_ARGS_CHARS characters
   * (`argsCut` then). Absent in entries written before it, for calls without arguments, and for
   * arguments over AUDIT_ARGS_MAX_BYTES (not serialized again just to keep a preview).
   */
  args?: string;
  argsCut?: boolean;
  /** Assigned by the audit log when stored (sortable by time); `AuditQuery.before` pages by it. */
  id?: string;
}

/**
 * Calls of one client whose audit entries the size cap removed (oldest first, as the cap
 * does): a client's traffic cannot push earlier records out without this trace of it.
 */
export interface AuditDrop {
  /**
   * The client the removed entries named (its connector id when known, else its clientInfo name);
   * `(other clients)` folds those past the list's bound.
   */
  client: string;
  count: number;
  /** ISO 8601: the oldest and newest removed entry's time. */
  from: string;
  to: string;
}

/** What the size cap removed of one client, as a sentence (`when` formats an ISO time). */
export function auditDropSentence(d: AuditDrop, when: (iso: string) => string): string {
  const calls = `${d.count.toLocaleString('en-US')} call${d.count === 1 ? '' : 's'}`;
  const who = d.client === '(other clients)' ? 'of other clients' : `of "${clientDisplayName(d.client, d.client)}"`;
  return `Removed to keep the audit within its size limit: ${calls} ${who}, made ${when(d.from)} to ${when(d.to)}.`;
}

/** Characters of a call's arguments an audit entry keeps (`args`). */
export const AUDIT_ARGS_CHARS = 4000;
/** Arguments larger than this (bytes of JSON) keep no preview in the audit. */
export const AUDIT_ARGS_MAX_BYTES = 256 * 1024;

export type RunErrorKind = 'syntax' | 'runtime' | 'timeout' | 'memory' | 'budget' | 'aborted';
export const RUN_ERROR_KINDS: readonly RunErrorKind[] = ['syntax', 'runtime', 'timeout', 'memory', 'budget', 'aborted'];

export interface RunError {
  kind: RunErrorKind;
  message: string;
  /**
   * The run failed on the `denied: …` error of a call that needed approval and was not allowed:
   * who said no (`app` or `client`: the person; `timeout`: nobody in time…). Absent otherwise,
   * and in records written before this field (`runRefusal` works those out from `calls`).
   */
  refusedBy?: ApprovalRecord['by'];
}

/**
 * Who refused the approval a failed run stopped on, or undefined when it failed for another
 * reason: a `runtime` failure whose message is a call's `denied: …` error, while one of its calls
 * was denied approval (the last such call decides).
 */
export function runRefusal(error: RunError | undefined, calls: readonly RunCall[]): ApprovalRecord['by'] | undefined {
  if (!error) return undefined;
  if (error.refusedBy) return error.refusedBy;
  if (error.kind !== 'runtime' || !/\bdenied: /.test(error.message)) return undefined;
  return calls.findLast((c) => c.approval?.decision === 'denied')?.approval?.by;
}

/** A failed run's label for people: "Not allowed by you" for a refusal, else the error kind. */
export function runErrorLabel(error: RunError, calls: readonly RunCall[]): string {
  switch (runRefusal(error, calls)) {
    case 'app':
    case 'client':
      return 'Not allowed by you';
    case 'timeout':
      return 'Not answered in time';
    case 'cancelled':
    case 'limit':
      return 'Not allowed: approval ended';
    default:
      return error.kind;
  }
}

export interface RunCall {
  server: string;
  tool: string;
  /** Milliseconds since the run started. */
  start: number;
  duration: number;
  outcome: CallOutcome;
  /** Present when the call needed approval. */
  approval?: ApprovalRecord;
}

export interface LogLine {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

export interface RunRecord {
  id: string;
  time: string;
  profile: string;
  /** The MCP client's name from `initialize` (clientInfo.name), as the client sent it. */
  client: string;
  /** The connector id of the client, when known (as AuditEntry.clientId). */
  clientId?: string;
  code: string;
  logs: LogLine[];
  result?: unknown;
  error?: RunError;
  calls: RunCall[];
  durationMs: number;
  budgets: ResolvedBudgets;
  /** Size of the result text handed back to the client, in characters. */
  resultChars?: number;
  /**
   * Set instead of `result` when the result was too large to keep whole: its JSON text cut as
   * the client was shown it (at most `budgets.maxResultChars`, and the history's own cap).
   */
  resultText?: string;
  /** With `resultText`: characters of the whole result's JSON, before the cut. */
  resultFullChars?: number;
  /** Set when `calls` lists only the first calls: how many the run made. */
  callCount?: number;
  /** A skill's run: the skill's name and the run that called it. */
  skill?: { name: string; parentRunId: string };
}

/** Filters the history browser and `runs` accept. */
export interface RunQuery {
  profile?: string;
  /** A connector id, a client's name as shown ("Gemini CLI") or a raw clientInfo name. */
  client?: string;
  /** "ok" or an error kind. */
  outcome?: 'ok' | RunErrorKind;
  /** ISO times, inclusive. */
  since?: string;
  until?: string;
  text?: string;
  /** Page: runs older than this id. */
  before?: string;
  limit?: number;
}

export interface AuditQuery {
  profile?: string;
  server?: string;
  /** A connector id, a client's name as shown ("Gemini CLI") or a raw clientInfo name. */
  client?: string;
  outcome?: CallOutcome;
  /** Over tool, server and client. */
  text?: string;
  /** ISO times, inclusive. */
  since?: string;
  until?: string;
  /** Page: entries older than this id. */
  before?: string;
  limit?: number;
}
