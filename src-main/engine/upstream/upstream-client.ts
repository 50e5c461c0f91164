// The SDK client one connection attempt speaks through: what it offers the server, where the
// server's requests and notifications go, and how a request is sent (typed or relayed as is).
import { Client } from '@modelcontextprotocol/client';
import type { CatalogKind } from './catalog-cache.ts';
import { EraVerdict } from './protocol-era.ts';
import { askedAnswer, type AskedMethod } from './sdk-client-boundary.ts';
import { TASKS_EXTENSION } from './tasks-2026-07-28.ts';

type Params = Record<string, unknown>;

/** Where one attempt's client hands what the server does. */
export interface ClientHooks {
  /** The connection ended, whoever ended it. */
  closed(): void;
  /** A transport hiccup: not fatal. */
  error(err: Error): void;
  /** A server request (sampling, elicitation, roots): `id` is its JSON-RPC id, to tie it to a call. */
  ask(request: { method: string; params?: Params }, id: unknown, signal: AbortSignal): Promise<Params>;
  /** The server says one of its lists changed. */
  listChanged(kind: CatalogKind): Promise<void>;
  /** Any other notification but progress, with our listen stream's subscription id taken off. */
  notified(notification: { method: string; params?: Params }): void;
}

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export function makeUpstreamClient(info: { name: string; version: string }, startTimeoutMs: number, hooks: ClientHooks): Client {
  const client = new Client(info, {
    // The tasks extension (2026-07-28): a server may answer a call with a task, which the call follows.
    capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true }, extensions: { [TASKS_EXTENSION]: {} } },
    ...EraVerdict.clientOptions(startTimeoutMs),
    // The old bound on pages: a server that always returns a cursor cannot loop us forever.
    listMaxPages: 1000,
  });
  client.onclose = () => hooks.closed();
  client.onerror = (err) => hooks.error(err);
  // On a 2025-era connection these answer the server's own requests; on 2026-07-28 the SDK
  // calls the same handlers to fulfil an `input_required` result, then retries the call.
  const relay =
    <M extends AskedMethod>(method: M) =>
    async (request: { params?: Params }, ctx: { mcpReq: { id: unknown; signal: AbortSignal } }) =>
      askedAnswer(method, await hooks.ask({ method, params: request.params }, ctx.mcpReq.id, ctx.mcpReq.signal));
  client.setRequestHandler('sampling/createMessage', relay('sampling/createMessage'));
  client.setRequestHandler('elicitation/create', relay('elicitation/create'));
  client.setRequestHandler('roots/list', relay('roots/list'));
  const onChanged = (kind: CatalogKind) => () => hooks.listChanged(kind);
  client.setNotificationHandler('notifications/tools/list_changed', onChanged('tools'));
  client.setNotificationHandler('notifications/resources/list_changed', onChanged('resources'));
  client.setNotificationHandler('notifications/prompts/list_changed', onChanged('prompts'));
  const forward = (n: { method: string; params?: unknown }) => hooks.notified({ method: n.method, params: withoutSubscriptionId(n.params as Params | undefined) });
  client.setNotificationHandler('notifications/resources/updated', forward);
  client.fallbackNotificationHandler = async (n) => forward(n);
  return client;
}

/** The listen stream's subscription id is ours, not the client's: dropped before relaying. */
function withoutSubscriptionId(params: Params | undefined): Params | undefined {
  const meta = params?._meta as Params | undefined;
  if (!meta || !(SUBSCRIPTION_ID in meta)) return params;
  const { [SUBSCRIPTION_ID]: _drop, ...rest } = meta;
  const clean: Params = { ...params, _meta: rest };
  if (Object.keys(rest).length === 0) delete clean._meta;
  return clean;
}

/** Requests the SDK knows by name (typed results, multi round-trip); others go through ANY_RESULT. */
const SPEC_METHODS = new Set([
  'tools/call',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'ping',
]);

/** A result schema that accepts any object: relayed results are the client's to judge. */
const ANY_RESULT = {
  '~standard': {
    version: 1 as const,
    vendor: 'switchboard',
    validate: (value: unknown) =>
      value !== null && typeof value === 'object' ? { value: value as Params } : { issues: [{ message: 'a result must be an object' }] },
  },
};

/**
 * Sends one request: spec methods get the SDK's result handling; anything else is relayed as is.
 * A task-augmented call answers with a task, not a CallToolResult: relayed as is.
 */
export function sendRequest(client: Client, method: string, params: unknown, options: Record<string, unknown>): Promise<Params> {
  const typed = SPEC_METHODS.has(method) && (params as { task?: unknown } | undefined)?.task === undefined;
  const request = { method, params: params as Params | undefined };
  return (typed ? client.request(request as { method: 'tools/call' }, options) : client.request(request, ANY_RESULT, options)) as Promise<Params>;
}
