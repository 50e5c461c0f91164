// The one path of every tool call, from a client or from code: the profile's filter, the tool's
// pin and the server's readiness (admit), the client's approval for code calls that need it,
// the call upstream within callTimeoutSec, and one audit entry (call-audit.ts).
//
// A call goes out over the server's direct lane (direct-calls.ts: written straight onto a ready
// 2025-era stdio connection, answered by id) whenever the server has one. The SDK path (the
// upstream's Client) is taken where the protocol needs it: servers without a lane (2026-07-28,
// remote, still starting), task-augmented calls and tools that run only as tasks. Calls that ask
// a person's approval first, and calls already cancelled, keep the SDK path too.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { AUDIT_ARGS_MAX_BYTES, type AuditEntry } from '../../../src-shared/records.ts';
import type { DirectCalls, DirectProgress } from '../upstream/direct-calls.ts';
import { AuditedCall } from './call-audit.ts';
import type { CallStats, GatewayKnobs } from './knobs.ts';
import type { ProfileView } from './profile-view.ts';
import type { CallContext, CallOrigin, DirectAnswer, DirectCallContext, DirectCallHandle } from './session-base.ts';
import type { UpstreamAccess } from './upstream-access.ts';

export interface CallPipelineDeps {
  upstream: UpstreamAccess;
  audit(entry: AuditEntry): void;
  knobs: GatewayKnobs;
  stats: CallStats;
}

type Args = Record<string, unknown> | undefined;

export class CallPipeline {
  readonly #deps: CallPipelineDeps;

  constructor(deps: CallPipelineDeps) {
    this.#deps = deps;
  }

  /**
   * A tool call whose result is awaited. Throws SwitchboardError for
   * denied/unavailable/timeout/cancelled. `ctx.signal` cancels it.
   */
  call(view: ProfileView, server: string, tool: string, args: Args, ctx: CallContext): Promise<CallToolResult> {
    const lane = ctx.approval || ctx.task || ctx.signal?.aborted ? undefined : this.#lane(server, tool);
    return lane ? this.#awaitLane(lane, view, server, tool, args, ctx) : this.#overSdk(view, server, tool, args, ctx);
  }

  /**
   * A tool call answered through `answer` (the socket's fast path, fast-calls.ts): the result, or
   * the error the SDK path would turn into a tool error; the audit entry is made after it, once
   * the reply is out. Returns undefined, having checked and recorded nothing, when the server
   * offers no direct lane: the caller takes the SDK path then.
   */
  start(view: ProfileView, server: string, tool: string, args: Args, ctx: DirectCallContext, answer: DirectAnswer): DirectCallHandle | undefined {
    const lane = this.#lane(server, tool);
    return lane && this.#overLane(lane, view, server, tool, args, ctx, ctx.progress, answer);
  }

