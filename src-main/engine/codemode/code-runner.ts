// `execute`, end to end: open a run, hand the code to a sandbox worker, serve its tool calls
// through the gateway (filters, upstream, audit), format the text, close the run record.
import type { CallToolResult, Progress, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { runRefusal, type RunCall, type RunError, type RunErrorKind, type RunRecord } from '../../../src-shared/records.ts';

import { unwrapToolResult } from '../../../src-shared/codemode/unwrap.ts';
import { formatRunText } from '../../../src-shared/codemode/result-text.ts';
import { formatLedger, type LedgerCall } from '../../../src-shared/codemode/ledger.ts';
import { shapeOf } from '../../../src-shared/codemode/shapes.ts';
import type { Gateway, ServerReadiness } from '../gateway/gateway.ts';
import type { ProfileView } from '../gateway/profile-view.ts';
import type { SessionBase } from '../gateway/session-base.ts';
import type { RunStore } from '../records/run-store.ts';
import type { SandboxHost, SandboxOutcome, SandboxPool } from './sandbox-pool.ts';
import type { LearnedTypes } from './learned-types.ts';
import { ResultTooLarge, keptNote, type ResultHandles } from './result-handles.ts';
import { calleeAt, readinessNote, unknownMethodHint, unknownNameHint } from './sandbox-hints.ts';
import { SKILLS_GLOBAL, SKILLS_SERVER } from '../../../src-shared/codemode/catalog.ts';
import { approvalTimeoutSec, needsApproval, type ApprovalCenter, type ApprovalDecision } from './approvals.ts';
import { inputProblem, type SkillStore } from './skills.ts';
import type { SkillRecord } from '../../../src-shared/codemode/skill-catalog.ts';
import { clientIdField } from '../../../src-shared/client-names.ts';

/** The record's error; a run that failed on a refused approval says who refused it. */
function runError(kind: RunErrorKind, message: string, calls: readonly RunCall[]): RunError {
  const refusedBy = runRefusal({ kind, message }, calls);
  return { kind, message, ...(refusedBy ? { refusedBy } : {}) };
}

export interface CodeRunnerDeps {
  sandbox: SandboxPool;
  runs: RunStore;
  gateway: () => Gateway;
  log: (line: string) => void;
  /** Where results over maxResultChars are kept, for profiles with codeMode.results. */
  results?: ResultHandles;
  /** Learns return types from results, for profiles with codeMode.learnedTypes. */
  learned?: LearnedTypes;
  /** Profile `approvals`: pending calls from code. */
  approvals?: ApprovalCenter;
  /** Profile `codeMode.skills`: saved runs callable from code. */
  skills?: SkillStore;
}

/** A skill's call: its own run, linked to the run that called it. */
interface SkillRun {
  skill: SkillRecord;
  parentRunId: string;
  input: unknown;
  /** Stops the calling run's clock too while this run waits for an approval. */
  holdParent: () => () => void;
}

export interface RunCaller {
  client: string;
  /** The client's execute request, so server requests during the run reach the right stream. */
  requestId?: RequestId;
  session?: SessionBase;
  /** The client sent a progress token with its execute call: told while a call waits for approval. */
  onProgress?: (p: Progress) => void;
}

export class CodeRunner {
  readonly #deps: CodeRunnerDeps;

  constructor(deps: CodeRunnerDeps) {
    this.#deps = deps;
  }

  async execute(view: ProfileView, caller: RunCaller, code: string, signal?: AbortSignal): Promise<CallToolResult & { runId: string }> {
    const { runId, formatted } = await this.#run(view, caller, code, signal);
    return {
      content: [{ type: 'text', text: formatted.text }],
      ...(formatted.isError ? { isError: true } : {}),
      runId,
    };
  }

  /** A skill called from code (`skills.NAME(input)`): a run of its own, its value the call's result. */
  async #callSkill(
    view: ProfileView,
    caller: RunCaller,
    skill: SkillRecord,
    input: unknown,
    parent: { runId: string; hold: () => () => void; signal: AbortSignal },
  ): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
    const problem = inputProblem(skill.input, input ?? {});
    if (problem) return { ok: false, message: `skills.${skill.name}: ${problem} (see its declaration for the input it takes)` };
    const { runId, outcome } = await this.#run(view, caller, skill.code, parent.signal, { skill, parentRunId: parent.runId, input: input ?? {}, holdParent: parent.hold });
    if (outcome.ok) return { ok: true, value: outcome.returnedUndefined ? undefined : outcome.value };
    return { ok: false, message: `skills.${skill.name} failed in its run ${runId}: ${outcome.kind}: ${outcome.message}` };
  }

  async #run(view: ProfileView, caller: RunCaller, code: string, signal: AbortSignal | undefined, skillRun?: SkillRun) {
    const runId = this.#deps.runs.newId();
    const started = Date.now();
    // Durations in fractions of a millisecond: a trivial run takes less than one.
    const t0 = performance.now();
    const since = () => Math.round((performance.now() - t0) * 100) / 100;
    const calls: RunCall[] = [];
    // What a failed run's text lists (ledger.ts): the calls as written in code, and the last result.
    const ledger: LedgerCall[] = [];
    let lastResult: { name: string; value: unknown } | undefined;
    const gateway = this.#deps.gateway();
    // The globals are made from the servers that are ready: on a cold engine, wait (bounded)
    // for those still starting, or the first run finds no servers at all.
    const stillStarting = await gateway.settle(view, signal);
    if (stillStarting.length) this.#deps.log(`run ${runId} of ${view.name} starts while ${stillStarting.join(', ')} ${stillStarting.length === 1 ? 'is' : 'are'} still starting`);
    const catalog = view.codeCatalog();
    const unready = gateway.readiness(view);
    const keeps = view.codeMode.results ? this.#deps.results : undefined;
    const learned = view.codeMode.learnedTypes ? this.#deps.learned : undefined;
    // A skill's run has no `skills` global: skills do not call skills (each call holds a worker).
    const globals = skillRun ? withoutSkills(catalog.globals) : catalog.globals;
    const waiting: ApprovalWaits = { pending: 0, timedOut: false };
    const host: SandboxHost = {
      callTool: async (global, method, args, callSignal, hold, argBytes, argsJson) => {
        const target = skillRun && global === SKILLS_GLOBAL ? undefined : catalog.resolve(global, method);
        if (!target) return { ok: false, message: `${global}.${method} is not a tool of this profile.` };
        const isSkill = target.server === SKILLS_SERVER;
        const call: RunCall = { server: isSkill ? SKILLS_GLOBAL : target.server, tool: target.tool, start: since(), duration: 0, outcome: 'ok' };
        calls.push(call);
        const entry: LedgerCall = { name: `${global}.${method}`, argsJson: argsJson !== undefined ? ledgerPrefix(argsJson) : ledgerArgs(args), durationMs: 0 };
        ledger.push(entry);
        if (isSkill) {
          const skill = this.#deps.skills?.get(target.tool);
          try {
            if (!skill) return { ok: false, message: `skills.${target.tool} was removed.` };
            const r = await this.#callSkill(view, caller, skill, args, { runId, hold, signal: callSignal });
            if (!r.ok) call.outcome = callSignal.aborted ? 'cancelled' : 'error';
            return r;
          } finally {
            call.duration = Math.round((since() - call.start) * 100) / 100;
            entry.outcome = call.outcome;
            entry.durationMs = call.duration;
          }
        }
        const approvals = view.config.approvals;
        const center = this.#deps.approvals;
        const approval =
          center && approvals && needsApproval(approvals, target.server, target.tool, view.toolDefinition(target.server, target.tool))
            ? async () => {
                // A run cannot keep a worker for hours on approvals nobody gives: once one timed
                // out, and past a few at once, its further calls are denied without asking.
                const refused = approvalLimit(waiting, `${global}.${method}`);
                if (refused) {
                  call.approval = refused.record;
                  return refused;
                }
                // The run's clock stops while a person decides; the approval timeout bounds the wait.
                waiting.pending++;
                const release = hold();
                const releaseParent = skillRun?.holdParent();
                try {
                  const definition = view.toolDefinition(target.server, target.tool);
                  const d = await center.ask({
                    profile: view.name,
                    client: caller.client,
                    title: definition?.annotations?.title ?? definition?.title,
                    description: definition?.description,
                    runId,
                    server: target.server,
                    tool: target.tool,
                    codeName: `${global}.${method}`,
                    args: args ?? {},
                    timeoutSec: approvalTimeoutSec(approvals),
                    session: caller.session,
                    requestId: caller.requestId,
                    onProgress: caller.onProgress,
                    signal: callSignal,
                  });
                  call.approval = d.record;
                  if (d.record.by === 'timeout') waiting.timedOut = true;
                  return d;
                } finally {
                  waiting.pending--;
                  release();
                  releaseParent?.();
                }
              }
            : undefined;
        try {
          const callArgs = (args ?? undefined) as Record<string, unknown> | undefined;
          const ctx = { session: caller.session, requestId: caller.requestId, client: caller.client, runId, signal: callSignal, argBytes, argsJson };
          const result = await gateway.callTool(view, target.server, target.tool, callArgs, approval ? { ...ctx, approval } : ctx);
          call.outcome = result.isError ? 'error' : 'ok';
          const unwrapped = unwrapToolResult(result);
          if (unwrapped.ok) {
            lastResult = { name: entry.name, value: unwrapped.value };
            if (learned) {
              const definition = view.toolDefinition(target.server, target.tool);
              if (definition) learned.observe(target.server, definition, unwrapped.value);
            }
          }
          return unwrapped;
        } catch (err) {
          const e = err instanceof SwitchboardError ? err : undefined;
          call.outcome = e?.code === 'timeout' ? 'timeout' : e?.code === 'denied' ? 'denied' : callSignal.aborted ? 'cancelled' : 'error';
          return { ok: false, message: err instanceof Error ? err.message : String(err) };
        } finally {
          call.duration = Math.round((since() - call.start) * 100) / 100;
          entry.outcome = call.outcome;
          entry.durationMs = call.duration;
        }
      },
      search: async (query, limit) => catalog.search(query, limit),
      describe: async (names) => catalog.describe(names),
      ...(keeps
        ? {
            results: (op: 'get' | 'query', args: unknown[]) =>
              op === 'get' ? keeps.get(view.name, args[0], args[1]) : keeps.query(view.name, args[0], args[1]),
          }
        : {}),
    };
    const outcome: SandboxOutcome = await this.#deps.sandbox.run(
      // A skill's run waits on its own share: its caller holds a place of the profile's meanwhile.
      {
        code,
        budgets: view.budgets,
        globals,
        share: skillRun ? `${view.name} (skills)` : view.name,
        ...(keeps ? { results: true } : {}),
        // A skill's value goes back to the calling run whole, however long its text.
        ...(skillRun ? { input: skillRun.input, wholeValue: true } : {}),
      },
      host,
      signal,
    );
    if (!outcome.ok && unready.length) outcome.hint = readinessHint(outcome, code, globals, unready, stillStarting);
    const failedLedger =
      !outcome.ok && view.codeMode.ledger
        ? formatLedger(
            ledger.map((e, i) => (e.outcome === undefined ? { ...e, durationMs: Math.round((since() - calls[i]!.start) * 100) / 100 } : e)),
            lastResult && { name: lastResult.name, shape: shapeOf(lastResult.value) },
          )
        : undefined;
    const formatted = await this.#formatKeeping(view, outcome, keeps, failedLedger);
    const record: RunRecord = {
      id: runId,
      time: new Date(started).toISOString(),
      profile: view.name,
      client: caller.client,
      ...clientIdField(caller.client, caller.session?.connector),
      code,
      logs: outcome.logs,
      calls,
      durationMs: since(),
      budgets: view.budgets,
      resultChars: formatted.text.length,
      ...(skillRun ? { skill: { name: skillRun.skill.name, parentRunId: skillRun.parentRunId } } : {}),
      ...(outcome.ok ? recordResult(outcome) : { error: runError(outcome.kind, outcome.message, calls) }),
    };
    this.#deps.runs.append(record);
    return { runId, outcome, formatted };
  }

  /**
   * The run's text; a result cut at maxResultChars is kept first (when the profile keeps
   * results) so that the note names a handle that exists.
   */
  async #formatKeeping(view: ProfileView, outcome: SandboxOutcome, keeps: ResultHandles | undefined, ledger: string | undefined) {
    const max = view.budgets.maxResultChars;
    // The worker hands a cut result's JSON over (`keep`) only when it was asked to keep results.
    const json = outcome.ok ? outcome.keep : undefined;
    const text = outcome.ok ? outcome.text : undefined;
    if (!keeps || !json || !text) return formatRunText(outcome, max, { ledger });
    let handle: string | undefined;
    const kept = formatRunText(outcome, max, { whenCut: () => keptNote((handle = keeps.newHandle()), text) });
    if (handle === undefined) return kept;
    try {
      await keeps.keepJson(view.name, handle, json);
      return kept;
    } catch (err) {
      const why = err instanceof ResultTooLarge ? `It is too large to keep for later runs (${err.message})` : 'It could not be kept for later runs';
      if (!(err instanceof ResultTooLarge)) this.#deps.log(`keeping a result of ${view.name}: ${err instanceof Error ? err.message : String(err)}`);
      return formatRunText(outcome, max, { whenCut: () => why });
    }
  }
}

