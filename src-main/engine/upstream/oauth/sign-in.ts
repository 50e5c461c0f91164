// One interactive sign-in (`switchboard login SERVER`): discovery, registration, the browser
// consent with PKCE S256 and `state`, the code exchange, and only then the tokens are stored.
// It talks to the server with the same SDK transports the engine uses, so what works here
// works in the engine.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServerConfig } from '../../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../../src-shared/errors.ts';
import type { SecretStore } from '../../secrets/secret-store.ts';
import { openBrowser, type OpenResult } from './browser.ts';
import { SwitchboardOAuthProvider } from './client-provider.ts';
import { LoopbackListener } from './loopback-listener.ts';
import { SignInStore } from './sign-in-store.ts';

export interface SignInOptions {
  server: string;
  config: ServerConfig;
  secrets: SecretStore;
  resolveSecret?: (name: string) => string | undefined;
  /** Progress for the user: the authorization URL is always printed here. */
  print: (text: string) => void;
  /** Opens the (already checked) URL. Defaults to openBrowser. */
  open?: (url: URL) => Promise<OpenResult>;
  /** Time allowed for the user to finish in the browser, in ms. Defaults to 300000 (5 min). */
  timeoutMs?: number;
  clientInfo?: { name: string; version: string };
  /** Stops the flow: the listener closes and nothing is stored (the engine's dispose). */
  signal?: AbortSignal;
}

export async function signIn(o: SignInOptions): Promise<{ account?: string }> {
  const { server, config } = o;
  if (config.url === undefined) {
    throw new SwitchboardError('bad-request', `${server} is a local server (it has a "command"); only remote servers (with a "url") sign in.`);
  }
  const headers = resolveHeaders(o);
  const store = new SignInStore(o.secrets, server, config.url);
  const registered = (store.read()?.client as { redirect_uris?: string[] } | undefined)?.redirect_uris ?? [];
  const listener = await LoopbackListener.start(config.oauth?.callbackPort ?? portOf(registered[0]));
  if (o.signal?.aborted) {
    await listener.dispose();
    throw new SwitchboardError('cancelled', `Signing in to ${server} was stopped; nothing was stored.`);
  }
  const stop = () => void listener.dispose();
  o.signal?.addEventListener('abort', stop, { once: true });
  let shown = false;
  const provider = new SwitchboardOAuthProvider({
    server,
    config,
    store,
    resolveSecret: o.resolveSecret,
    mode: 'interactive',
    redirectUrl: listener.url,
    // A registration is reused only where its redirect URI is exactly this listener's.
    reuseClient: registered.includes(listener.url),
    onAuthorizationUrl: async (url) => {
      shown = true;
      o.print(`To sign in to ${server}, open this address:\n\n  ${url.href}\n\n`);
      const r = await (o.open ?? ((u: URL) => openBrowser(u, server)))(url);
      o.print(r.opened ? 'Opened it in your browser. Waiting for you to finish there…\n' : `No browser was opened (${r.reason}); open the address yourself. Waiting…\n`);
    },
  });
  const url = new URL(config.url);
  const transport =
    config.transport === 'sse'
      ? new SSEClientTransport(url, { requestInit: { headers }, authProvider: provider })
      : new StreamableHTTPClientTransport(url, { requestInit: { headers }, authProvider: provider });
  const client = new Client(o.clientInfo ?? { name: 'switchboard', version: '0.1.0' });
  // Listening starts before the URL is shown: a browser may come back before connect() returns.
  const answer = listener.waitForCode(() => provider.expectedState, o.timeoutMs ?? 300_000, server);
  answer.catch(() => {});
  try {
    try {
      await client.connect(transport, { timeout: 60_000 });
    } catch (err) {
      if (!shown) throw wrap(err, server);
    }
    if (!shown) throw new SwitchboardError('upstream-error', `${server} did not ask for a sign-in, so there was nothing to store.`);
    const code = await answer;
    await transport.finishAuth(code).catch((err: unknown) => {
      throw wrap(err, server);
    });
    return provider.commit();
  } finally {
    o.signal?.removeEventListener('abort', stop);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    await listener.dispose();
  }
}

function wrap(err: unknown, server: string): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new SwitchboardError('upstream-error', `Could not sign in to ${server}: ${message}; nothing was stored.`);
}

function portOf(uri: string | undefined): number | undefined {
  if (!uri) return undefined;
  try {
    const p = Number(new URL(uri).port);
    return p > 0 ? p : undefined;
  } catch {
    return undefined;
  }
}

function resolveHeaders(o: SignInOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.config.headers ?? {})) {
    if (typeof v === 'string') {
      out[k] = v;
      continue;
    }
    const value = o.resolveSecret?.(v.secret);
    if (value === undefined) {
      throw new SwitchboardError('secret-missing', `${o.server} needs the secret "${v.secret}" (for headers.${k}), which is not set; set it with \`switchboard secret set ${v.secret}\``);
    }
    out[k] = value;
  }
  return out;
}
