// After a remote server is installed: does it want the user to sign in (OAuth)? The registry's
// server.json does not say, so the server is asked the way a client first would: an MCP
// initialize without credentials. 401 (with a Bearer challenge, as the MCP authorization spec
// has servers answer) means "sign in"; anything else, including no answer, means no sign-in is
// known to be needed. Only headers given as plain text are sent; secrets are never resolved here.

export type SignInProbe = 'needed' | 'not-needed' | 'unknown';

const PROBE_TIMEOUT_MS = 5_000;

export async function probeSignIn(config: Record<string, unknown>, fetchImpl: typeof fetch = fetch): Promise<SignInProbe> {
  if (typeof config.url !== 'string') return 'not-needed';
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries((config.headers ?? {}) as Record<string, unknown>)) {
    // A header held in the secret store (an API key) means the server authenticates that way.
    if (typeof v !== 'string') return 'not-needed';
    headers[k] = v;
  }
  if (Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) return 'not-needed';
  const sse = config.transport === 'sse';
  let res: Response;
  try {
    res = await fetchImpl(config.url, {
      method: sse ? 'GET' : 'POST',
      headers: {
        ...headers,
        Accept: sse ? 'text/event-stream' : 'application/json, text/event-stream',
        ...(sse ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(sse
        ? {}
        : {
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 0,
              method: 'initialize',
              params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'switchboard-install-check', version: '0.1.0' } },
            }),
          }),
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    return 'unknown';
  }
  await res.body?.cancel().catch(() => undefined);
  if (res.status === 401) return 'needed';
  if (res.status === 403 && /bearer/i.test(res.headers.get('www-authenticate') ?? '')) return 'needed';
  return 'not-needed';
}
