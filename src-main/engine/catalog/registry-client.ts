// A read-only client of an MCP Registry (API v0.1, the official one by default). Everything it
// returns came from the network: it is checked and cleaned (server-json.ts) before anyone sees
// it, and a registry that cannot be reached gives one clear sentence, never a half-done change.
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { parseServerResponse, type RegistryEntry } from './server-json.ts';

export const DEFAULT_REGISTRY = 'https://registry.modelcontextprotocol.io';

/** A registry answer larger than this is refused: a catalog page is a few hundred kB at most. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface RegistryOptions {
  /** Base URL (settings.registry); https:, or http: on loopback (a local or test registry). */
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
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
  readonly #fetch: typeof fetch;

  constructor(opts: RegistryOptions = {}) {
    this.baseUrl = registryBaseUrl(opts.baseUrl);
    this.#timeoutMs = opts.timeoutMs ?? 15_000;
    this.#fetch = opts.fetch ?? fetch;
  }

  async #get(pathAndQuery: string): Promise<{ status: number; body: unknown }> {
    const url = `${this.baseUrl}${pathAndQuery}`;
    let res: Response;
    try {
      res = await this.#fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.#timeoutMs), redirect: 'error' });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string; errors?: { code?: string }[] } };
      const why =
        e.name === 'TimeoutError' ? `no answer within ${Math.round(this.#timeoutMs / 1000)} s` : (e.cause?.code ?? e.cause?.errors?.[0]?.code ?? e.cause?.message ?? e.message);
      throw new SwitchboardError(
        'upstream-error',
        `Could not reach the MCP Registry at ${this.baseUrl} (${why}). Nothing was changed; check your connection, or settings.registry in config.json.`,
      );
    }
    const text = await readCapped(res);
    if (res.status === 404) return { status: 404, body: null };
    if (!res.ok) throw new SwitchboardError('upstream-error', `The MCP Registry at ${this.baseUrl} answered ${res.status} for ${pathAndQuery}. Nothing was changed; try again later.`);
    try {
      return { status: res.status, body: JSON.parse(text) };
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

async function readCapped(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new SwitchboardError('upstream-error', `The MCP Registry's answer was larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB and was refused.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
