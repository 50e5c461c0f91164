// All upstream connections of one engine, kept in step with config.json's `servers`.
// Servers start in parallel and independently: a slow or broken one never holds up another,
// and its tools are simply absent until it is ready.
import { EventEmitter } from 'node:events';
import { isDeepStrictEqual } from 'node:util';
import type { ServerStatus } from '../../../src-shared/api.ts';
import type { ServerConfig } from '../../../src-shared/config/schema.ts';
import { differsOnlyInRoots } from './roots.ts';
import { answerWithoutClient } from './answer-without-client.ts';
import { Upstream, type NotificationHandler, type ServerRequestHandler, type UpstreamOptions } from './server-connection.ts';

export interface SupervisorOptions extends Omit<UpstreamOptions, 'onServerRequest' | 'onNotification' | 'onCatalog' | 'onState'> {
  logsDir: string;
  resolveSecret?: (name: string) => string | undefined;
  clientInfo?: { name: string; version: string };
  onServerRequest?: ServerRequestHandler;
  onNotification?: NotificationHandler;
  /**
   * Servers are made (state `starting`, their boot catalogs shown, calls waiting) but not
   * started until startHeld(): an engine taking a home over must not run a server while the
   * engine it replaces still runs it (a stateful server would have two writers). Default false.
   */
  holdStarts?: boolean;
}

/**
 * How long a caller waits, in milliseconds, for a profile's servers to leave `starting` before
 * it answers with what is ready (a first tools/list, a code run's globals). The demo servers take
 * 1.5–4 s on a busy 2-core machine; a server slower than this shows up later through list_changed,
 * and a run that starts without it says so in its hint.
 */
export const SETTLE_WAIT_MS = 8000;

/**
 * Whether a server is still coming up: its first start, or a restart with no error behind it
 * (asked for, or a reconnect after sign-in). A server retrying after a failed start or a crash
 * has a lastError to report and may take its whole backoff: nobody waits for that.
 */
export function isSettling(up: Pick<Upstream, 'state' | 'lastError'>): boolean {
  return up.state === 'starting' || (up.state === 'restarting' && up.lastError === null);
}

interface SupervisorEvents {
  /** A server's tools, resources or prompts changed (including becoming ready or going away). */
  catalog: [name: string];
  /** A server's state or lastError changed. */
  state: [name: string];
}

export class Supervisor extends EventEmitter<SupervisorEvents> {
  readonly #opts: SupervisorOptions;
  readonly #upstreams = new Map<string, Upstream>();
  readonly #stopping = new Set<Promise<void>>();
  #disposed = false;
  /** Servers made while starts are held (holdStarts), started by startHeld(). */
  #held: Set<Upstream> | undefined;
  /** Pending settle() waits: each is checked on every state change, and ended by dispose. */
  readonly #settleWaiters = new Set<{ check(): void; finish(): void }>();

  constructor(opts: SupervisorOptions) {
    super();
    this.#opts = opts;
    if (opts.holdStarts) this.#held = new Set();
    // One listener for every wait, however many there are (no per-wait listeners to pile up).
    this.on('state', () => {
      for (const w of [...this.#settleWaiters]) w.check();
    });
  }

  /** Starts new servers, stops removed ones, restarts those whose config changed. */
  apply(servers: Record<string, ServerConfig>): void {
    if (this.#disposed) return;
    for (const [name, up] of this.#upstreams) {
      if (!Object.hasOwn(servers, name)) {
        this.#upstreams.delete(name);
        this.#stop(up);
        this.emit('state', name);
        this.emit('catalog', name);
      }
    }
    for (const [name, config] of Object.entries(servers)) {
      const old = this.#upstreams.get(name);
      if (old && isDeepStrictEqual(old.config, config)) continue;
      if (old && differsOnlyInRoots(old.config, config)) {
        old.updateRoots(config);
        continue;
      }
      if (old) this.#stop(old);
      const up: Upstream = new Upstream(name, config, {
        ...this.#opts,
        onServerRequest: (server, req, extra) => {
          const h = this.#opts.onServerRequest;
          return h ? h(server, req, extra) : Promise.resolve().then(() => answerWithoutClient(req.method));
        },
        onNotification: (server, n) => this.#opts.onNotification?.(server, n),
        onCatalog: (n) => this.#upstreams.get(n) === up && this.emit('catalog', n),
        onState: (n) => this.#upstreams.get(n) === up && this.emit('state', n),
      });
      this.#upstreams.set(name, up);
      if (this.#held) this.#held.add(up);
      else up.start();
      this.emit('state', name);
      if (old) this.emit('catalog', name);
    }
  }

  /** Starts the servers held back (holdStarts) that are still current; later ones start at once. */
  startHeld(): void {
    const held = this.#held;
    this.#held = undefined;
    if (!held || this.#disposed) return;
    for (const up of held) if (this.#upstreams.get(up.name) === up) up.start();
  }

  get(name: string): Upstream | undefined {
    return this.#upstreams.get(name);
  }

  names(): string[] {
    return [...this.#upstreams.keys()];
  }

  /**
   * Waits until none of `names` is still starting (see isSettling), at most `timeoutMs` or until
   * `signal` fires. Resolves with the names still starting then (empty when all settled); never
   * rejects. The one wait every surface uses before answering from a cold engine.
   */
  settle(names: readonly string[], timeoutMs = SETTLE_WAIT_MS, signal?: AbortSignal): Promise<string[]> {
    const pending = () =>
      this.#disposed
        ? []
        : names.filter((n) => {
            const up = this.#upstreams.get(n);
            return up !== undefined && isSettling(up);
          });
    const now = pending();
    if (now.length === 0 || timeoutMs <= 0 || signal?.aborted) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiter = {
        finish: () => {
          clearTimeout(timer);
          this.#settleWaiters.delete(waiter);
          signal?.removeEventListener('abort', waiter.finish);
          resolve(pending());
        },
        check: () => {
          if (pending().length === 0) waiter.finish();
        },
      };
      const timer = setTimeout(waiter.finish, timeoutMs);
      this.#settleWaiters.add(waiter);
      signal?.addEventListener('abort', waiter.finish, { once: true });
    });
  }

  statuses(): Record<string, ServerStatus> {
    const out: Record<string, ServerStatus> = {};
    for (const [name, up] of this.#upstreams) out[name] = up.status();
    return out;
  }

  /** Stops every server and its process tree. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    for (const w of [...this.#settleWaiters]) w.finish();
    const all = [...this.#upstreams.values()];
    this.#upstreams.clear();
    for (const up of all) this.#stop(up);
    await Promise.all([...this.#stopping]);
    this.removeAllListeners();
  }

  #stop(up: Upstream): void {
    const p = up.dispose().finally(() => this.#stopping.delete(p));
    this.#stopping.add(p);
  }
}
