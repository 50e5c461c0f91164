// Builds the transport for one configured server: a child process over stdio (command resolved
// the way a GUI app must, env from the allow-list), or a remote URL over Streamable HTTP or SSE
// (headers, OAuth). The v2 client transports carry both protocol eras (they add the 2026-07-28
// per-request headers once that era is negotiated).
import { stat } from 'node:fs/promises';
import type { Transport } from '@modelcontextprotocol/client';
import type { SecretOrString, ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { programOf, type MissingProgram } from '../../../src-shared/missing-program.ts';
import { carriedCommand, carriedInvocation, carriedRuntime, defaultLaunchersDir, writeLaunchers, type CarriedRuntime } from './carried-runtime.ts';
import { buildChildEnv, pathKey } from './child-env.ts';
import { loginShellPath, resolveCommand, type ResolvedCommand } from './command-resolve.ts';
import type { GroupLedger } from './group-ledger.ts';
import type { ServerLog } from './server-log.ts';
import { ChildStdioTransport } from './stdio-transport.ts';
import type { UpstreamAuth } from './oauth/upstream-auth.ts';
import { StreamTies } from './stream-ties.ts';

/** A ready-made error that retrying will not fix (missing secret or command): no backoff loop. */
export class FatalStartError extends SwitchboardError {
  /** Set when the command is not on this computer: what to install (the Servers page's button). */
  missingProgram?: MissingProgram;
}

export interface TransportDeps {
  log: ServerLog;
  resolveSecret?: (name: string) => string | undefined;
  auth?: UpstreamAuth;
  parentEnv?: NodeJS.ProcessEnv;
  maxMessageBytes?: number;
  killGraceMs?: number;
  /**
   * The runtime lent to `node`/`npx`/`npm` servers when the command is not on PATH; defaults to
   * carriedRuntime(), null for none.
   */
  runtime?: CarriedRuntime | null;
  /** Where that runtime's node/npx/npm launchers are written (owner-only); defaults to a private temp folder. */
  launchersDir?: string;
  /** Where a stdio server's process group is written down while it runs (group-ledger.ts). */
  groups?: GroupLedger;
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
    const auth = deps.auth ? { authProvider: deps.auth.provider, fetch: deps.auth.fetch } : {};
    // Loaded on first use: an engine with only local servers does not pay their memory.
    const { SSEClientTransport, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    // The old HTTP+SSE transport carries every server message on one stream: nothing ties them to a call.
    if (cfg.transport === 'sse') return { transport: new SSEClientTransport(url, { requestInit: { headers }, ...auth }) };
    const ties = new StreamTies();
    const fetch = ties.fetch(deps.auth?.fetch);
    return { transport: new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...auth, fetch }), ties };
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
  let spawnCommand = found.path;
  let args = cfg.args ?? [];
  let lentEnv: Record<string, string> = {};
  if (!found.path) {
    // A person's own node/npx is used whenever found (carried-runtime.ts says why); the app's own only stands in.
    const carried = carriedCommand(command);
    const rt = carried ? (deps.runtime === undefined ? carriedRuntime() : deps.runtime) : null;
    const lent = carried && rt ? carriedInvocation(rt, carried, args) : undefined;
    if (!lent || !rt) throw notFound(name, command, found);
    deps.log.note(`"${command}" is not on PATH; running it with the Node.js that comes with Switchboard (${rt.node})`);
    spawnCommand = lent.command;
    args = lent.args;
    const launchers = writeLaunchers(deps.launchersDir ?? defaultLaunchersDir(), rt);
    const key = pathKey(base);
    const sep = process.platform === 'win32' ? ';' : ':';
    lentEnv = { ...rt.nodeEnv, [key]: base[key] ? `${base[key]}${sep}${launchers}` : launchers };
  }
  const env = { ...buildChildEnv({ configured, parentEnv, path: base[pathKey(base)], command: spawnCommand! }), ...lentEnv };
  const stdio = new ChildStdioTransport({
    command: spawnCommand!,
    args,
    env,
    cwd: cfg.cwd,
    log: deps.log,
    label: name,
    maxMessageBytes: deps.maxMessageBytes,
    killGraceMs: deps.killGraceMs,
    groups: deps.groups,
  });
  return { transport: stdio, stdio };
}

function notFound(name: string, command: string, found: ResolvedCommand): FatalStartError {
  const where = found.searched.length > 0 ? found.searched.join(', ') : 'nowhere: PATH is empty';
  const onPath = /[\\/]/.test(command) ? 'was not found' : 'was not found on PATH';
  const err = new FatalStartError('server-unavailable', `${name}: the command "${command}" ${onPath} (looked in ${where}). ${found.hint ?? ''}`.trim());
  err.missingProgram = { program: programOf(command), command, searched: found.searched };
  return err;
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
