// The profile's answers to client requests, shared by both protocol generations' sessions: the
// tools surface (names → upstream tool, filter, one call path) and the code surface (execute,
// search_tools, get_schema), resources and prompts routed to the server that owns them.
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type CreateTaskResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type Progress,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { ERROR_META, SwitchboardError, toErrorData, type ErrorData } from '../../../src-shared/errors.ts';
import { EXECUTE, GET_SCHEMA, SEARCH_TOOLS } from './code-tools.ts';
import type { ProfileView, ToolTarget } from './profile-view.ts';
import { rev20260728Task, type Rev20251125Task, type TaskOwner } from './task-bridge.ts';
import type { CallContext, GatewayPort as Gateway, SessionBase } from './session-base.ts';
import { relayed, type RelayedResults } from './sdk-boundary.ts';

export interface ToolCallRequest {
  name: string;
  args: Record<string, unknown> | undefined;
  signal: AbortSignal;
  requestId: RequestId;
  /** Who the audit names: the session's client, or (2026-07-28) the request's own `_meta.clientInfo`. */
  client: string;
  onProgress?: (p: Progress) => void;
  /** A 2026-07-28 caller's log level from its `_meta`. */
  logLevel?: string;
}

export async function listTools(session: SessionBase, signal: AbortSignal): Promise<ListToolsResult> {
  // Servers still starting show their boot catalogs (the tools they showed last time).
  const view = await session.settledView(signal, 'tools');
  session.listed('tools');
  return { tools: view.listTools() };
}

export async function callTool(gateway: Gateway, session: SessionBase, req: ToolCallRequest): Promise<CallToolResult> {
  const view = session.requireView();
  if (view.surface === 'code') return callCodeTool(gateway, session, view, req);
  try {
    const target = view.resolveTool(req.name) ?? (await settledToolTarget(gateway, session, view, req));
    return await gateway.callTool(view, target.server, target.tool, req.args, callContext(session, req));
  } catch (err) {
    if (err instanceof SwitchboardError) return errorResult(err.toData());
    throw err;
  }
}

/**
 * tools/call of a 2025 client that asked to run it as a task (`params.task`): answers `{ task }`
 * at once. A tool its server runs as a task becomes that server's task (routed there from then
 * on); any other call runs here as an ordinary call while the gateway keeps the task.
 */
export async function callToolAsTask(gateway: Gateway, session: SessionBase, req: ToolCallRequest, task: { ttl?: number }): Promise<CreateTaskResult> {
  const view = session.requireView();
  const owner = taskOwner(session, req.client);
  gateway.tasks.assertRoom(owner);
  // The task outlives the request that made it: its call gets the task's own signal.
  const runHere = (server: string, run = (signal: AbortSignal) => callTool(gateway, session, { ...req, signal, onProgress: undefined })) => ({
    task: gateway.tasks.runHere(owner, server, task.ttl, run),
  });
  if (view.surface === 'code') return runHere('(code)');
  const target = await resolveToolTarget(gateway, session, view, req);
  if (!gateway.taskSupport(target.server, target.tool)) return runHere(target.server);
  const created = (await upstreamTaskCall(gateway, session, view, target, req, task)) as { task?: Rev20251125Task };
  if (created.task && typeof created.task.taskId === 'string') return { task: gateway.tasks.adopt(owner, target.server, created.task) };
  // The server answered at once after all: the task is already done.
  return runHere(target.server, async () => created as CallToolResult);
}

/**
 * tools/call of a 2026-07-28 client that declared the tasks extension: when the tool's server
 * runs it as a task, answers that task (`resultType: "task"`); undefined otherwise (the call runs
 * as usual: the receiver decides, and the gateway makes no task of its own for this era).
 */
export async function callToolAsRev20260728Task(gateway: Gateway, session: SessionBase, req: ToolCallRequest): Promise<Record<string, unknown> | undefined> {
  const view = session.requireView();
  if (view.surface === 'code') return undefined;
  const target = await resolveToolTarget(gateway, session, view, req);
  if (!gateway.taskSupport(target.server, target.tool)) return undefined;
  const owner = taskOwner(session, req.client);
  gateway.tasks.assertRoom(owner);
  const created = (await upstreamTaskCall(gateway, session, view, target, req, {})) as { task?: Rev20251125Task };
  if (!created.task || typeof created.task.taskId !== 'string') return created;
  const task = gateway.tasks.adopt(owner, target.server, created.task);
  return { ...rev20260728Task(task), resultType: 'task' };
}

