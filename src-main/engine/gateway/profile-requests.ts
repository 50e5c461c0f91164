// The profile's answers to client requests, shared by both protocol generations' sessions: the
// tools surface (names → upstream tool, filter, one call path) and the code surface (execute,
// search_tools, get_schema), resources and prompts routed to the server that owns them.
import { ErrorCode, McpError, type CallToolResult, type Progress, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_META, SwitchboardError, toErrorData, type ErrorData } from '../../../src-shared/errors.ts';
import { EXECUTE, GET_SCHEMA, SEARCH_TOOLS } from '../codemode/code-tools.ts';
import type { ProfileView, ToolTarget } from './profile-view.ts';
import type { GatewayPort as Gateway, SessionBase } from './session-base.ts';

export interface ToolCallRequest {
  name: string;
  args: Record<string, unknown> | undefined;
  signal: AbortSignal;
  requestId: RequestId;
  /** Who the audit names: the session's client, or (2026-07-28) the request's own `_meta.clientInfo`. */
  client: string;
  onProgress?: (p: Progress) => void;
}

export async function listTools(session: SessionBase, signal: AbortSignal): Promise<{ tools: unknown[] }> {
  const view = await session.settledView(signal);
  session.listed('tools');
  return { tools: view.listTools() };
}

export async function callTool(gateway: Gateway, session: SessionBase, req: ToolCallRequest): Promise<CallToolResult> {
  const view = session.requireView();
  if (view.surface === 'code') return callCodeTool(gateway, session, view, req);
  // A name the client learned earlier may belong to a server still starting on a cold engine.
  const target = view.resolveTool(req.name) ?? (await session.settledView(req.signal)).resolveTool(req.name);
  if (!target) {
    // A name of a server of this profile that cannot take calls now: say why, not "unknown".
    const server = view.config.namespace === false ? undefined : view.config.servers.find((s) => req.name.startsWith(`${s}__`));
    const why = server === undefined ? undefined : gateway.unavailable(server);
    if (why) return errorResult({ code: 'server-unavailable', message: why });
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${req.name}" in profile "${view.name}". Call tools/list for the available tools.`);
  }
  try {
    return await gateway.callTool(view, target.server, target.tool, req.args, {
      session,
      requestId: req.requestId,
      client: req.client,
      signal: req.signal,
      onProgress: req.onProgress,
    });
  } catch (err) {
    if (err instanceof SwitchboardError) return errorResult(err.toData());
    throw err;
  }
}

async function callCodeTool(gateway: Gateway, session: SessionBase, view: ProfileView, req: ToolCallRequest): Promise<CallToolResult> {
  const { name, args } = req;
  if (name === EXECUTE) {
    const code = args?.code;
    if (typeof code !== 'string') {
      return errorResult({ code: 'bad-request', message: 'syntax: execute needs a "code" argument holding JavaScript, e.g. async () => { return 1 }' });
    }
    // The run waits for starting servers itself (every way to run code does).
    return gateway.execute(view, session, code, req.signal, req.requestId, req.client);
  }
  view = await session.settledView(req.signal);
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

export async function listResources(session: SessionBase, signal: AbortSignal): Promise<{ resources: unknown[] }> {
  const view = await session.settledView(signal);
  session.listed('resources');
  return { resources: view.listResources() };
}

export async function listResourceTemplates(session: SessionBase, signal: AbortSignal): Promise<{ resourceTemplates: unknown[] }> {
  const view = await session.settledView(signal);
  session.listed('resources');
  return { resourceTemplates: view.listResourceTemplates() };
}

export async function listPrompts(session: SessionBase, signal: AbortSignal): Promise<{ prompts: unknown[] }> {
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
export async function relayResource(gateway: Gateway, session: SessionBase, method: string, params: { uri: string }, signal: AbortSignal): Promise<unknown> {
  return relay(gateway, await resourceServer(session, params.uri, signal), method, params, signal);
}

export async function getPrompt(gateway: Gateway, session: SessionBase, params: { name: string }, signal: AbortSignal): Promise<unknown> {
  const target = await promptTarget(session, params.name, signal);
  return relay(gateway, target.server, 'prompts/get', { ...params, name: target.tool }, signal);
}

export async function complete(
  gateway: Gateway,
  session: SessionBase,
  params: { ref: { type: string; name?: string; uri?: string } },
  signal: AbortSignal,
): Promise<unknown> {
  const ref = params.ref;
  if (ref.type === 'ref/prompt') {
    const target = await promptTarget(session, String(ref.name), signal);
    return relay(gateway, target.server, 'completion/complete', { ...params, ref: { ...ref, name: target.tool } }, signal);
  }
  return relay(gateway, await resourceServer(session, String(ref.uri), signal), 'completion/complete', params, signal);
}

async function relay(gateway: Gateway, server: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
  try {
    return await gateway.request(server, method, params, signal);
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
