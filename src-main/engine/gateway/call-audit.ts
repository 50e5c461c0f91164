// One tool call on its way through the pipeline (call-pipeline.ts): what its audit entry says
// when it ends, whichever way it was sent upstream.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { AUDIT_ARGS_CHARS, type ApprovalRecord, type AuditEntry, type CallOutcome } from '../../../src-shared/records.ts';
import { CUT_SLACK_CHARS } from '../../../src-shared/codemode/result-text.ts';
import { clientIdField } from '../../../src-shared/client-names.ts';
import { memoStrings } from '../../../src-shared/memo.ts';
import type { CallContext } from './session-base.ts';

/** The client's id field, by its clientInfo name and connector: the catalog's patterns run once per client, not per call. */
const clientIdOf = memoStrings(clientIdField);

export class AuditedCall {
  readonly #audit: (entry: AuditEntry) => void;
  readonly #started = Date.now();
  readonly #profile: string;
  readonly #server: string;
  readonly #tool: string;
  readonly #ctx: CallContext;
  readonly #argBytes: () => number;
  readonly #argsJson: () => string | undefined;
  #approval: ApprovalRecord | undefined;

  constructor(audit: (entry: AuditEntry) => void, profile: string, server: string, tool: string, ctx: CallContext, argBytes: () => number, argsJson: () => string | undefined) {
    this.#audit = audit;
    this.#argBytes = argBytes;
    this.#argsJson = argsJson;
    this.#profile = profile;
    this.#server = server;
    this.#tool = tool;
    this.#ctx = ctx;
  }

  /** Asks the client's approval (code calls that need it); a refusal is audited and thrown. */
  async approve(ask: NonNullable<CallContext['approval']>): Promise<void> {
    const decision = await ask();
    this.#approval = decision.record;
    if (!decision.approved) throw this.refuse('denied', decision.message ?? `denied: ${this.#server}.${this.#tool} was not approved`);
  }

  refuse(code: 'denied' | 'server-unavailable', message: string): SwitchboardError {
    this.#record(code === 'denied' ? 'denied' : 'error', 0, message);
    return new SwitchboardError(code, message);
  }

  finish(result: CallToolResult): void {
    this.#record(result.isError ? 'error' : 'ok', approxBytes(result), result.isError ? firstText(result) : undefined);
  }

  /** Audits a failed call and returns the error to throw. `aborted`: the caller gave up. */
  fail(err: unknown, aborted: boolean): SwitchboardError {
    const code = err instanceof SwitchboardError ? err.code : undefined;
    const outcome: CallOutcome = code === 'timeout' ? 'timeout' : aborted || code === 'cancelled' ? 'cancelled' : 'error';
    const message = err instanceof Error ? err.message : String(err);
    this.#record(outcome, 0, message);
    if (err instanceof SwitchboardError) return err;
    return new SwitchboardError(outcome === 'cancelled' ? 'cancelled' : 'upstream-error', `${this.#server}.${this.#tool} failed: ${message}`);
  }

  #record(outcome: CallOutcome, resultBytes: number, error?: string): void {
    const ctx = this.#ctx;
    // The audit log redacts, then cuts to AUDIT_ARGS_CHARS: it gets the slack past the cut too.
    const json = this.#argsJson();
    const args = json === undefined || json === '{}' ? undefined : json.length > AUDIT_ARGS_CHARS + CUT_SLACK_CHARS ? { args: json.slice(0, AUDIT_ARGS_CHARS + CUT_SLACK_CHARS), argsCut: true } : { args: json };
    this.#audit({
      time: new Date(this.#started).toISOString(),
      client: ctx.client,
      ...clientIdOf(ctx.client, ctx.session?.connector),
      profile: this.#profile,
      server: this.#server,
      tool: this.#tool,
      outcome,
      durationMs: Date.now() - this.#started,
      argBytes: this.#argBytes(),
      resultBytes,
      ...(ctx.runId ? { runId: ctx.runId } : {}),
      ...(error ? { error } : {}),
      ...(this.#approval ? { approval: this.#approval } : {}),
      ...args,
    });
  }
}

/** The error text of an `isError` result, whole: the audit log cuts it (audit-entry-caps.ts). */
function firstText(result: CallToolResult): string | undefined {
  const t = result.content?.find((c) => c.type === 'text');
  return t && 'text' in t ? String(t.text) : undefined;
}

/** Result size for the audit log without serialising huge results twice. */
function approxBytes(result: CallToolResult): number {
  let n = 0;
  for (const c of result.content ?? []) {
    if (c.type === 'text') n += Buffer.byteLength(c.text);
    else if ('data' in c && typeof c.data === 'string') n += c.data.length;
    else n += JSON.stringify(c).length;
  }
  if (result.structuredContent) n += JSON.stringify(result.structuredContent).length;
  return n;
}