/**
 * Whose a task is: the client's session where it has one (a 2025 session; a 2026-07-28 client's
 * connection on the shim's socket, one session for its life), else (a 2026-07-28 HTTP request)
 * the client that made it on the profile, reached with the task's random id.
 */
export function taskOwner(session: SessionBase, client: string): TaskOwner {
  const bound = session.era === 'legacy' || session.transportKind === 'socket';
  return { profile: session.profile, client, ...(bound ? { session: session.id } : {}) };
}

/** The target of a task-augmented call: a server that cannot take calls is an error here (a task answer has no isError). */
async function resolveToolTarget(gateway: Gateway, session: SessionBase, view: ProfileView, req: ToolCallRequest): Promise<ToolTarget> {
  try {
    return view.resolveTool(req.name) ?? (await settledToolTarget(gateway, session, view, req));
  } catch (err) {
    if (err instanceof SwitchboardError) throw new McpError(ErrorCode.InvalidRequest, err.message, err.toData());
    throw err;
  }
}

/**
 * A name the client learned earlier may belong to a server still starting on a cold engine:
 * look again once it settled. A name of a server of this profile that cannot take calls now
 * throws why (server-unavailable), not "unknown".
 */
async function settledToolTarget(gateway: Gateway, session: SessionBase, view: ProfileView, req: ToolCallRequest): Promise<ToolTarget> {
  const target = (await session.settledView(req.signal)).resolveTool(req.name);
  if (target) return target;
  const server = view.config.namespace === false ? undefined : view.config.servers.find((s) => req.name.startsWith(`${s}__`));
  const why = server === undefined ? undefined : gateway.unavailable(server);
  if (why) throw new SwitchboardError('server-unavailable', why);
  throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${req.name}" in profile "${view.name}". Call tools/list for the available tools.`);
}

/** The task-augmented call through the one call pipeline; a refusal is an error (a task answer has no isError). */
async function upstreamTaskCall(gateway: Gateway, session: SessionBase, view: ProfileView, target: ToolTarget, req: ToolCallRequest, task: { ttl?: number }): Promise<unknown> {
  try {
    return await gateway.callTool(view, target.server, target.tool, req.args, {
      ...callContext(session, req),
      onProgress: undefined,
      task: task.ttl !== undefined ? { ttl: task.ttl } : {},
    });
  } catch (err) {
    if (err instanceof SwitchboardError) throw new McpError(ErrorCode.InvalidRequest, err.message, err.toData());
    throw err;
  }
}

function callContext(session: SessionBase, req: ToolCallRequest): CallContext {
  return { session, requestId: req.requestId, client: req.client, signal: req.signal, onProgress: req.onProgress, logLevel: req.logLevel };
}

async function callCodeTool(gateway: Gateway, session: SessionBase, view: ProfileView, req: ToolCallRequest): Promise<CallToolResult> {
  const { name, args } = req;
  if (name === EXECUTE) {
    const code = args?.code;
    if (typeof code !== 'string') {
      return errorResult({ code: 'bad-request', message: 'syntax: execute needs a "code" argument holding JavaScript, e.g. async () => { return 1 }' });
    }
    // The run waits for starting servers itself (every way to run code does).
    return gateway.execute(view, session, code, req.signal, req.requestId, req.client, req.onProgress);
  }
  view = await session.settledView(req.signal, 'tools');
  const catalog = view.codeCatalog();
  if (name === SEARCH_TOOLS && !catalog.inline) {
    const query = args?.query;
    if (typeof query !== 'string' || query.trim() === '') {
      return errorResult({ code: 'bad-request', message: 'search_tools needs a non-empty "query", e.g. { "query": "create issue" }.' });
    }
    const limit = typeof args?.limit === 'number' ? args.limit : undefined;
    try {
      return jsonResult(catalog.search(query, limit));
    } catch (err) {
      return errorResult(toErrorData(err));
    }
  }
  if (name === GET_SCHEMA && !catalog.inline) {
    const names = args?.names;
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string')) {
      return errorResult({ code: 'bad-request', message: 'get_schema needs "names": a list of tool names as written in code, e.g. ["github.create_issue"].' });
    }
    try {
      return { content: [{ type: 'text', text: catalog.describe(names as string[]) }] };
    } catch (err) {
      return errorResult(toErrorData(err));
    }
  }
  throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}" in code profile "${view.name}". Use execute.`);
}

