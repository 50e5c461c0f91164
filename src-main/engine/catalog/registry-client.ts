// A read-only client of an MCP Registry (API v0.1, the official one by default). Everything it
// returns came from the network: it is checked and cleaned (server-json.ts) before anyone sees
// it, and a registry that cannot be reached gives one clear sentence, never a half-done change.
// Every request has one deadline for all of it (connect, headers, body): when it passes, the
// request and its socket are destroyed, so a registry that trickles its answer cannot hold an
// install or the Catalog page past it.
import http from 'node:http';
import https from 'node:https';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { parseServerResponse, type RegistryEntry } from './server-json.ts';

export const DEFAULT_REGISTRY = 'https://registry.modelcontextprotocol.io';

/** A registry answer larger than this is refused: a catalog page is a few hundred kB at most. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

const DEADLINE = 'SWITCHBOARD_REGISTRY_DEADLINE';

/** The whole of one registry request, connect to last byte (docs/configuration.md: 15 s). */
export const REGISTRY_TIMEOUT_MS = 15_000;

/** The deadline in force: REGISTRY_TIMEOUT_MS, or SWITCHBOARD_REGISTRY_TIMEOUT_MS (ms) where tests set a shorter one. */
export function registryTimeoutMs(env: NodeJS.ProcessEnv): number {
  const v = Number(env.SWITCHBOARD_REGISTRY_TIMEOUT_MS);
  return Number.isInteger(v) && v > 0 && v <= REGISTRY_TIMEOUT_MS ? v : REGISTRY_TIMEOUT_MS;
}

export interface RegistryOptions {
  /** Base URL (settings.registry); https:, or http: on loopback (a local or test registry). */
  baseUrl?: string;
  /** The deadline of each request, all of it (default REGISTRY_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface SearchPage {
  servers: RegistryEntry[];
  nextCursor: string | null;
  /** Entries the registry sent that were not valid server.json and were left out. */
  skipped: number;
}

/** Checks settings.registry; returns the base URL without a trailing slash. */
export function registryBaseUrl(value: unknown): string {
  if (value === undefined || value === null) return DEFAULT_REGISTRY;
  if (typeof value !== 'string') throw new SwitchboardError('invalid-config', 'settings.registry must be a URL string.');
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new SwitchboardError('invalid-config', `settings.registry is not a URL: "${value}".`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback)) {
    throw new SwitchboardError('invalid-config', `settings.registry must be an https:// URL (or http:// on this computer); got "${value}".`);
  }
  return u.href.replace(/\/+$/, '');
}

export class RegistryClient {
  readonly baseUrl: string;
  readonly #timeoutMs: number;

  constructor(opts: RegistryOptions = {}) {
    this.baseUrl = registryBaseUrl(opts.baseUrl);
    this.#timeoutMs = opts.timeoutMs ?? REGISTRY_TIMEOUT_MS;
  }

  async #get(pathAndQuery: string): Promise<{ status: number; body: unknown }> {
    let res: { status: number; text: string };
    try {
      res = await request(new URL(`${this.baseUrl}${pathAndQuery}`), this.#timeoutMs);
    } catch (err) {
      if (err instanceof SwitchboardError) throw err;
      const e = err as NodeJS.ErrnoException;
      const why = e.code === DEADLINE ? `no complete answer within ${Math.round(this.#timeoutMs / 100) / 10} s` : (e.code ?? e.message);
      throw new SwitchboardError(
        'upstream-error',
        `Could not reach the MCP Registry at ${this.baseUrl} (${why}). Nothing was changed; check your connection, or settings.registry in config.json.`,
      );
    }
    if (res.status === 404) return { status: 404, body: null };
    if (res.status >= 300 && res.status < 400) throw new SwitchboardError('upstream-error', `The MCP Registry at ${this.baseUrl} answered with a redirect (${res.status}) for ${pathAndQuery}, which Switchboard does not follow. Nothing was changed; check settings.registry in config.json.`);
    if (res.status < 200 || res.status >= 300) throw new SwitchboardError('upstream-error', `The MCP Registry at ${this.baseUrl} answered ${res.status} for ${pathAndQuery}. Nothing was changed; try again later.`);
    try {
      return { status: res.status, body: JSON.parse(res.text) };
    } catch {
      throw new SwitchboardError('upstream-error', `The MCP Registry at ${this.baseUrl} sent something that is not JSON for ${pathAndQuery}. Nothing was changed.`);
    }
  }

  /** `GET /v0.1/servers` with search (a substring of the name), cursor, limit and updated_since. */
  async search(text: string, opts: { cursor?: string; limit?: number; updatedSince?: string; latestOnly?: boolean } = {}): Promise<SearchPage> {
    const q = new URLSearchParams();
    if (text) q.set('search', text);
    if (opts.cursor) q.set('cursor', opts.cursor);
    q.set('limit', String(opts.limit ?? 30));
    if (opts.updatedSince) q.set('updated_since', opts.updatedSince);
    if (opts.latestOnly !== false) q.set('version', 'latest');
    const { body } = await this.#get(`/v0.1/servers?${q}`);
    const list = isObject(body) && Array.isArray(body.servers) ? body.servers : null;
    if (!list) throw new SwitchboardError('upstream-error', `The MCP Registry at ${this.baseUrl} sent a server list without "servers". Nothing was changed.`);
    const servers: RegistryEntry[] = [];
    let skipped = 0;
    for (const item of list) {
      const entry = parseServerResponse(item);
      if (entry) servers.push(entry);
      else skipped++;
    }
    const meta = isObject(body) && isObject(body.metadata) ? body.metadata : {};
    const next = typeof meta.nextCursor === 'string' && meta.nextCursor !== '' ? meta.nextCursor : null;
    return { servers, nextCursor: next, skipped };
  }

  /** One version of a server (`latest` by default); null when the registry does not know it. */
  async get(name: string, version = 'latest'): Promise<RegistryEntry | null> {
    const { status, body } = await this.#get(`/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`);
    if (status === 404) return null;
    const entry = parseServerResponse(body);
    if (!entry) throw new SwitchboardError('upstream-error', `The MCP Registry at ${this.baseUrl} sent an entry for "${name}" that is not valid server.json. Nothing was changed.`);
    return entry;
  }
}

/**
 * One GET, all of it within `timeoutMs`: past the deadline the request is destroyed with its
 * socket (an error with code DEADLINE), wherever it was (connecting, waiting, reading the body).
 */
function request(url: URL, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const get = url.protocol === 'https:' ? https.get : http.get;
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = get(url, { headers: { accept: 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy();
          done(() => reject(new SwitchboardError('upstream-error', `The MCP Registry's answer was larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB and was refused. Nothing was changed.`)));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => done(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })));
      res.on('aborted', () => done(() => reject(Object.assign(new Error('the answer was cut off'), { code: 'the answer was cut off' }))));
      res.on('error', (err) => done(() => reject(err)));
    });
    const timer = setTimeout(() => {
      const err = Object.assign(new Error('timeout'), { code: DEADLINE });
      done(() => reject(err));
      req.destroy(err);
    }, timeoutMs);
    req.on('error', (err) => done(() => reject(err)));
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
