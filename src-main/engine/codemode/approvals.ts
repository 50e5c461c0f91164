// Approvals of tool calls made from code (profile `approvals`): which calls need one, and the
// pending ones, decided by the calling client (elicitation), by the app (control API) or by
// nobody within the approval timeout. The run's clock is held by the caller meanwhile.
import { randomUUID } from 'node:crypto';
import type { Progress, RequestId, Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_APPROVAL_TIMEOUT_SEC, type ApprovalsConfig } from '../../../src-shared/config/schema.ts';
import type { PendingApproval } from '../../../src-shared/api.ts';
import type { ApprovalRecord } from '../../../src-shared/records.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { globMatcher, type NameMatcher } from '../../../src-shared/glob.ts';
import { ALLOW, DONT_ALLOW, approvalQuestion, cutText } from '../../../src-shared/approval-text.ts';
import { clientIdentity } from '../../../src-shared/client-names.ts';
import type { SessionBase } from '../gateway/session-base.ts';

export interface ApprovalAsk {
  profile: string;
  client: string;
  runId: string;
  server: string;
  tool: string;
  /** As written in code, e.g. `github.delete_repo`. */
  codeName: string;
  /** The tool's title (annotations.title, else title) and description, for the person asked. */
  title?: string | undefined;
  description?: string | undefined;
  args: unknown;
  timeoutSec: number;
  /** The client sent a progress token: told every few seconds while the call waits. */
  onProgress?: ((p: Progress) => void) | undefined;
  /** The client whose run made the call: asked through elicitation when it can answer a form. */
  session?: SessionBase;
  requestId?: RequestId;
  /** The run ended (or was cancelled): the wait ends too. */
  signal: AbortSignal;
}

export interface ApprovalDecision {
  approved: boolean;
  record: ApprovalRecord;
  /** For a denial: the message code sees, starting `denied: `. */
  message?: string;
}

/** How often a waiting call tells its client it still waits (a progress token resets the client's request timeout). */
export const APPROVAL_PROGRESS_EVERY_MS = 5000;

const compiled = new WeakMap<ApprovalsConfig, { approve?: NameMatcher; never?: NameMatcher }>();

/** The patterns as globs on `server.tool` (src-shared/glob.ts: `*` spans `/` and `.`). */
function matchers(cfg: ApprovalsConfig): { approve?: NameMatcher; never?: NameMatcher } {
  let m = compiled.get(cfg);
  if (!m) {
    m = {
      ...(cfg.approve?.length ? { approve: globMatcher(cfg.approve) } : {}),
      ...(cfg.never?.length ? { never: globMatcher(cfg.never) } : {}),
    };
    compiled.set(cfg, m);
  }
  return m;
}

/**
 * Whether a call of `server.tool` needs approval under `cfg`. `approve` patterns win over
 * `never` (when in doubt, ask), and both over the annotations, which the server itself claims.
 */
export function needsApproval(cfg: ApprovalsConfig | undefined, server: string, tool: string, def: Pick<Tool, 'annotations'> | undefined): boolean {
  if (!cfg) return false;
  const name = `${server}.${tool}`;
  const m = matchers(cfg);
  if (m.approve?.(name)) return true;
  if (m.never?.(name)) return false;
  const readOnly = def?.annotations?.readOnlyHint === true;
  if (cfg.writes && !readOnly) return true;
  return Boolean(cfg.destructive && !readOnly && def?.annotations?.destructiveHint === true);
}

export function approvalTimeoutSec(cfg: ApprovalsConfig | undefined): number {
  return cfg?.timeoutSec ?? DEFAULT_APPROVAL_TIMEOUT_SEC;
}

/** A client that can answer a form elicitation (an empty `elicitation` capability means form). */
function canAskForm(session: SessionBase | undefined): boolean {
  return session?.acceptsFormElicitation() ?? false;
}

interface Waiting {
  info: PendingApproval;
  decide(approved: boolean, by: ApprovalRecord['by']): void;
}

export class ApprovalCenter {
  readonly #pending = new Map<string, Waiting>();
  readonly #listeners = new Set<(pending: PendingApproval[]) => void>();
  readonly #log: (line: string) => void;

  constructor(opts: { log?: (line: string) => void } = {}) {
    this.#log = opts.log ?? (() => {});
  }

