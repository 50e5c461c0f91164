// What Switchboard answers, as an upstream's client, when no connected client can take a request
// the upstream made (sampling, elicitation, roots): the answers of a client without the feature.
// The one place for it: the gateway falls back to it, and so does an upstream with no gateway.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export function answerWithoutClient(method: string): Record<string, unknown> {
  if (method === 'roots/list') return { roots: [] };
  if (method === 'elicitation/create') return { action: 'decline' };
  if (method === 'ping') return {};
  // A JSON-RPC error the upstream's SDK understands (a thrown SwitchboardError would reach it as
  // an internal error): the client side lacks the method, as a client without sampling would.
  throw new McpError(ErrorCode.MethodNotFound, `No connected client can answer ${method}: connect a client that supports it (sampling needs one).`);
}

/**
 * A server's question Switchboard put to nobody (it cannot tell whose call it is, or the call
 * ended): the JSON-RPC error the server gets, -32600 with the sentence as it is (an McpError
 * would prefix its code to the message the server reads).
 */
export class NotAskedError extends Error {
  readonly code = ErrorCode.InvalidRequest;
}

/** What a server is told when it asks within a call that has ended: nobody is asked. */
export function callEndedMessage(server: string): string {
  return `The call this question of ${server} belongs to has ended, so nobody was asked.`;
}
