// The engine's HTTP server on loopback: the UI's static files, the control API under /api/,
// and each profile as Streamable HTTP under /mcp/<profile>. Host and Origin are checked before
// anything else runs (DNS rebinding), then the bearer token for everything but static files.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { httpStatusFor, toErrorData, SwitchboardError } from '../../../src-shared/errors.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { APP_ROOT } from '../app-root.ts';
import { BoundedEventStore } from './event-store.ts';
import { uiBuildFor } from './ui-build.ts';
import { MAX_MESSAGE_BYTES } from '../gateway/line-transport.ts';
import type { Rev20260728Endpoint } from './endpoint-2026-07-28.ts';
import { loadRev20260728 } from '../gateway/load-rev-2026-07-28.ts';

export const RENDERER_DIR = path.join(APP_ROOT, 'out', 'renderer');
/** An HTTP MCP session with no request for this long is closed, in ms (30 minutes). */
const SESSION_IDLE_MS = 30 * 60_000;
const SWEEP_MS = 60_000;
/** Largest /api/ request body, in bytes. */
const MAX_API_BODY = 8 * 1024 * 1024;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** What the HTTP server needs of the engine (declared here, so it does not depend on all of it). */
export interface HttpEngine {
  /** The bearer token every request must carry. */
  readonly token: string;
  readonly control: { handle(method: string, params: unknown): Promise<unknown> };
  readonly gateway: Gateway;
}

export interface ListenOptions {
  port: number;
  /** Take the next free port when `port` is busy. */
  fallbackToNext: boolean;
  host?: string;
}

/** How long a take-over keeps trying to bind the port its old engine just closed, in ms. */
const TAKE_PORT_DEADLINE_MS = 10_000;

export class HttpServer {
  /**
   * Never listens itself: the listeners (`#fronts`) hand it their connections. That lets an
   * engine listen on a second port while it takes a home over, and an engine handing its home
   * over forward its new connections to the next engine instead.
   */
  readonly #server = http.createServer();
  readonly #fronts = new Set<net.Server>();
  /** Ports whose Host header is ours (the port in use, and while taking over, the old engine's). */
  readonly #ports = new Set<number>();
  /** While handing the home over: the next engine's port, where new connections are piped. */
  #forwardTo: number | undefined;
  /** The piped connections, which must end before this engine's process does. */
  readonly #forwarded = new Set<net.Socket>();
  /**
   * Taking a home over: the listeners used until the port is ours (the old engine pipes its new
   * connections to one). A connection through them is closed after each answer, so the pipe ends
   * between requests (the old engine waits for its pipes before it exits) and the client's next
   * request opens a new connection, to the port once it is ours.
   */
  readonly #passing = new Set<net.Server>();
  readonly #closeAfterAnswer = new WeakSet<net.Socket>();
  /** Requests being answered here, long-lived GET streams left out (what a hand-over waits for). */
  #inFlight = 0;
  #draining = false;
  readonly #engine: HttpEngine;
  readonly #mcp = new Map<string, { transport: StreamableHTTPServerTransport; profile: string; lastSeen: number }>();
  #sweeper: NodeJS.Timeout | undefined;
  #modern: Rev20260728Endpoint | undefined;
  #url: string | null = null;
  #port = 0;

