// The engine socket (Unix domain socket, or a named pipe on Windows). Each connection starts
// with one JSON line saying what it is: an MCP session for a profile (from a shim) or a
// control connection (from the CLI).
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import type { SocketHello } from '../../../src-shared/api.ts';
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
}

export class SocketServer {
  readonly path: string;
  readonly #server = net.createServer();
  readonly #sockets = new Set<net.Socket>();

  constructor(path: string, services: SocketServices) {
    this.path = path;
    this.#server.on('connection', (sock) => this.#accept(sock, services.gateway, services.control));
  }

  async listen(): Promise<void> {
    // A socket file left by a dead engine blocks listen(); the engine lock guarantees that no
    // live engine owns it when we get here.
    if (process.platform !== 'win32' && existsSync(this.path)) unlinkSync(this.path);
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.path, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    if (process.platform !== 'win32') chmodSync(this.path, 0o600);
  }

  #accept(sock: net.Socket, gateway: SocketServices['gateway'], control: ControlHandler): void {
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
        void gateway.connect(hello.profile, transport, { kind: 'socket', resumeInitialize: hello.resume?.initialize, connector: hello.client, bootServed: hello.resume?.boot }).then(() => sock.resume());
      } else if (hello?.kind === 'control') {
        serveControlConnection(sock, control, rest);
        sock.resume();
      } else {
        sock.destroy();
      }
    };
    sock.on('data', onData);
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    if (process.platform !== 'win32' && existsSync(this.path)) {
      try {
        unlinkSync(this.path);
      } catch {
        // Already gone.
      }
    }
  }
}
