// Roots (docs/protocol.md). An upstream server is shared by every client and profile, and a server such as
// the reference filesystem server replaces the folders it may touch with whatever roots it is
// given — so one client's roots must never reach a server other clients use. The answer comes
// from the server's own `roots` in config.json (none when absent). A server with
// `"rootsFrom": "client"` gets its client's roots instead, but only while exactly one client
// session uses it; when that stops being true the server is restarted, so that it forgets them.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { ServerConfig } from '../../../src-shared/config/schema.ts';

export interface Root {
  uri: string;
  name?: string;
}

/** The `roots/list` answer a server's config gives: its `roots` as file:// URIs. */
export function configuredRoots(config: Pick<ServerConfig, 'roots'> | undefined): { roots: Root[] } {
  return {
    roots: (config?.roots ?? []).map((p) => {
      const name = path.basename(p) || p;
      return { uri: pathToFileURL(p).href, name };
    }),
  };
}

/** Whether a server opted in to its (sole) client's roots. */
export function followsClientRoots(config: Pick<ServerConfig, 'rootsFrom'> | undefined): boolean {
  return config?.rootsFrom === 'client';
}

/**
 * Two configs of one server that differ only in `roots`: the server keeps running and is told
 * `notifications/roots/list_changed` instead of being restarted.
 */
export function differsOnlyInRoots(a: ServerConfig, b: ServerConfig): boolean {
  const { roots: ra, ...restA } = a;
  const { roots: rb, ...restB } = b;
  return !isDeepStrictEqual(ra ?? [], rb ?? []) && isDeepStrictEqual(restA, restB);
}

/** What the router needs of a client session. */
export interface RootsClient {
  /** Whether the client said it has roots (capability `roots`). */
  accepts(method: string): boolean;
  forwardRequest(request: { method: 'roots/list' }, signal?: AbortSignal): Promise<unknown>;
}

export interface RootsRouterDeps<S extends RootsClient> {
  /** The server's entry in config.json, if any. */
  config(server: string): ServerConfig | undefined;
  /** Client sessions whose profile includes the server right now. */
  users(server: string): S[];
  /** Every server in config.json. */
  servers(): Iterable<string>;
  /** Restarts the server, so it forgets roots it was given. */
  restart(server: string): void;
  /** Sends `notifications/roots/list_changed` to the server, so it asks again. */
  rootsChanged(server: string): void;
}

export class RootsRouter<S extends RootsClient> {
  readonly #deps: RootsRouterDeps<S>;
  /** Servers that were given a client's roots, and which client's. */
  readonly #steeredBy = new Map<string, S>();
  /** The sole user last told about, per opted-in server, so it is asked once per change. */
  readonly #announced = new Map<string, S | undefined>();

  constructor(deps: RootsRouterDeps<S>) {
    this.#deps = deps;
  }

  #soleUser(server: string): S | undefined {
    const users = this.#deps.users(server);
    return users.length === 1 ? users[0] : undefined;
  }

  /**
   * Answers a server's `roots/list`. `during`: the clients whose calls it may have been asked
   * within (undefined for a call no client made); the sole client's roots only if it is each of them.
   */
  async answer(server: string, signal?: AbortSignal, during: readonly (S | undefined)[] = []): Promise<{ roots: Root[] }> {
    const config = this.#deps.config(server);
    if (!followsClientRoots(config)) return configuredRoots(config);
    const sole = this.#soleUser(server);
    if (!sole || !sole.accepts('roots/list') || during.some((c) => c !== sole)) return configuredRoots(config);
    // Marked before asking: once a client could have answered, the server may hold its roots.
    this.#steeredBy.set(server, sole);
    const answer = (await sole.forwardRequest({ method: 'roots/list' }, signal)) as { roots?: Root[] };
    // The session may have stopped being the only one while it answered.
    if (this.#soleUser(server) !== sole) return configuredRoots(config);
    return { roots: Array.isArray(answer?.roots) ? answer.roots : [] };
  }

  /**
   * Sessions came or went, became ready, or profiles changed: a server holding a client's roots
   * that client no longer has to itself is restarted; an opted-in server with a new sole client
   * is asked to fetch its roots again.
   */
  audienceChanged(): void {
    for (const server of this.#deps.servers()) this.#check(server);
    for (const server of [...this.#steeredBy.keys()]) if (!this.#deps.config(server)) this.#steeredBy.delete(server);
  }

  /** The session's client changed its roots (`notifications/roots/list_changed`). */
  clientRootsChanged(session: S): void {
    for (const server of this.#deps.servers()) {
      if (followsClientRoots(this.#deps.config(server)) && this.#soleUser(server) === session && session.accepts('roots/list')) {
        this.#deps.rootsChanged(server);
      }
    }
  }

  #check(server: string): void {
    const config = this.#deps.config(server);
    const steered = this.#steeredBy.get(server);
    if (!followsClientRoots(config)) {
      // Opting out changes the entry, which restarts the server anyway.
      this.#steeredBy.delete(server);
      this.#announced.delete(server);
      return;
    }
    const sole = this.#soleUser(server);
    const ready = sole && sole.accepts('roots/list') ? sole : undefined;
    if (steered && steered !== sole) {
      this.#steeredBy.delete(server);
      this.#announced.set(server, ready);
      this.#deps.restart(server);
      return;
    }
    if (this.#announced.get(server) === ready) return;
    this.#announced.set(server, ready);
    if (ready && !steered) this.#deps.rootsChanged(server);
  }
}