/**
 * A run's result for its record: the value when the worker sent it (it fits maxResultChars),
 * else the start of the text the worker made and the true size; the engine never had the value.
 */
function recordResult(outcome: Extract<SandboxOutcome, { ok: true }>): Pick<RunRecord, 'result' | 'resultText' | 'resultFullChars'> {
  if (outcome.returnedUndefined) return { result: null };
  if (outcome.value !== undefined || !outcome.text) return { result: outcome.value };
  return { resultText: outcome.text.head, resultFullChars: outcome.text.chars };
}

/** A call's arguments as compact JSON for the ledger (the ledger shows a short prefix of it). */
function ledgerArgs(args: unknown): string | undefined {
  if (args === undefined || args === null) return undefined;
  try {
    const json = JSON.stringify(args);
    return json === undefined ? undefined : json.slice(0, 200);
  } catch {
    return undefined;
  }
}

/** The ledger's prefix of arguments the worker serialised already (`null` stands for none, as in ledgerArgs). */
function ledgerPrefix(argsJson: string): string | undefined {
  return argsJson === 'null' ? undefined : argsJson.slice(0, 200);
}

/** Calls of one run waiting for approval at once, at most. */
const MAX_PENDING_APPROVALS_PER_RUN = 8;

interface ApprovalWaits {
  pending: number;
  /** An approval of this run timed out: nobody is there to decide. */
  timedOut: boolean;
}

