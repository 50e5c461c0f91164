// Which protocol generation one upstream speaks, and how to reach it in that generation.
// A server is probed with `server/discover` (2026-07-28) and falls back to `initialize`
// (2025-11-25 and older) when it does not answer it; the verdict is kept for the next connect
// (restarts after a crash or a user's restart need no probe round trip, and no probe a fragile
// server could trip over) and dropped when a connection attempt fails, so the next one probes
// again: an upgraded or downgraded server is found out at its next failure.
import type { Client, ConnectOptions } from '@modelcontextprotocol/client';

/** The client SDK's names for the two revisions: 'legacy' is 2025-11-25 (and older), 'modern' 2026-07-28. */
export type ProtocolEra = 'legacy' | 'modern';

/** Probes longer than this (a 2025 server that never answers unknown requests) count as 2025-11-25 on stdio. */
const PROBE_TIMEOUT_MS = 10_000;

export class EraVerdict {
  #prior: ConnectOptions['prior'];
  #triedInitializeAfterProbe = false;

  /** The client options that pick the negotiation: probe unless a verdict is known. */
  static clientOptions(startTimeoutMs: number): { versionNegotiation: { mode: 'auto'; probe: { timeoutMs: number } } } {
    return { versionNegotiation: { mode: 'auto', probe: { timeoutMs: Math.min(PROBE_TIMEOUT_MS, startTimeoutMs) } } };
  }

  get known(): ProtocolEra | undefined {
    return this.#prior?.kind;
  }

  connectOptions(timeout: number): ConnectOptions {
    return this.#prior ? { timeout, prior: this.#prior } : { timeout };
  }

  /** The connection is up: remember how it was reached. */
  record(client: Client): void {
    this.#triedInitializeAfterProbe = false;
    const discover = client.getDiscoverResult();
    this.#prior = client.getProtocolEra() === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' };
  }

  /**
   * The probe itself broke the connection (a server that exits on any request before
   * initialize): that server is 2025-era. True when an initialize attempt should follow at once.
   */
  probeBrokeConnection(): boolean {
    if (this.#prior || this.#triedInitializeAfterProbe) return false;
    this.#triedInitializeAfterProbe = true;
    this.#prior = { kind: 'legacy' };
    return true;
  }

  /** A connection failed or ended: probe again next time. */
  forget(): void {
    this.#prior = undefined;
  }
}

/** The revision a connected client negotiated ("2026-07-28", "2025-11-25", …). */
export function negotiatedRevision(client: Client | undefined): string | null {
  return client?.getNegotiatedProtocolVersion() ?? null;
}