  /** The server's direct lane, when the call may take it. */
  #lane(server: string, tool: string): DirectCalls | undefined {
    const upstream = this.#deps.upstream;
    const lane = this.#deps.knobs.fastPath ? upstream.direct?.(server) : undefined;
    // A tool that runs only as a task needs the task round trips of Upstream.callTool.
    if (!lane || upstream.taskSupport?.(server, tool) === 'required') return undefined;
    return lane;
  }

  /**
   * The pipeline's checks before any call leaves: the profile's filter, the tool's pin, the
   * server's readiness. A refusal is audited and thrown.
   */
  #admit(view: ProfileView, server: string, tool: string, ctx: CallContext, argBytes: () => number, argsJson: () => string | undefined): AuditedCall {
    const call = new AuditedCall(this.#deps.audit, view.name, server, tool, ctx, argBytes, argsJson);
    if (!view.includes(server) || !view.allows(server, tool)) {
      throw call.refuse('denied', `The tool "${tool}" of "${server}" is not available in profile "${view.name}".`);
    }
    const withheld = this.#deps.upstream.withheld?.(server, tool);
    if (withheld) throw call.refuse('denied', withheld);
    const why = this.#deps.upstream.unavailable(server);
    if (why) throw call.refuse('server-unavailable', why);
    return call;
  }

  /**
   * A call to a server still starting (its tools listed from its boot catalog) waits until its
   * start ended, bounded by startWaitMs; the readiness check then says why it is not ready if it
   * is not (failed, still starting), naming it.
   */
  async #awaitStart(server: string, signal?: AbortSignal): Promise<void> {
    if (this.#deps.upstream.unavailable(server) === undefined) return;
    await this.#deps.upstream.settle([server], this.#deps.knobs.startWaitMs, signal);
  }

  async #overSdk(view: ProfileView, server: string, tool: string, args: Args, ctx: CallContext): Promise<CallToolResult> {
    this.#deps.stats.sdkCalls++;
    // A code run's worker counted them: re-serializing a 20 MB argument only to measure it took the engine's thread.
    const argBytes = ctx.argBytes ?? (args === undefined ? 0 : Buffer.byteLength(JSON.stringify(args)));
    await this.#awaitStart(server, ctx.signal);
    const call = this.#admit(view, server, tool, ctx, () => argBytes, () => (args === undefined || argBytes > AUDIT_ARGS_MAX_BYTES ? undefined : JSON.stringify(args)));
    if (ctx.approval) await call.approve(ctx.approval);
    ctx.session?.callStarted(server, ctx.requestId);
    try {
      // The upstream's SDK gives the call a progress token of its own when onProgress is set.
      const result = await this.#deps.upstream.callTool(
        server,
        { name: tool, ...(args !== undefined ? { arguments: args } : {}), ...(ctx.task ? { task: ctx.task } : {}) },
        {
          signal: ctx.signal,
          onProgress: ctx.onProgress,
          ...(ctx.logLevel ? { logLevel: ctx.logLevel } : {}),
          context: ctx.session ? ({ session: ctx.session, requestId: ctx.requestId } satisfies CallOrigin) : undefined,
        },
      );
      call.finish(result);
      return result;
    } catch (err) {
      throw call.fail(err, ctx.signal?.aborted === true);
    } finally {
      ctx.session?.callEnded(server, ctx.requestId);
    }
  }

  /** The same checks and audit entry, the request written straight onto the server's lane. */
  #overLane(lane: DirectCalls, view: ProfileView, server: string, tool: string, args: Args, ctx: CallContext, progress: ((p: DirectProgress) => void) | undefined, answer: DirectAnswer): DirectCallHandle {
    this.#deps.stats.directCalls++;
    // Serialised once: for the wire, and measured for the audit (after the reply).
    const argsJson = args === undefined ? undefined : (ctx.argsJson ?? JSON.stringify(args));
    let call: AuditedCall;
    try {
      call = this.#admit(view, server, tool, ctx, () => (argsJson === undefined ? 0 : Buffer.byteLength(argsJson)), () => argsJson);
    } catch (err) {
      answer({ error: err as SwitchboardError });
      return { cancel: () => undefined };
    }
    ctx.session?.callStarted(server, ctx.requestId);
    const ended = () => ctx.session?.callEnded(server, ctx.requestId);
    const id = lane.call(
      tool,
      argsJson,
      {
        onResult: (result) => {
          answer({ result: result as CallToolResult });
          ended();
          call.finish(result as CallToolResult);
        },
        onError: (err) => {
          answer({ error: err });
          ended();
          call.fail(err, false);
        },
        ...(progress ? { onProgress: progress } : {}),
      },
      ctx.session ? ({ session: ctx.session, requestId: ctx.requestId } satisfies CallOrigin) : undefined,
    );
    return {
      cancel: () => {
        const what = `${server}.${tool}`;
        lane.cancel(id, `${what} was cancelled by the client`);
        ended();
        call.fail(new SwitchboardError('cancelled', `${what} was cancelled`), true);
      },
    };
  }

  /** A lane call as a promise; `ctx.signal` cancels it. */
  #awaitLane(lane: DirectCalls, view: ProfileView, server: string, tool: string, args: Args, ctx: CallContext): Promise<CallToolResult> {
    const signal = ctx.signal;
    return new Promise<CallToolResult>((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => {
        if (settled) return;
        settled = true;
        handle.cancel();
        // Settled a turn later, as on the SDK path: a run's ledger, made as the run ends, lists
        // the call as unfinished (cancelled when the run ended).
        setImmediate(() => reject(new SwitchboardError('cancelled', `${server}.${tool} was cancelled`)));
      };
      const handle = this.#overLane(lane, view, server, tool, args, ctx, ctx.onProgress, (outcome) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if ('result' in outcome) resolve(outcome.result);
        else reject(outcome.error);
      });
      if (!settled) signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
