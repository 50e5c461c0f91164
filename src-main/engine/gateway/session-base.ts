// What every connected client is to the gateway, whichever protocol generation it speaks: its
// profile view, the calls it has in flight per server (so a server's request mid-call goes back
// to the client that made the call), and the ways to reach it.
import type { CallToolResult, Progress, RequestId, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { InputBridge } from './input-bridge.ts';
import type { SwitchboardError } from '../../../src-shared/errors.ts';
import { TASKS_EXTENSION, type TaskBridge } from './task-bridge.ts';
import type { CallLogRelay } from '../upstream/call-logs.ts';
import type { RecentClients } from './recent-clients.ts';
import type { ApprovalRecord } from '../../../src-shared/records.ts';
import type { StatusClient } from '../../../src-shared/api.ts';
import type { ProfileView } from './profile-view.ts';
import type { BootAnswers } from './boot-answers.ts';
import { isLimitedClient, limitedClientFor, type LimitedClientId } from '../../../src-shared/client-limits.ts';

/** Who made a call: handed to the upstream with the call and back with its server requests. */
export interface CallOrigin {
  session: SessionBase;
  /** The client's request (tools/call or execute) the call serves. */
  requestId?: RequestId;
}

export interface CallContext {
  session?: SessionBase;
  requestId?: RequestId;
  client: string;
  runId?: string;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Code calls that need approval: asked once the call passed the profile's checks. */
  approval?: () => Promise<{ approved: boolean; record: ApprovalRecord; message?: string }>;
  /** Bytes of the arguments as JSON when the caller counted them already (a code run's worker). */
  argBytes?: number;
  /** The arguments as compact JSON when the caller serialised them already (a code run's worker): sent as they are. */
  argsJson?: string;
  /** The 2026-07-28 caller's log level (`_meta`): a 2026 server is asked to log at it during the call. */
  logLevel?: string;
  /** Ask the server to run the call as a task (2025-11-25 `params.task`): it answers `{ task }`. */
  task?: { ttl?: number };
}

/** A fast-path call's context: progress (when the client asked for it) goes straight to the client. */
export interface DirectCallContext extends CallContext {
  progress?: (p: Progress) => void;
}
/** How a fast-path call ends for its client: the result, or the error the SDK path would make a tool error of. */
export type DirectAnswer = (outcome: { result: CallToolResult } | { error: SwitchboardError }) => void;
export interface DirectCallHandle {
  /** The client cancelled: the server is told, the call audited as cancelled, nothing answered. */
  cancel(): void;
}

/** What a session needs of the gateway (the Gateway is one; a small interface keeps the modules apart). */
export interface GatewayPort {
  readonly version: string;
  /** Where a 2025 session on the shim's socket keeps its client's boot answer (boot-answers.ts). */
  readonly bootAnswers?: BootAnswers;
  readonly inputs: InputBridge;
  readonly tasks: TaskBridge;
  readonly callLogs: CallLogRelay;
  readonly recentClients: RecentClients;
  /** Whether a server runs this tool as a task of its own (a 2025 server offering tasks). */
  taskSupport(server: string, tool: string): 'optional' | 'required' | undefined;
  view(profile: string): ProfileView | undefined;
  settle(view: ProfileView, signal?: AbortSignal, kind?: 'tools'): Promise<string[]>;
  callTool(view: ProfileView, server: string, tool: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult>;
  /** Whether the shim's socket takes the fast path (fast-calls.ts); off for the bench's side-by-side (knobs.ts). */
  readonly knobs?: { readonly fastPath: boolean };
  /** Counts of calls by path (tests and the bench see which path a call took). */
  readonly stats?: { fastExecutes: number };
  /** The same pipeline answering through a callback (call-pipeline.ts); undefined: take callTool. */
  callToolDirect?(view: ProfileView, server: string, tool: string, args: Record<string, unknown> | undefined, ctx: DirectCallContext, answer: DirectAnswer): DirectCallHandle | undefined;
  execute(view: ProfileView, session: SessionBase, code: string, signal: AbortSignal, requestId?: RequestId, client?: string, onProgress?: (p: Progress) => void): Promise<CallToolResult>;
  request(server: string, method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Why a server cannot take calls now (starting, failed, waiting for approval…), or undefined when it is ready. */
  unavailable(server: string): string | undefined;
  /** The client changed its roots (servers that follow them ask again). */
  clientRootsChanged(session: SessionBase): void;
}

export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * A session's protocol revision, in the words status --json reports it (`era`) and the SDKs use:
 * 'legacy' is 2025-11-25 (initialize, then a session), 'modern' is 2026-07-28 (stateless).
 */
export type SessionEra = NonNullable<StatusClient['era']>;

export interface SessionInit {
  id: string;
  profile: string;
  view: ProfileView;
  gateway: GatewayPort;
  transportKind: 'socket' | 'http';
  /** The connector id the shim was started with (`--client`), when its entry names one. */
  connector?: string;
  /** Extensions of the profile's servers, announced as the gateway's own. */
  extensions?: Record<string, object>;
}

/** How the gateway names itself to a client of a profile. */
export function profileServerInfo(profile: string, version: string): { name: string; title: string; version: string } {
  return { name: `switchboard-${profile}`, title: `Switchboard · ${profile}`, version };
}

/**
 * What a profile offers a client, in both eras (logging too: a 2025 session hears every message of
 * its servers, a 2026-07-28 request those of its call at the level its `_meta` names, see
 * call-logs.ts). Tasks in both: 2025-11-25's core `tasks`
 * capability (any tools/call may ask to run as a task), 2026-07-28's tasks extension.
 */
export function profileCapabilities(era: SessionEra, extensions?: Record<string, object>): Record<string, object> {
  const ext = era === 'modern' ? { ...extensions, [TASKS_EXTENSION]: {} } : extensions;
  return {
    tools: { listChanged: true },
    resources: { listChanged: true, subscribe: true },
    prompts: { listChanged: true },
    logging: {},
    ...(era === 'legacy' ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
    completions: {},
    ...(ext ? { extensions: ext } : {}),
  };
}

export abstract class SessionBase {
  readonly id: string;
  readonly profile: string;
  readonly transportKind: 'socket' | 'http';
  /** The connector id of the client's entry (SessionInit.connector). */
  readonly connector: string | undefined;
  readonly since = new Date().toISOString();
  view: ProfileView | undefined;
  lastActive = Date.now();
  onclose?: () => void;
  /** Which protocol generation the client speaks on this session. */
  abstract readonly era: SessionEra;
  protected readonly gateway: GatewayPort;
  /** Client requests with upstream calls in flight, per server, oldest first. */
  protected readonly inflightRequests = new Map<string, RequestId[]>();

  constructor(init: SessionInit) {
    this.id = init.id;
    this.profile = init.profile;
    this.view = init.view;
    this.transportKind = init.transportKind;
    this.connector = init.connector;
    this.gateway = init.gateway;
  }

  abstract get clientName(): string;
  /** Whether the client can answer this server→client request. */
  abstract accepts(method: string): boolean;
  /** Whether the client can answer a form elicitation (an empty `elicitation` capability means form). */
  acceptsFormElicitation(): boolean {
    const caps = this.elicitationCapability();
    if (!caps) return false;
    return Object.keys(caps).length === 0 || caps.form !== undefined;
  }
  /** The client's declared `elicitation` capability, if any. */
  protected abstract elicitationCapability(): Record<string, unknown> | undefined;
  abstract forwardRequest(request: ServerRequest, signal?: AbortSignal, relatedRequestId?: RequestId): Promise<unknown>;
  abstract forwardNotification(server: string, notification: ServerNotification): void;
  abstract notifyListChanged(kind: ListKind): void;
  abstract close(): Promise<void>;

  /** Which client with known limits this is (from its clientInfo), if any. */
  /**
   * The client with known limits this is: named by its clientInfo, else by the connector that
   * wrote its entry (a client whose clientInfo is vague, or not sent yet, is still known).
   */
  get limitedClient(): LimitedClientId | undefined {
    return limitedClientFor(this.clientName) ?? this.#connectorLimited;
  }

  /** How limitedClient was known, when it is. */
  get limitsFrom(): 'clientInfo' | 'connector' | undefined {
    if (limitedClientFor(this.clientName)) return 'clientInfo';
    return this.#connectorLimited ? 'connector' : undefined;
  }

  get #connectorLimited(): LimitedClientId | undefined {
    const c = this.connector;
    return c !== undefined && isLimitedClient(c) ? c : undefined;
  }

  /** The profile as this client gets it: with the profile's `clients` entry for it applied. */
  get clientView(): ProfileView | undefined {
    return this.view?.forClient(this.limitedClient);
  }

  requireView(): ProfileView {
    const view = this.clientView;
    if (!view) throw new McpError(ErrorCode.InvalidRequest, `The profile "${this.profile}" was removed from config.json.`);
    this.lastActive = Date.now();
    return view;
  }

  /** The view once the profile's starting servers settled (bounded): what a cold engine answers from. */
  async settledView(signal?: AbortSignal, kind?: 'tools'): Promise<ProfileView> {
    await this.gateway.settle(this.requireView(), signal, kind);
    return this.requireView();
  }

  /** The client got (or is about to get) a list computed now. */
  listed(_kind: ListKind): void {}

  setView(view: ProfileView, changed: boolean): void {
    this.view = view;
    if (changed) this.notifyListChanged('tools');
  }

  profileRemoved(): void {
    this.view = undefined;
    this.notifyListChanged('tools');
  }

  callStarted(server: string, requestId?: RequestId): void {
    if (requestId !== undefined) {
      const ids = this.inflightRequests.get(server) ?? [];
      ids.push(requestId);
      this.inflightRequests.set(server, ids);
    }
    this.lastActive = Date.now();
  }

  callEnded(server: string, requestId?: RequestId): void {
    const ids = this.inflightRequests.get(server);
    if (ids && requestId !== undefined) {
      const i = ids.indexOf(requestId);
      if (i >= 0) ids.splice(i, 1);
      if (ids.length === 0) this.inflightRequests.delete(server);
    }
  }
}
