// Turns a client's server entries into Switchboard server configs, and plans what `import`
// would add to config.json: our own entries skipped, servers already there (the very same launch)
// reused, every other server added — under a new, clear name when its name is taken.
import { isDeepStrictEqual } from 'node:util';
import type { ImportServerPreview } from '../../../src-shared/api.ts';
import { SERVER_NAME_RE, ServerConfig } from '../../../src-shared/config/schema.ts';
import { terminalSafe } from '../../../src-shared/terminal-text.ts';
import { ENTRY_PREFIX } from './connector.ts';
import { codeLoadingEnv, isCodeLoadingEnv } from '../trust/code-loading-env.ts';

export type ImportItem =
  /** `taken`: the client's name was already used by a different server here, so it got `name` instead. */
  | { action: 'add'; clientName: string; name: string; config: ServerConfig; taken?: string }
  | { action: 'duplicate'; clientName: string; existing: string; config: ServerConfig }
  | { action: 'skip'; clientName: string; reason: string };

export interface ImportPlan {
  items: ImportItem[];
  /** The servers to add, keyed by their new names. */
  toAdd: Record<string, ServerConfig>;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function stringRecord(v: unknown): Record<string, string> | undefined {
  if (!isObj(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return Object.keys(out).length ? out : undefined;
}

/** Maps one client entry; null with a reason when it is not something Switchboard can run. */
export function mapClientServer(raw: unknown, bareUrlTransport: 'http' | 'sse' = 'http'): { config: ServerConfig } | { reason: string } {
  if (!isObj(raw)) return { reason: 'the entry is not an object' };
  const out: Record<string, unknown> = {};
  // Zed's older form nests the command: { "command": { "path", "args", "env" } }.
  const nested = isObj(raw.command) ? raw.command : null;
  // Goose names them cmd/envs/uri and keeps its own built-in extensions in the same map.
  if (raw.type === 'builtin' || raw.type === 'platform' || raw.type === 'frontend') return { reason: `it is built into the client (type ${String(raw.type)})` };
  const command = nested ? nested.path : (raw.command ?? raw.cmd);
  const url = [raw.url, raw.serverUrl, raw.httpUrl, raw.uri].find((u) => typeof u === 'string') as string | undefined;
  if (typeof command === 'string' && command !== '') {
    out.command = command;
    const args = nested ? nested.args : raw.args;
    if (Array.isArray(args)) out.args = args.map(String);
    const env = stringRecord(nested ? nested.env : (raw.env ?? raw.envs));
    if (env) out.env = env;
    if (typeof raw.cwd === 'string' && raw.cwd) out.cwd = raw.cwd;
  } else if (url) {
    out.url = url;
    const headers = stringRecord(raw.headers);
    if (headers) out.headers = headers;
    const type = String(raw.type ?? raw.transport ?? '').toLowerCase();
    const transport =
      type === 'sse' ? 'sse'
      : type === 'http' || type === 'streamable-http' || type === 'streamable_http' || type === 'streamablehttp' || typeof raw.httpUrl === 'string' ? 'http'
      : bareUrlTransport;
    if (transport === 'sse') out.transport = 'sse';
  } else {
    return { reason: 'it has neither a command nor a URL' };
  }
  if (raw.disabled === true || raw.enabled === false) out.disabled = true;
  const parsed = ServerConfig.safeParse(out);
  if (!parsed.success) return { reason: parsed.error.issues.map((i) => i.message).join('; ') };
  return { config: parsed.data };
}

/** A valid server name for `name`: unsafe characters become "-", at most 64 characters. */
export function safeServerName(name: string): string {
  let s = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+|-+$/g, '').slice(0, 60);
  if (!SERVER_NAME_RE.test(s)) s = `server${s ? `-${s}` : ''}`.slice(0, 60);
  return s;
}

/**
 * What makes a server the server it is: its whole launch. Two entries that run the same program
 * with another env (a memory server's MEMORY_FILE_PATH), folder, argument, URL or header are two
 * servers with two sets of data; only the very same launch is "already there".
 */
export function launchOf(c: ServerConfig): unknown {
  return c.command !== undefined
    ? { command: c.command, args: c.args ?? [], env: c.env ?? {}, cwd: c.cwd ?? null }
    : { url: c.url, transport: c.transport ?? 'http', headers: c.headers ?? {} };
}

export function sameLaunch(a: ServerConfig, b: ServerConfig): boolean {
  return isDeepStrictEqual(launchOf(a), launchOf(b));
}

/**
 * `clientServers` (a client's entries) against `existing` (config.json's servers). A name taken
 * by a different server becomes `<name>-<client id>` ("memory-claude-desktop"): it says where the
 * server came from, where "memory-2" would read as a copy of the first.
 */
export function planImport(
  clientServers: Record<string, unknown>,
  existing: Record<string, ServerConfig>,
  bareUrlTransport: 'http' | 'sse' = 'http',
  clientId = 'imported',
): ImportPlan {
  const items: ImportItem[] = [];
  const toAdd: Record<string, ServerConfig> = {};
  const taken = (n: string) => Object.hasOwn(existing, n) || Object.hasOwn(toAdd, n);
  for (const [clientName, raw] of Object.entries(clientServers)) {
    if (clientName.startsWith(ENTRY_PREFIX)) continue;
    const mapped = mapClientServer(raw, bareUrlTransport);
    if ('reason' in mapped) {
      items.push({ action: 'skip', clientName, reason: mapped.reason });
      continue;
    }
    const config = mapped.config;
    const dup = Object.entries({ ...existing, ...toAdd }).find(([, s]) => sameLaunch(s, config));
    if (dup) {
      items.push({ action: 'duplicate', clientName, existing: dup[0], config });
      continue;
    }
    const base = safeServerName(clientName);
    let name = base;
    if (taken(name)) {
      const from = safeServerName(`${base}-${clientId}`);
      name = from;
      for (let n = 2; taken(name); n++) name = `${from}-${n}`;
    }
    toAdd[name] = config;
    items.push({ action: 'add', clientName, name, config, ...(name !== base ? { taken: base } : {}) });
  }
  return { items, toAdd };
}

/** Quotes outside text for one line of the dry run: JSON string form, every control character escaped. */
function quoted(s: string): string {
  return terminalSafe(JSON.stringify(s));
}

/** What the dry run shows of a server: the exact command and args, never secret values. */
export function previewServer(c: ServerConfig): ImportServerPreview {
  const out: ImportServerPreview = {};
  if (c.command !== undefined) {
    out.command = c.command;
    out.args = c.args ?? [];
    if (c.cwd) out.cwd = c.cwd;
    if (c.env) out.envKeys = Object.keys(c.env);
    const loading = codeLoadingEnv(c.env);
    if (loading.length) out.codeLoadingEnv = loading;
  } else {
    out.url = c.url;
    out.transport = c.transport ?? 'http';
    if (c.headers) out.headerKeys = Object.keys(c.headers);
  }
  if (c.disabled) out.disabled = true;
  return out;
}

/**
 * One line per server as the dry run shows it: exact command and args, secret values hidden,
 * code-loading env values shown and flagged. Every piece of the client's text is escaped, so a
 * crafted name or URL cannot rewrite what the terminal shows.
 */
export function describeServer(c: ServerConfig): string {
  return describePreview(previewServer(c));
}

/** describeServer's line from the preview the control API returns (what `switchboard import` prints). */
export function describePreview(c: ImportServerPreview): string {
  const parts: string[] = [];
  if (c.command !== undefined) {
    parts.push(`command ${quoted(c.command)}`, `args [${(c.args ?? []).map(quoted).join(',')}]`);
    if (c.cwd) parts.push(`cwd ${quoted(c.cwd)}`);
    for (const l of c.codeLoadingEnv ?? []) parts.push(`WARNING env ${terminalSafe(l.name)}=${quoted(l.value)} changes what code the command loads`);
    const others = (c.envKeys ?? []).filter((k) => !isCodeLoadingEnv(k));
    if (others.length) parts.push(`env ${others.map((k) => terminalSafe(k)).join(', ')} (values copied as they are, not shown)`);
  } else {
    parts.push(`url ${terminalSafe(c.url ?? '')}`, `transport ${c.transport ?? 'http'}`);
    if (c.headerKeys?.length) parts.push(`headers ${c.headerKeys.map((k) => terminalSafe(k)).join(', ')} (values copied as they are, not shown)`);
  }
  if (c.disabled) parts.push('disabled');
  return parts.join('; ');
}