export async function listResources(session: SessionBase, signal: AbortSignal): Promise<ListResourcesResult> {
  const view = await session.settledView(signal);
  session.listed('resources');
  return { resources: view.listResources() };
}

export async function listResourceTemplates(session: SessionBase, signal: AbortSignal): Promise<ListResourceTemplatesResult> {
  const view = await session.settledView(signal);
  session.listed('resources');
  return { resourceTemplates: view.listResourceTemplates() };
}

export async function listPrompts(session: SessionBase, signal: AbortSignal): Promise<ListPromptsResult> {
  const view = await session.settledView(signal);
  session.listed('prompts');
  return { prompts: view.listPrompts() };
}

// A name the client learned earlier (or from its own config) may belong to a server that is
// still starting on a cold engine: look again once it settled before calling it unknown.

async function promptTarget(session: SessionBase, name: string, signal: AbortSignal): Promise<ToolTarget> {
  const target = session.requireView().promptTarget(name) ?? (await session.settledView(signal)).promptTarget(name);
  if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${name}".`);
  return target;
}

async function resourceServer(session: SessionBase, uri: string, signal: AbortSignal): Promise<string> {
  const server = session.requireView().resourceOwner(uri) ?? (await session.settledView(signal)).resourceOwner(uri);
  if (!server) throw new McpError(ErrorCode.InvalidParams, `No server of profile "${session.profile}" offers the resource "${uri}".`);
  return server;
}

/** resources/read, resources/(un)subscribe: to the server that owns the URI. */
export async function relayResource<M extends 'resources/read' | 'resources/subscribe' | 'resources/unsubscribe'>(
  gateway: Gateway,
  session: SessionBase,
  method: M,
  params: { uri: string },
  signal: AbortSignal,
): Promise<RelayedResults[M]> {
  return relay(gateway, await resourceServer(session, params.uri, signal), method, params, signal);
}

export async function getPrompt(gateway: Gateway, session: SessionBase, params: { name: string }, signal: AbortSignal): Promise<RelayedResults['prompts/get']> {
  const target = await promptTarget(session, params.name, signal);
  return relay(gateway, target.server, 'prompts/get', { ...params, name: target.tool }, signal);
}

export async function complete(
  gateway: Gateway,
  session: SessionBase,
  params: { ref: { type: string; name?: string; uri?: string } },
  signal: AbortSignal,
): Promise<RelayedResults['completion/complete']> {
  const ref = params.ref;
  if (ref.type === 'ref/prompt') {
    const target = await promptTarget(session, String(ref.name), signal);
    return relay(gateway, target.server, 'completion/complete', { ...params, ref: { ...ref, name: target.tool } }, signal);
  }
  return relay(gateway, await resourceServer(session, String(ref.uri), signal), 'completion/complete', params, signal);
}

async function relay<M extends keyof RelayedResults>(gateway: Gateway, server: string, method: M, params: unknown, signal: AbortSignal): Promise<RelayedResults[M]> {
  try {
    return relayed(method, await gateway.request(server, method, params, signal));
  } catch (err) {
    if (err instanceof McpError) throw err;
    const error = toErrorData(err);
    throw new McpError(ErrorCode.InternalError, error.message, error);
  }
}

/**
 * A tool error as the client gets it: the sentence for the model, and the error as data in
 * `_meta` (not structuredContent, which a client checks against the tool's outputSchema).
 */
export function errorResult(error: ErrorData): CallToolResult {
  return { content: [{ type: 'text', text: error.message }], isError: true, _meta: { [ERROR_META]: error } };
}

function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}
