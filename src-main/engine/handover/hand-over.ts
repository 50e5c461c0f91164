// The running engine's side of a take-over (docs/updates.md, "Restart to update: the take-over"):
// a new engine asked on the socket (a `takeover` hello); this one checks the version, gives it the
// socket path and forwards its new HTTP connections to it, tells each shim to send new requests
// there, answers the calls in flight, then stops its servers, releases the lock and leaves.
import { renameSync } from 'node:fs';
import type net from 'node:net';
import semver from 'semver';
import { ENGINE_MOVING_METHOD, type TakeOverEvent, type TakeOverHello } from '../../../src-shared/api.ts';
import type { SocketServer } from '../api/socket-server.ts';
import type { HttpServer } from '../http/http-server.ts';

/** Longest wait for the calls in flight, in ms (docs/configuration.md: each within its own timeout, at most 2 minutes). */
export const MAX_DRAIN_MS = 120_000;
/**
 * A shim connection with nothing in flight for this long is closed by the engine, in ms. A shim
 * that understood the moving notice closes it itself once its calls are answered; this is for
 * one that did not (it then reconnects, with nothing in flight to lose).
 */
export const IDLE_CLOSE_MS = 1000;
/** How long connections already piped to the next engine may run on once this one has stopped, in ms. */
export const FORWARD_GRACE_MS = 10_000;
const POLL_MS = 25;

/** What a hand-over needs of the engine. */
export interface HandingEngine {
  readonly version: string;
  readonly socket: SocketServer;
  readonly http: HttpServer | null;
  readonly control: { readonly inFlight: number };
  log(line: string): void;
  /** Stops everything (servers, records, lock); resolves once the lock is released. */
  dispose(): Promise<void>;
}

/** Why this engine will not hand the home to `theirs`, or undefined when it will. */
export function refusal(mine: string, theirs: string): string | undefined {
  const them = semver.valid(theirs);
  if (!them) return `"${theirs}" is not a version; the engine taking over must say which version it is.`;
  const me = semver.valid(mine);
  if (me && semver.gt(me, them))
    return `Switchboard ${me} serves this home; an engine never takes over one of a newer version (this one is ${them}). Install ${me} or later.`;
  return undefined;
}

export class HandOver {
  #started = false;
  #left = false;
  readonly #engine: HandingEngine;
  /** Called once this engine has left (stopped, lock released, piped connections ended). */
  readonly #onLeft: () => void;

  constructor(engine: HandingEngine, onLeft: () => void) {
    this.#engine = engine;
    this.#onLeft = onLeft;
  }

  get started(): boolean {
    return this.#started;
  }

  /** Answers a `takeover` hello on `sock`: refuses it, or hands the home over and leaves. */
  accept(hello: TakeOverHello, sock: net.Socket): void {
    const say = (e: TakeOverEvent) => {
      if (!sock.destroyed) sock.write(JSON.stringify(e) + '\n');
    };
    const e = this.#engine;
    const why =
      this.#started ? 'This engine is already handing the home over.'
      : process.platform === 'win32' ? 'Taking over a running engine is not supported on Windows yet; quit Switchboard and start it again.'
      : refusal(e.version, hello.version);
    if (why) {
      say({ event: 'refused', error: { code: 'engine-unavailable', message: why } });
      sock.end();
      return;
    }
    this.#started = true;
    try {
      // Atomic: a shim connecting from now on reaches the new engine, one before reached us.
      renameSync(hello.socket, e.socket.path);
    } catch (err) {
      this.#started = false;
      say({ event: 'refused', error: { code: 'io-error', message: `Could not hand the socket over: ${(err as Error).message}` } });
      sock.end();
      return;
    }
    say({ event: 'accepted', version: e.version, pid: process.pid });
    e.log(`handing this home over to engine ${hello.pid} (${hello.version})`);
    if (e.http && hello.httpPort !== null) e.http.forwardTo(hello.httpPort);
    // `lists`: what the client holds, so the next engine tells it of a list only if it differs there.
    e.socket.giveUpPath((t) => JSON.stringify({ jsonrpc: '2.0', method: ENGINE_MOVING_METHOD, params: { pid: hello.pid, version: hello.version, lists: t.heldLists?.() ?? {} } }) + '\n');
    sock.on('error', () => {});
    sock.on('close', () => {
      if (!this.#left) e.log(`the engine taking over (pid ${hello.pid}) went away; this one leaves anyway`);
    });
    void this.#drainAndLeave(say);
  }

  async #drainAndLeave(say: (e: TakeOverEvent) => void): Promise<void> {
    const e = this.#engine;
    const deadline = Date.now() + MAX_DRAIN_MS;
    const idleSince = new Map<object, number>();
    for (;;) {
      const now = Date.now();
      const open = e.socket.mcpConnections();
      for (const t of open) {
        if (t.unanswered > 0) idleSince.delete(t);
        else if (!idleSince.has(t)) idleSince.set(t, now);
        else if (now - idleSince.get(t)! >= IDLE_CLOSE_MS) void t.close();
      }
      const busy = open.length > 0 || (e.http?.inFlight ?? 0) > 0 || e.control.inFlight > 0;
      if (!busy) break;
      if (now > deadline) {
        e.log(`handing over: ${open.length} connection(s) still had calls in flight after ${MAX_DRAIN_MS / 1000} s; closing them`);
        break;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    await e.http?.releasePort();
    say({ event: 'http-released' });
    // From here the engine taking over may take the lock and hang up at any moment.
    this.#left = true;
    await e.dispose();
    say({ event: 'left' });
    await e.http?.forwardedDone(FORWARD_GRACE_MS);
    this.#onLeft();
  }
}
