// Where the gateway's answers meet the two SDK generations' types. Everything a session answers
// is typed with the v1 SDK's result types (profile-requests.ts); this module holds the few
// places where the type checker is told what it cannot see, each with its reason. Nothing here
// changes a value: every function returns what it was given.
import type {
  CompleteResult,
  EmptyResult,
  GetPromptResult,
  JSONRPCRequest,
  ListToolsResult,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
// Types only: the v2 server SDK itself is loaded on first use (load-rev-2026-07-28.ts).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HandlerResultTypeMap, InputRequests, Server } from '@modelcontextprotocol/server';

/** What an upstream answers each request the gateway relays to it as is. */
export interface RelayedResults {
  'resources/read': ReadResourceResult;
  'resources/subscribe': EmptyResult;
  'resources/unsubscribe': EmptyResult;
  'prompts/get': GetPromptResult;
  'completion/complete': CompleteResult;
}

/**
 * An upstream's answer to a relayed request, passed to the client unchanged. It is not
 * validated here on purpose: the gateway relays a server's answer as it came (fields of newer
 * revisions and extensions included), and the client's SDK checks it as it checks any server's.
 */
export function relayed<M extends keyof RelayedResults>(_method: M, answer: unknown): RelayedResults[M] {
  return answer as RelayedResults[M];
}

/**
 * The tools list handed to the v2 server SDK (2026-07-28 clients). Both SDKs describe the same
 * JSON and every other answer's v1 type is assignable to its v2 type, but not this one: v1 types
 * the properties of a tool's inputSchema as `object`, v2 as JSON values, so the v1 value is not
 * assignable although it is the very object the v2 Server encodes.
 */
export function toolsForRev20260728(result: ListToolsResult): HandlerResultTypeMap['tools/list'] {
  return result as HandlerResultTypeMap['tools/list'];
}

/**
 * tools/call of a client that declared the tasks extension, run as a task by the tool's server
 * (profile-requests.ts callToolAsRev20260728Task): the task (`resultType: "task"`, see
 * docs/protocol.md), or the server's own result when it answered at once after all. The v2 SDK's
 * tools/call result type knows only results with content and `input_required`, not the
 * extension's answer, which its Server passes on as it is.
 */
export function taskAnswerForRev20260728(answer: Record<string, unknown>): HandlerResultTypeMap['tools/call'] {
  return answer as HandlerResultTypeMap['tools/call'];
}

/**
 * The questions an upstream asked during a call (its elicitation/create or sampling/createMessage
 * requests, input-bridge.ts), put to a 2026-07-28 client as `input_required`. They are the
 * server's own requests, relayed unchanged like its answers (relayed above), so their params are
 * the server's JSON, not values the gateway built.
 */
export function inputRequestsForRev20260728(asks: Record<string, { method: string; params?: unknown }>): InputRequests {
  return asks as InputRequests;
}

/**
 * The initialize a resumed client sent to the engine before this one (the shim keeps it and
 * repeats it in its hello), replayed to the v1 Server, which validates it as it validates any
 * initialize: it is the client's own JSON, kept unread.
 */
export function replayedInitialize(id: string, params: unknown): JSONRPCRequest {
  return { jsonrpc: '2.0', id, method: 'initialize', params: params as JSONRPCRequest['params'] };
}

/**
 * A 2025-11-25 session handed to the v2 SDK's stdio entry (socket-opening.ts) for a client that
 * opened in that revision other than with initialize. The entry's factory is typed to return a
 * v2 Server, but of a 2025-era instance the entry only calls connect and close, which the v1
 * session provides.
 */
export function rev20251125ForStdioEntry(session: { connect(transport: Transport): Promise<void>; close(): Promise<void> }): Server {
  return session as Server;
}
