// Where the upstream side meets the v2 client SDK's types: the few places the type checker is
// told what it cannot see, each with its reason. Nothing here changes a value: every function
// returns what it was given.
import type { HandlerResultTypeMap } from '@modelcontextprotocol/client';

/** The requests a server may send the engine, each answered by the client it works for. */
export type AskedMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/**
 * The answer to a server's own request (sampling, elicitation, roots), handed back to the SDK
 * client. It is the answering client's JSON relayed unchanged (or the configured roots), not a
 * value the engine built; the server's SDK checks it as it checks any client's answer.
 */
export function askedAnswer<M extends AskedMethod>(_method: M, answer: Record<string, unknown>): HandlerResultTypeMap[M] {
  return answer as HandlerResultTypeMap[M];
}
