// The 2026-07-28 clients of the HTTP endpoint, for `status`. That revision keeps no session, so
// there is no "connected" client to list: each request names its client in `_meta.clientInfo`,
// and the clients seen lately (per profile and name, with when they were first and last seen)
// stand in for the sessions. Bounded in number and in age.

/** Clients not seen for this long drop out of `status`, in ms. */
export const RECENT_CLIENT_WINDOW_MS = 15 * 60_000;
/** At most this many are kept (the least recently seen go first). */
export const MAX_RECENT_CLIENTS = 20;

export interface RecentClient {
  profile: string;
  name: string;
  version?: string;
  firstSeen: number;
  lastSeen: number;
  requests: number;
}

export class RecentClients {
  readonly #byKey = new Map<string, RecentClient>();

  /** A request from `name` (its `_meta.clientInfo`) on `profile`. */
  seen(profile: string, name: string, version?: string, now = Date.now()): void {
    const key = `${profile}\u0000${name}`;
    const prev = this.#byKey.get(key);
    // Re-inserted so the map stays in last-seen order: the first entry is the one to drop.
    this.#byKey.delete(key);
    this.#byKey.set(key, {
      profile,
      name,
      ...(version !== undefined ? { version } : prev?.version !== undefined ? { version: prev.version } : {}),
      firstSeen: prev?.firstSeen ?? now,
      lastSeen: now,
      requests: (prev?.requests ?? 0) + 1,
    });
    while (this.#byKey.size > MAX_RECENT_CLIENTS) this.#byKey.delete(this.#byKey.keys().next().value!);
  }

  /** Those seen within the window, most recent first. */
  list(now = Date.now()): RecentClient[] {
    const out: RecentClient[] = [];
    for (const [key, c] of this.#byKey) {
      if (now - c.lastSeen > RECENT_CLIENT_WINDOW_MS) this.#byKey.delete(key);
      else out.push({ ...c });
    }
    return out.reverse();
  }
}
