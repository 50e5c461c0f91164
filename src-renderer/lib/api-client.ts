// One ControlClient for the renderer over whichever transport it runs on: the Electron preload
// bridge (window.switchboard) or the HTTP API of `switchboard serve`.
import type { ControlClient, ControlMethod, ControlParams, ControlResult } from '../../src-shared/api.ts';
import type { ErrorData, ErrorCode } from '../../src-shared/errors.ts';
import type { IpcReply, SwitchboardBridge } from '../../src-shared/ipc.ts';
import { isReadOnly, retryUnreachable } from './api-retry.ts';

/** A failed call, with the engine's code, sentence and (for invalid-config) problems by path. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly problems: NonNullable<ErrorData['problems']>;
  constructor(data: ErrorData) {
    super(data.message);
    this.name = 'ApiError';
    this.code = data.code;
    this.problems = data.problems ?? [];
  }
}

function unwrap(reply: IpcReply): unknown {
  if ('error' in reply) throw new ApiError(reply.error);
  return reply.result;
}

export function createBridgeClient(bridge: SwitchboardBridge): ControlClient {
  return {
    async call<M extends ControlMethod>(method: M, params: ControlParams<M>): Promise<ControlResult<M>> {
      return unwrap(await bridge.call(method, params)) as ControlResult<M>;
    },
  };
}

export interface HttpClientOptions {
  /** Origin of the engine's HTTP server; '' means the page's own origin. */
  base: string;
  token: () => string | null;
  fetch?: typeof fetch;
  /** Waits between retries (tests pass a fast one). Defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export function createHttpClient(opts: HttpClientOptions): ControlClient {
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    async call<M extends ControlMethod>(method: M, params: ControlParams<M>): Promise<ControlResult<M>> {
      const token = opts.token();
      if (!token) {
        throw new ApiError({
          code: 'denied',
          message: 'This page has no access token. Open the address that `switchboard serve` printed (the one ending in #token=…).',
        });
      }
      let res: Response;
      try {
        const send = () =>
          doFetch(`${opts.base}/api/${method}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: JSON.stringify(params ?? {}),
          });
        res = isReadOnly(method) ? await retryUnreachable(send, opts.sleep) : await send();
      } catch {
        throw new ApiError({
          code: 'engine-unavailable',
          message: 'Switchboard is not answering: it was closed or stopped. Start Switchboard again, the way you opened it before; this page reconnects by itself.',
        });
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        body = undefined;
      }
      if (body && typeof body === 'object' && 'error' in body) throw new ApiError((body as { error: ErrorData }).error);
      if (!res.ok || !body || typeof body !== 'object' || !('result' in body)) {
        throw new ApiError({
          code: res.status === 401 || res.status === 403 ? 'denied' : 'internal',
          message:
            res.status === 401 || res.status === 403
              ? 'The access token was refused. Open the address that `switchboard serve` printed again.'
              : `Switchboard answered with an unexpected response (HTTP ${res.status}).`,
        });
      }
      return (body as { result: ControlResult<M> }).result;
    },
  };
}

const TOKEN_KEY = 'switchboard.token';

/**
 * Moves `#token=…` from the address bar into sessionStorage so it is not bookmarked, shared in a
 * screenshot or sent as a Referer, and returns the token in force.
 */
export function adoptToken(loc: Location, hist: History, storage: Storage): string | null {
  const m = /(?:^#|&)token=([^&]+)/.exec(loc.hash);
  if (m) {
    storage.setItem(TOKEN_KEY, decodeURIComponent(m[1]!));
    hist.replaceState(null, '', `${loc.pathname}${loc.search}#/servers`);
  }
  return storage.getItem(TOKEN_KEY);
}

/** The client for this window: IPC inside the desktop app, HTTP in a browser. */
export function createClient(win: Window & { switchboard?: SwitchboardBridge }): ControlClient {
  if (win.switchboard) return createBridgeClient(win.switchboard);
  adoptToken(win.location, win.history, win.sessionStorage);
  return createHttpClient({ base: '', token: () => win.sessionStorage.getItem(TOKEN_KEY) });
}

/** A sentence for any thrown value, for showing to the user. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
