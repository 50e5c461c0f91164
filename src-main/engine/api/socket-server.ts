// The engine socket (Unix domain socket, or a named pipe on Windows). Each connection starts
// with one JSON line saying what it is: an MCP session for a profile (from a shim) or a
// control connection (from the CLI).
import { chmodSync, existsSync, renameSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { SocketHello, TakeOverHello } from '../../../src-shared/api.ts';
import { parseSocketHello } from '../../../src-shared/api-schema.ts';
import { LineTransport } from '../gateway/line-transport.ts';
import type { Gateway } from '../gateway/gateway.ts';
import type { ControlHandler } from './control-handlers.ts';
import { serveControlConnection } from './control-connection.ts';

/** Longest hello line accepted, in bytes. */
const MAX_HELLO = 64 * 1024;

/** What the socket serves: MCP sessions (the gateway) and control connections. */
export interface SocketServices {
  gateway: Pick<Gateway, 'connect'>;
  control: ControlHandler;
  /** A new engine asking to take the home over (handover/hand-over.ts); refused when absent. */
  takeOver?: (hello: TakeOverHello, sock: net.Socket) => void;
}

export class SocketServer {
  /** Where it listens: the home's socket, or a take-over's socket beside it until adoptPath(). */
  #path: string;
  readonly #server = net.createServer();
  readonly #sockets = new Set<net.Socket>();
  /** The MCP connections (shims), for an engine handing the home over. */
  readonly #mcp = new Set<LineTransport>();
  /**
   * Set once the path is another engine's (handed over): the notice every MCP connection is
   * given, the ones that still come from the listen queue included.
   */
  #movingNotice: ((t: LineTransport) => string) | undefined;

  constructor(path: string, services: SocketServices) {
    this.#path = path;
    this.#server.on('connection', (sock) => this.#accept(sock, services));
  }

  get path(): string {
    return this.#path;
  }

  /** The shims' connections still open. */
  mcpConnections(): LineTransport[] {
    return [...this.#mcp].filter((t) => !t.closed);
  }

  /** The old engine renamed our socket onto the home's: that is where we listen now. */
  adoptPath(path: string): void {
    this.#path = path;
  }

  /**
   * The path was handed to another engine (renamed onto by its socket): stops listening (nothing
   * new reached this listener since) and tells every MCP connection so with `notice`. Open
   * connections stay until close(), which leaves the path alone.
   */
  giveUpPath(notice: (t: LineTransport) => string): void {
    this.#movingNotice = notice;
    this.#server.close();
    for (const t of this.mcpConnections()) t.writeLine(notice(t));
  }

  async listen(): Promise<void> {
    // Bound under a name of its own, then renamed onto the path (which replaces a socket file a
    // dead engine left): closing a Unix socket listener unlinks the name it was bound to, and
    // that name must never be the home's, which may be another engine's socket by then (a
    // take-over renames the new engine's socket onto it). The engine lock guarantees that no
    // live engine owns the path when we get here (a take-over listens on a path of its own).
    const bound = process.platform === 'win32' ? this.#path : path.join(path.dirname(this.#path), `l${process.pid.toString(36)}.s`);
    if (process.platform !== 'win32' && existsSync(bound)) unlinkSync(bound);
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(bound, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    if (process.platform !== 'win32') {
      chmodSync(bound, 0o600);
      renameSync(bound, this.#path);
    }
  }

  #accept(sock: net.Socket, { gateway, control, takeOver }: SocketServices): void {
    this.#sockets.add(sock);
    sock.on('close', () => this.#sockets.delete(sock));
    sock.on('error', () => {});
    sock.setNoDelay(true);
    let head: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const nl = head.indexOf(10);
      if (nl === -1) {
        if (head.length > MAX_HELLO) sock.destroy();
        return;
      }
      sock.off('data', onData);
      sock.pause();
      const rest = head.subarray(nl + 1);
      let hello: SocketHello | undefined;
      try {
        hello = parseSocketHello(JSON.parse(head.subarray(0, nl).toString('utf8')));
      } catch {
        sock.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"This socket speaks the Switchboard shim protocol; connect with `switchboard shim --profile NAME`."}}\n');
        return;
      }
      if (hello?.kind === 'mcp') {
        const transport = new LineTransport(sock, { initial: rest });
        this.#mcp.add(transport);
        sock.on('close', () => this.#mcp.delete(transport));
        if (this.#movingNotice) transport.writeLine(this.#movingNotice(transport));
        void gateway.connect(hello.profile, transport, { kind: 'socket', resumeInitialize: hello.resume?.initialize, connector: hello.client, bootServed: hello.resume?.boot, moved: hello.resume?.moved }).then(() => sock.resume());
      } else if (hello?.kind === 'control') {
        serveControlConnection(sock, control, rest);
        sock.resume();
      } else if (hello?.kind === 'takeover') {
        // Outlives close(): the hand-over says on it when the lock is released, after close().
        this.#sockets.delete(sock);
        if (takeOver) takeOver(hello, sock);
        else sock.end(JSON.stringify({ event: 'refused', error: { code: 'engine-unavailable', message: 'This engine cannot hand its home over.' } }) + '\n');
        sock.resume();
      } else {
        sock.destroy();
      }
    };
    sock.on('data', onData);
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    if (this.#server.listening) await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    // Handed over: the path is the other engine's socket.
    if (process.platform !== 'win32' && this.#movingNotice === undefined && existsSync(this.path)) {
      try {
        unlinkSync(this.path);
      } catch {
        // Already gone.
      }
    }
  }
}
