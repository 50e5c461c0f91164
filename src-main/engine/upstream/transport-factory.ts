// Builds the transport for one configured server: a child process over stdio (command resolved
// the way a GUI app must, env from the allow-list), or a remote URL over Streamable HTTP or SSE
// (headers, OAuth). The v2 client transports carry both protocol eras (they add the 2026-07-28
// per-request headers once that era is negotiated).
import { stat } from 'node:fs/promises';
import type { Transport } from '@modelcontextprotocol/client';
import type { SecretOrString, ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { buildChildEnv } from './child-env.ts';
import { loginShellPath, resolveCommand } from './command-resolve.ts';
import type { ServerLog } from './server-log.ts';
import { ChildStdioTransport } from './stdio-transport.ts';
import type { UpstreamAuth } from './oauth/upstream-auth.ts';
import { StreamTies } from './stream-ties.ts';

/** A ready-made error that retrying will not fix (missing secret or command): no backoff loop. */
export class FatalStartError extends SwitchboardError {}

export interface TransportDeps {
  log: ServerLog;
  resolveSecret?: (name: string) => string | undefined;
  auth?: UpstreamAuth;
  parentEnv?: NodeJS.ProcessEnv;
  maxMessageBytes?: number;
  killGraceMs?: number;
}

export interface MadeTransport {
  transport: Transport;
  /** Set for local servers: the child's pid and exit. */
  stdio?: ChildStdioTransport;
  /** Set for Streamable HTTP: which call each server request came with (stream-ties.ts). */
  ties?: StreamTies;
}

export async function makeTransport(name: string, cfg: ServerConfig, deps: TransportDeps): Promise<MadeTransport> {
  if (cfg.url !== undefined) {
    const headers = resolveValues(name, cfg.headers, 'headers', deps.resolveSecret);
    const url = new URL(cfg.url);
    deps.log.note(`connecting to ${url.origin}${url.pathname} (${cfg.transport ?? 'http'})`);
    // The sign-in provider is written against the SDK's OAuthClientProvider contract, which the
    // v2 transports keep (their extra context arguments are optional).
    const auth = deps.auth ? { authProvider: deps.auth.provider as never, fetch: deps.auth.fetch as never } : {};
    // Loaded on first use: an engine with only local servers does not pay their memory.
    const { SSEClientTransport, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    // The old HTTP+SSE transport carries every server message on one stream: nothing ties them to a call.
    if (cfg.transport === 'sse') return { transport: new SSEClientTransport(url, { requestInit: { headers }, ...auth }) };
    const ties = new StreamTies();
    const fetch = ties.fetch(deps.auth?.fetch as never);
    return { transport: new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...auth, fetch: fetch as never }), ties };
  }
  const command = cfg.command!;
  const configured = resolveValues(name, cfg.env, 'env', deps.resolveSecret);
  if (cfg.cwd !== undefined) {
    const isDir = await stat(cfg.cwd).then((s) => s.isDirectory(), () => false);
    if (!isDir) throw new FatalStartError('server-unavailable', `${name}: the folder in "cwd" (${cfg.cwd}) does not exist`);
  }
  const parentEnv = deps.parentEnv ?? process.env;
  const base = buildChildEnv({ configured, parentEnv, path: configured.PATH === undefined ? await loginShellPath() : undefined });
  const found = await resolveCommand(command, { env: base, cwd: cfg.cwd });
  if (!found.path) {
    const where = found.searched.length > 0 ? found.searched.join(', ') : 'nowhere: PATH is empty';
    const onPath = /[\\/]/.test(command) ? 'was not found' : 'was not found on PATH';
    throw new FatalStartError('server-unavailable', `${name}: the command "${command}" ${onPath} (looked in ${where}). ${found.hint ?? ''}`.trim());
  }
  const env = buildChildEnv({ configured, parentEnv, path: base.PATH, command: found.path });
  const stdio = new ChildStdioTransport({
    command: found.path,
    args: cfg.args ?? [],
    env,
    cwd: cfg.cwd,
    log: deps.log,
    label: name,
    maxMessageBytes: deps.maxMessageBytes,
    killGraceMs: deps.killGraceMs,
  });
  return { transport: stdio as unknown as Transport, stdio };
}

function resolveValues(
  name: string,
  values: Record<string, SecretOrString> | undefined,
  where: 'env' | 'headers',
  resolveSecret: ((name: string) => string | undefined) | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    if (typeof v === 'string') {
      out[k] = v;
      continue;
    }
    const value = resolveSecret?.(v.secret);
    if (value === undefined) {
      throw new FatalStartError(
        'secret-missing',
        `${name} needs the secret "${v.secret}" (for ${where}.${k}), which is not set; set it in the app or with \`switchboard secret set ${v.secret}\``,
      );
    }
    out[k] = value;
  }
  return out;
}