function approvalLimit(w: ApprovalWaits, codeName: string): ApprovalDecision | undefined {
  const why = w.timedOut
    ? 'an earlier call of this run waited for approval until it timed out, so nobody is deciding'
    : w.pending >= MAX_PENDING_APPROVALS_PER_RUN
      ? `${MAX_PENDING_APPROVALS_PER_RUN} calls of this run already wait for approval`
      : undefined;
  if (!why) return undefined;
  return { approved: false, record: { decision: 'denied', by: 'limit', waitedMs: 0 }, message: `denied: ${codeName} needs approval and ${why}` };
}

function withoutSkills(globals: Record<string, string[]>): Record<string, string[]> {
  const out = { ...globals };
  delete out[SKILLS_GLOBAL];
  return out;
}


/**
 * The hint of a failed run, told which of the profile's servers are not serving it: the worker
 * only knows the globals it was given, so a missing server or a withheld tool would read as a
 * typo, or as "no servers" on a cold engine.
 */
function readinessHint(
  failure: Extract<SandboxOutcome, { ok: false }>,
  code: string,
  globals: Record<string, string[]>,
  unready: ServerReadiness[],
  stillStarting: string[],
): string | undefined {
  const unknown = /^ReferenceError: '?([^' ]+)'? is not defined/.exec(failure.message);
  if (unknown) return unknownNameHint(unknown[1]!, globals, unready);
  if (/^TypeError: .*not a function/.test(failure.message) && failure.line !== undefined) {
    const callee = calleeAt(code, failure.line, failure.column ?? 1);
    const hint = callee && unknownMethodHint(callee.object, callee.property, globals, unready);
    if (hint) return hint;
  }
  // Any other failure names only the servers the run started without because they were still
  // starting (a failed server is named where it matters: when code reaches for it).
  const note = readinessNote(unready.filter((r) => stillStarting.includes(r.server)));
  return [failure.hint, note].filter(Boolean).join(' ') || undefined;
}