  constructor(engine: HttpEngine) {
    this.#engine = engine;
    // Connection tracking (idle and request timeouts, closeAllConnections) starts on 'listening'.
    this.#server.emit('listening');
    this.#server.on('request', (req, res) => {
      if (!(req.method === 'GET' && req.url?.startsWith('/mcp/'))) {
        this.#inFlight++;
        res.once('close', () => this.#inFlight--);
      }
      // A handing-over engine answers what reached it and closes the connection: the client's
      // next request opens a new one, which goes to the next engine.
      if (this.#draining || this.#closeAfterAnswer.has(req.socket)) res.shouldKeepAlive = false;
      this.#handle(req, res).catch((err) => {
        if (!res.headersSent) sendJson(res, 500, { error: toErrorData(err) });
        else res.end();
      });
    });
  }

  /** Starts a server for `engine` on loopback (a test's shorthand for constructor + listen). */
  static async start(opts: ListenOptions & { engine: HttpEngine }): Promise<HttpServer> {
    const server = new HttpServer(opts.engine);
    await server.listen(opts);
    return server;
  }

  /** Binds a loopback port, the next free one when `fallbackToNext` and `port` is busy. */
  async listen(opts: ListenOptions): Promise<void> {
    const host = opts.host ?? '127.0.0.1';
    let port = opts.port;
    let front: net.Server;
    for (let attempt = 0; ; attempt++) {
      try {
        front = await this.#listenFront(port, host);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && opts.fallbackToNext && attempt < 50) {
          port++;
          continue;
        }
        throw err;
      }
    }
    this.#use(front, host);
    this.#sweeper = setInterval(() => this.#expireIdleSessions(), SWEEP_MS);
    this.#sweeper.unref();
  }

  #listenFront(port: number, host: string): Promise<net.Server> {
    const front = net.createServer((sock) => {
      if (this.#passing.has(front)) this.#closeAfterAnswer.add(sock);
      this.#connection(sock);
    });
    return new Promise<net.Server>((resolve, reject) => {
      front.once('error', reject);
      front.listen(port, host, () => {
        front.off('error', reject);
        this.#fronts.add(front);
        resolve(front);
      });
    });
  }

  #use(front: net.Server, host: string): void {
    this.#port = (front.address() as AddressInfo).port;
    this.#ports.add(this.#port);
    this.#url = `http://${host.includes(':') ? `[${host}]` : host}:${this.#port}`;
  }

  #connection(sock: net.Socket): void {
    const to = this.#forwardTo;
    if (to === undefined) return void this.#server.emit('connection', sock);
    // Piped as bytes: whatever the client speaks on it (keep-alive, streams) reaches the next engine unchanged.
    const next = net.connect(to, '127.0.0.1');
    this.#forwarded.add(sock);
    const end = () => {
      this.#forwarded.delete(sock);
      sock.destroy();
      next.destroy();
    };
    sock.on('error', end).on('close', end);
    next.on('error', end).on('close', end);
    sock.setNoDelay(true);
    next.setNoDelay(true);
    sock.pipe(next).pipe(sock);
  }

  /**
   * Taking a home over: requests for the old engine's port (forwarded to us, then ours) are ours
   * too, and that is the address to give (it stays the UI's and the HTTP clients').
   */
  acceptPort(port: number, host = '127.0.0.1'): void {
    for (const f of this.#fronts) this.#passing.add(f);
    this.#ports.add(port);
    this.#url = `http://${host}:${port}`;
  }

  /**
   * Taking a home over: binds `port` the moment the old engine closed it (retrying while it is
   * still busy), serves on it from then on, and stops taking connections on the port used until now.
   */
  async takePort(port: number, host = '127.0.0.1'): Promise<void> {
    const deadline = Date.now() + TAKE_PORT_DEADLINE_MS;
    let front: net.Server;
    for (;;) {
      try {
        front = await this.#listenFront(port, host);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
    const before = [...this.#fronts].filter((f) => f !== front);
    this.#use(front, host);
    for (const f of before) {
      this.#fronts.delete(f);
      f.close();
    }
  }

  /**
   * Handing the home over: every new connection is piped to `port` (the next engine), and the
   * requests still arriving on open connections are answered with the connection closed after.
   */
  forwardTo(port: number): void {
    this.#forwardTo = port;
    this.#draining = true;
  }

  /** Requests being answered by this engine (GET streams left out). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Handing over: stops listening (the next engine binds the port at once) and closes idle connections. */
  async releasePort(): Promise<void> {
    // close() frees the port at once; its callback would wait for every connection it took.
    for (const f of this.#fronts) f.close();
    this.#fronts.clear();
    this.#server.closeIdleConnections();
  }

  /** Waits until the connections piped to the next engine have ended, at most `ms`; then cuts them. */
  async forwardedDone(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.#forwarded.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (const s of this.#forwarded) s.destroy();
  }

  /** The base URL (http://127.0.0.1:PORT); asked for only once listen() resolved. */
  get url(): string {
    if (this.#url === null) throw new Error('The HTTP server is not listening yet.');
    return this.#url;
  }

  get listening(): boolean {
    return this.#url !== null;
  }

  get port(): number {
    return this.#port;
  }

  #allowedHosts(): Set<string> {
    const hosts = new Set<string>();
    for (const p of this.#ports) for (const h of [`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`]) hosts.add(h);
    return hosts;
  }

  /** DNS rebinding: a page on another origin, or a rebound name, must never reach a handler. */
  #checkOrigin(req: IncomingMessage): string | undefined {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!this.#allowedHosts().has(host)) return `Host "${host}" is not allowed; use ${this.url}.`;
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const ok = [...this.#allowedHosts()].some((h) => origin.toLowerCase() === `http://${h}`);
      if (!ok) return `Origin "${origin}" is not allowed.`;
    }
    return undefined;
  }

  #authorized(req: IncomingMessage): boolean {
    const h = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(h);
    if (!m) return false;
    const given = Buffer.from(m[1]!);
    const want = Buffer.from(this.#engine.token);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = this.#checkOrigin(req);
    if (refused) {
      sendJson(res, 403, { error: { code: 'denied', message: refused } });
      return;
    }
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname.startsWith('/api/')) {
      if (!this.#authorized(req)) return unauthorized(res);
      return this.#api(req, res, decodeURIComponent(url.pathname.slice(5)));
    }
    if (url.pathname.startsWith('/mcp/')) {
      if (!this.#authorized(req)) return unauthorized(res);
      return this.#mcpRequest(req, res, decodeURIComponent(url.pathname.slice(5)));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { error: { code: 'bad-request', message: 'Only GET is served here.' } });
      return;
    }
    this.#static(url.pathname, res);
  }

  async #api(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: { code: 'bad-request', message: `Use POST /api/${method} with the parameters as a JSON body.` } });
      return;
    }
    let params: unknown = {};
    try {
      const body = await readBody(req, MAX_API_BODY);
      params = body.length ? JSON.parse(body.toString('utf8')) : {};
    } catch (err) {
      sendJson(res, 400, { error: { code: 'bad-request', message: `The request body is not valid JSON (${(err as Error).message}).` } });
      return;
    }
    try {
      const result = await this.#engine.control.handle(method, params);
      sendJson(res, 200, { result });
    } catch (err) {
      const data = toErrorData(err);
      sendJson(res, httpStatusFor(data.code), { error: data });
    }
  }

  async #mcpRequest(req: IncomingMessage, res: ServerResponse, profile: string): Promise<void> {
    const gateway = this.#engine.gateway;
    if (!gateway.view(profile)) {
      sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: gateway.unknownProfileMessage(profile) } });
      return;
    }
    // The SDK caps bodies at 4 MB by default; SPEC §5 allows 64 MB messages on every transport.
    // The body is read here, up to that, so a larger one gets an answer that says what to do.
    let body: unknown;
    let raw: Buffer | undefined;
    if (req.method === 'POST') {
      const read = await readCappedBody(req, MAX_MESSAGE_BYTES);
      if (read === TOO_LARGE) return mcpTooLarge(req, res);
      raw = read;
      try {
        body = JSON.parse(read.toString('utf8'));
      } catch {
        sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' } });
        return;
      }
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const entry = this.#mcp.get(sid);
      if (!entry || entry.profile !== profile) {
        sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unknown or expired session; initialize again.' } });
        return;
      }
      entry.lastSeen = Date.now();
      await entry.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Start a session with an initialize POST.' } });
      return;
    }
    // Which generation: a 2026-07-28 request carries its era's claim (envelope, headers) and
    // goes to the stateless endpoint; everything else to a 2025 session as before.
    // (The SDK's rule for telling them apart comes with the 2026-07-28 side, loaded on the first such POST.)
    const { Rev20260728Endpoint, toFetchRequest } = await loadRev20260728();
    const request = toFetchRequest(req, this.url, raw);
    if (await Rev20260728Endpoint.isRev20260728(request, body)) {
      this.#modern ??= new Rev20260728Endpoint(gateway);
      await this.#modern.serve(request, body, profile, res, req);
      return;
    }
    // Loaded on the first HTTP MCP session: most users only connect through the shim.
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      // Tells clients how soon to reconnect when a stream closes (SSE `retry`), in ms.
      retryInterval: 1000,
      onsessioninitialized: (id) => {
        this.#mcp.set(id, { transport, profile, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#mcp.delete(transport.sessionId);
    };
    await gateway.connect(profile, transport, { kind: 'http' });
    await transport.handleRequest(req, res, body);
    if (!transport.sessionId) await transport.close();
  }

  #static(pathname: string, res: ServerResponse): void {
    const rel = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
    // A checkout builds the UI on first need (ui-build.ts); the packaged app ships it built.
    const building = uiBuildFor(APP_ROOT, RENDERER_DIR, rel);
    if (building) {
      building.then(
        () => this.#staticFile(rel, res),
        (err: unknown) => {
          res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`The Switchboard UI could not be built: ${err instanceof Error ? err.message : String(err)}\nRun \`npm run build:renderer\` to see why.\n`);
        },
      );
      return;
    }
    this.#staticFile(rel, res);
  }

  #staticFile(rel: string, res: ServerResponse): void {
    const file = path.resolve(RENDERER_DIR, rel);
    const inside = file.startsWith(path.resolve(RENDERER_DIR) + path.sep);
    let target = inside && existsSync(file) && statSync(file).isFile() ? file : undefined;
    // Client-side routes fall back to the app shell.
    if (!target && !path.extname(rel)) {
      const index = path.join(RENDERER_DIR, 'index.html');
      if (existsSync(index)) target = index;
    }
    if (!target) {
      if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('The Switchboard UI is not built yet: run `npm run build:renderer` (npm start does it for you).\n');
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(target)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...(target.endsWith('.html')
        ? {
            'content-security-policy':
              "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
            'cache-control': 'no-store',
          }
        : {}),
    });
    createReadStream(target).pipe(res);
  }

  /**
   * HTTP clients often go away without a DELETE; a session idle this long is closed, so it
   * stops counting as a connected client or as a target for server requests.
   */
  #expireIdleSessions(): void {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, entry] of this.#mcp) {
      if (entry.lastSeen < cutoff) {
        this.#mcp.delete(id);
        void entry.transport.close().catch(() => {});
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const { transport } of this.#mcp.values()) await transport.close().catch(() => {});
    this.#mcp.clear();
    await this.#modern?.close();
    for (const f of this.#fronts) f.close();
    this.#fronts.clear();
    this.#server.closeAllConnections();
    for (const s of this.#forwarded) s.destroy();
    this.#server.close();
  }
}

function unauthorized(res: ServerResponse): void {
  sendJson(res, 401, {
    error: { code: 'denied', message: 'Missing or wrong access token. Open the address `switchboard serve` printed (it carries the token).' },
  });
}

/** Bytes of a refused body read and dropped so the client can read the 413 (a bigger upload is cut off). */
const MAX_DISCARD_BYTES = 4 * MAX_MESSAGE_BYTES;

const TOO_LARGE = Symbol('too large');

/** A request body up to `max` bytes; a declared or actual larger one is not kept. */
function readCappedBody(req: IncomingMessage, max: number): Promise<Buffer | typeof TOO_LARGE> {
  if (Number(req.headers['content-length']) > max) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= max) return void chunks.push(c);
      req.off('data', onData);
      req.off('end', onEnd);
      chunks.length = 0;
      resolve(TOO_LARGE);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

function mcpTooLarge(req: IncomingMessage, res: ServerResponse): void {
  const mb = MAX_MESSAGE_BYTES / (1024 * 1024);
  // Closing at once would make a client that is still uploading see EPIPE instead of the answer:
  // the rest is read and dropped (up to a bound).
  let dropped = 0;
  req.on('data', (c: Buffer) => {
    dropped += c.length;
    if (dropped > MAX_DISCARD_BYTES) req.destroy();
  });
  req.resume();
  sendJson(res, 413, {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: `The request is larger than ${mb} MB, the largest MCP message Switchboard accepts; send less data per call (split it, or pass a file path instead of its contents).` },
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const body = await readCappedBody(req, max);
  if (body !== TOO_LARGE) return body;
  req.destroy();
  throw new SwitchboardError('bad-request', `The request body is larger than ${max} bytes.`);
}
