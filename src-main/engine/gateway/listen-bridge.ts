// A 2026-07-28 client names the resources it wants to hear about in its `subscriptions/listen`
// filter; the SDK's serving entry runs that stream, but the upstream that owns each resource
// still has to be asked for updates. This subscribes upstream when a listen stream names a URI
// and unsubscribes when that stream ends (cancelled, or its connection or response closed).
import type { GatewayPort as Gateway } from './session-base.ts';

export class ListenBridge {
  readonly #gateway: Gateway;
  readonly #profile: string;
  /** Open listen streams by request id → release. */
  readonly #open = new Map<string | number, () => void>();

  constructor(gateway: Gateway, profile: string) {
    this.#gateway = gateway;
    this.#profile = profile;
  }

  /** Looks at one inbound message; returns the release for a listen it opened, if any. */
  inbound(message: unknown): (() => void) | undefined {
    const m = message as { id?: string | number; method?: string; params?: Record<string, unknown> } | null;
    if (!m || typeof m !== 'object') return undefined;
    if (m.method === 'notifications/cancelled') {
      const id = m.params?.requestId as string | number | undefined;
      if (id !== undefined) this.#release(id);
      return undefined;
    }
    if (m.method !== 'subscriptions/listen' || m.id === undefined) return undefined;
    const uris = (m.params?.notifications as Record<string, unknown> | undefined)?.resourceSubscriptions;
    if (!Array.isArray(uris) || uris.length === 0) return undefined;
    const id = m.id;
    this.#release(id);
    const subscribed: { server: string; uri: string }[] = [];
    const view = this.#gateway.view(this.#profile);
    for (const uri of uris) {
      if (typeof uri !== 'string') continue;
      const server = view?.resourceOwner(uri);
      if (!server) continue;
      subscribed.push({ server, uri });
      void Promise.resolve()
        .then(() => this.#gateway.request(server, 'resources/subscribe', { uri }))
        .catch(() => {
          // A server that cannot subscribe sends no updates; the stream still opens.
        });
    }
    const release = () => {
      if (this.#open.get(id) !== release) return;
      this.#open.delete(id);
      for (const { server, uri } of subscribed) {
        void Promise.resolve()
          .then(() => this.#gateway.request(server, 'resources/unsubscribe', { uri }))
          .catch(() => {});
      }
    };
    this.#open.set(id, release);
    return release;
  }

  #release(id: string | number): void {
    this.#open.get(id)?.();
  }

  /** The connection ended: every stream on it is gone. */
  closeAll(): void {
    for (const release of [...this.#open.values()]) release();
  }
}
