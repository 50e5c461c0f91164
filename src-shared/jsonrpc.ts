// A structural check of JSON-RPC 2.0 messages for the hot path. The SDK's zod schema costs
// tens of microseconds per message, and the receiving Protocol validates what it handles.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export function asJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return undefined;
  const id = m.id;
  const hasId = id !== undefined;
  if (hasId && typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (typeof m.method === 'string') {
    if (m.params !== undefined && (m.params === null || typeof m.params !== 'object')) return undefined;
    return value as JSONRPCMessage;
  }
  if (hasId && ('result' in m || ('error' in m && typeof m.error === 'object' && m.error !== null))) return value as JSONRPCMessage;
  return undefined;
}
