// The redirect target of one sign-in: an HTTP listener on 127.0.0.1 that lives only for the
// flow, answers only its exact path, and hands back the code once `state` matches.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SwitchboardError } from '../../../../src-shared/errors.ts';

export const CALLBACK_PATH = '/oauth/callback';

const PAGE = (title: string, body: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;margin:3em"><h1>${title}</h1><p>${body}</p></body>`;

export class LoopbackListener {
  readonly #server: http.Server;
  readonly url: string;
  #result: Promise<string> | undefined;
  #cancel: (() => void) | undefined;

  private constructor(server: http.Server) {
    this.#server = server;
    const { port } = server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  }

  /** Listens on `port` when given and free, else on any free port. */
  static async start(port?: number): Promise<LoopbackListener> {
    const listen = (p: number) =>
      new Promise<http.Server>((resolve, reject) => {
        const server = http.createServer();
        server.once('error', reject);
        server.listen(p, '127.0.0.1', () => {
          server.off('error', reject);
          resolve(server);
        });
      });
    let server: http.Server;
    try {
      server = await listen(port ?? 0);
    } catch (err) {
      if (port === undefined) throw err;
      server = await listen(0);
    }
    return new LoopbackListener(server);
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /**
   * Resolves with the authorization code of the first redirect to the callback path; rejects when
   * that redirect carries another `state`, an error, or no code, or when `timeoutMs` passes.
   */
  waitForCode(expectedState: () => string | undefined, timeoutMs: number, server: string): Promise<string> {
    this.#result ??= new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new SwitchboardError('timeout', `Signing in to ${server} was not finished within ${Math.round(timeoutMs / 1000)} s; nothing was stored.`)),
        timeoutMs,
      );
      const settle = (err: SwitchboardError | undefined, code?: string) => {
        clearTimeout(timer);
        this.#cancel = undefined;
        this.#server.removeAllListeners('request');
        this.#server.on('request', (_req, res) => res.writeHead(410).end());
        if (err) reject(err);
        else resolve(code!);
      };
      this.#cancel = () => settle(new SwitchboardError('cancelled', `Signing in to ${server} was stopped; nothing was stored.`));
      this.#server.on('request', (req, res) => {
        const u = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (req.method !== 'GET' || u.pathname !== CALLBACK_PATH) {
          res.writeHead(404).end();
          return;
        }
        const q = u.searchParams;
        const html = (status: number, title: string, body: string) =>
          res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE(title, body));
        const expected = expectedState();
        if (!expected || q.get('state') !== expected) {
          html(400, 'Sign-in refused', 'The answer did not carry the state Switchboard sent, so it was ignored. You can close this tab.');
          settle(new SwitchboardError('upstream-error', `The sign-in answer for ${server} carried a wrong state (a possible forgery), so it was refused and nothing was stored.`));
          return;
        }
        const error = q.get('error');
        if (error) {
          const why = q.get('error_description') ?? error;
          html(400, 'Sign-in failed', 'The server did not grant access. You can close this tab.');
          settle(new SwitchboardError('upstream-error', `${server} did not grant access (${why.slice(0, 200)}); nothing was stored.`));
          return;
        }
        const code = q.get('code');
        if (!code) {
          html(400, 'Sign-in failed', 'The answer carried no authorization code. You can close this tab.');
          settle(new SwitchboardError('upstream-error', `The sign-in answer for ${server} carried no authorization code; nothing was stored.`));
          return;
        }
        html(200, 'Signed in', 'Switchboard is signed in. You can close this tab.');
        settle(undefined, code);
      });
    });
    return this.#result;
  }

  dispose(): Promise<void> {
    this.#cancel?.();
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}