  list(): PendingApproval[] {
    return [...this.#pending.values()].map((w) => w.info);
  }

  /** Told the pending list every time it changes (the tray's notifications, the app's card). */
  onChange(cb: (pending: PendingApproval[]) => void): () => void {
    this.#listeners.add(cb);
    return () => this.#listeners.delete(cb);
  }

  #changed(): void {
    const list = this.list();
    for (const cb of this.#listeners) cb(list);
  }

  /** The app's (or CLI's) decision; the first decision of a call wins. */
  decide(id: string, approved: boolean): void {
    const w = this.#pending.get(id);
    if (!w) throw new SwitchboardError('not-found', `No pending approval "${id}": it was decided already, timed out, or its run ended.`);
    w.decide(approved, 'app');
  }

  ask(req: ApprovalAsk): Promise<ApprovalDecision> {
    const id = randomUUID();
    const started = Date.now();
    const askClient = canAskForm(req.session);
    const who = clientIdentity(req.client, req.session?.connector);
    const info: PendingApproval = {
      id,
      time: new Date(started).toISOString(),
      profile: req.profile,
      client: req.client,
      ...(who.id ? { clientId: who.id } : {}),
      displayName: who.name,
      runId: req.runId,
      server: req.server,
      tool: req.tool,
      name: req.codeName,
      ...(req.title ? { title: cutText(req.title, 120) } : {}),
      ...(req.description ? { description: cutText(req.description, 300) } : {}),
      args: req.args,
      expiresAt: new Date(started + req.timeoutSec * 1000).toISOString(),
      askedClient: askClient,
    };
    return new Promise<ApprovalDecision>((resolve) => {
      const elicitation = new AbortController();
      const decide = (approved: boolean, by: ApprovalRecord['by']): void => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(timer);
        clearInterval(progress);
        req.signal.removeEventListener('abort', onAbort);
        elicitation.abort(new Error('decided elsewhere'));
        const record: ApprovalRecord = { decision: approved ? 'approved' : 'denied', by, waitedMs: Date.now() - started };
        const why =
          by === 'client'
            ? 'the client declined it'
            : by === 'app'
              ? 'it was denied in Switchboard'
              : by === 'timeout'
                ? `no decision came within ${req.timeoutSec} s`
                : 'the run ended while it waited';
        this.#log(`approval of ${req.codeName} (run ${req.runId}): ${record.decision} by ${by} after ${record.waitedMs} ms`);
        resolve(approved ? { approved, record } : { approved, record, message: `denied: ${req.codeName} needs approval and ${why}` });
        this.#changed();
      };
      const timer = setTimeout(() => decide(false, 'timeout'), req.timeoutSec * 1000);
      timer.unref();
      // A client that sent a progress token hears from the call while it waits, at once and then
      // every few seconds, so its own request timeout (reset by progress) does not end it.
      const tell = (): void => {
        const waited = Math.floor((Date.now() - started) / 1000);
        req.onProgress?.({
          progress: waited,
          total: req.timeoutSec,
          message: askClient ? 'Waiting for your answer to the approval question…' : 'Waiting for your approval in Switchboard…',
        });
      };
      const progress = req.onProgress ? setInterval(tell, APPROVAL_PROGRESS_EVERY_MS) : undefined;
      progress?.unref();
      const onAbort = (): void => decide(false, 'cancelled');
      req.signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, { info, decide });
      this.#changed();
      if (req.signal.aborted) return onAbort();
      if (req.onProgress) tell();
      if (askClient) void this.#elicit(req, elicitation.signal).then((answer) => answer !== undefined && decide(answer, 'client'));
    });
  }

  /** Asks the calling client; undefined when it could not answer (the app's card still can). */
  async #elicit(req: ApprovalAsk, signal: AbortSignal): Promise<boolean | undefined> {
    try {
      const r = (await req.session!.forwardRequest(
        {
          method: 'elicitation/create',
          params: {
            message: approvalQuestion({ client: clientIdentity(req.client, req.session?.connector).name, name: req.codeName, title: req.title, description: req.description, args: req.args }),
            // One choice whose words say what it does, preselected to Allow: Accept as shown
            // allows, Decline (or picking "Don't allow") denies. A checkbox could be left
            // unticked and accepted, which read as yes and was a no.
            requestedSchema: {
              type: 'object',
              properties: {
                decision: { type: 'string', title: 'Your answer', description: "Allow runs the tool once. Don't allow: it will not run.", enum: [ALLOW, DONT_ALLOW], default: ALLOW },
              },
              required: ['decision'],
            },
          },
        },
        signal,
        req.requestId,
      )) as { action?: string; content?: { decision?: unknown } };
      // Accept means allow unless the answer says otherwise (a client that shows no field sends none).
      return r.action === 'accept' && (r.content?.decision === undefined || r.content.decision === ALLOW);
    } catch (err) {
      if (!signal.aborted) this.#log(`approval of ${req.codeName}: the client could not be asked (${err instanceof Error ? err.message : String(err)}); waiting for the app`);
      return undefined;
    }
  }

  /** Denies every pending approval (the engine is stopping). */
  dispose(): void {
    for (const w of [...this.#pending.values()]) w.decide(false, 'cancelled');
  }
}
