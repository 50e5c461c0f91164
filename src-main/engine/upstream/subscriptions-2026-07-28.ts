// Change notifications from a 2026-07-28 server. That era has no unsolicited notifications:
// a client opens `subscriptions/listen` naming what it wants (list changes, resource URIs) and
// the server delivers those on that stream. The gateway keeps one listen stream per 2026-07-28
// upstream; `resources/subscribe` / `resources/unsubscribe` from 2025-era clients become a new
// stream with the changed URI set, so both eras hear the same updates through the usual
// notification handlers.
import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

export class Rev20260728Subscriptions {
  readonly #client: Client;
  readonly #caps: ServerCapabilities;
  readonly #uris = new Map<string, number>();
  #current: McpSubscription | undefined;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(client: Client, caps: ServerCapabilities) {
    this.#client = client;
    this.#caps = caps;
  }

  /** Opens the stream for list changes (whatever the server announces it can report). */
  open(): Promise<void> {
    return this.#relisten();
  }

  /** Counts subscribers per URI: the stream changes only when the first comes or the last goes. */
  subscribe(uri: string): Promise<void> {
    const n = this.#uris.get(uri) ?? 0;
    this.#uris.set(uri, n + 1);
    return n === 0 ? this.#relisten() : this.#chain;
  }

  unsubscribe(uri: string): Promise<void> {
    const n = this.#uris.get(uri) ?? 0;
    if (n <= 1) this.#uris.delete(uri);
    else this.#uris.set(uri, n - 1);
    return n === 1 ? this.#relisten() : this.#chain;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#chain.catch(() => {});
    await this.#current?.close().catch(() => {});
    this.#current = undefined;
  }

  /** One stream at a time: the new one is acknowledged before the old one is closed, so nothing is missed. */
  #relisten(): Promise<void> {
    const next = this.#chain.then(async () => {
      if (this.#closed) return;
      const filter = {
        ...(this.#caps.tools?.listChanged ? { toolsListChanged: true } : {}),
        ...(this.#caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
        ...(this.#caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
        ...(this.#caps.resources?.subscribe && this.#uris.size > 0 ? { resourceSubscriptions: [...this.#uris.keys()] } : {}),
      };
      const old = this.#current;
      this.#current = Object.keys(filter).length > 0 ? await this.#client.listen(filter) : undefined;
      await old?.close().catch(() => {});
    });
    this.#chain = next.catch(() => {});
    return next;
  }
}
