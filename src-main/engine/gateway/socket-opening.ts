// How a connection on the shim's socket finds its session: the client's first message picks the
// protocol generation (the v2 SDK's stdio entry decides: `initialize` → a 2025 session, a request
// carrying the 2026-07-28 `_meta` envelope or `server/discover` → a 2026-07-28 one). Also the
// answer every request of an unknown profile gets, on any transport.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListenBridge } from './listen-bridge.ts';
import { loadRev20260728 } from './load-rev-2026-07-28.ts';
import type { Rev20260728Session } from './session-2026-07-28.ts';
import { ReplayTransport } from './replay-transport.ts';
import { rev20251125ForStdioEntry } from './sdk-boundary.ts';
import type { ClientSession } from './session-2025-11-25.ts';
import type { GatewayPort, SessionBase, SessionEra } from './session-base.ts';

/** Opens a session of the connection's profile in one era (the gateway's, which tracks it). */
export type OpenSession = (era: SessionEra) => SessionBase;

/**
 * Serves a fresh socket connection. A 2025 client opens with initialize: its session gets the
 * connection directly (the hot path stays as it was). Anything else goes to the SDK's stdio
 * entry, which serves 2026-07-28 (and 2025 clients that open otherwise) and answers bad openings.
 */
export function openSocketConnection(transport: Transport, gateway: GatewayPort, profile: string, open: OpenSession, connected: (session: ClientSession) => void): void {
  ReplayTransport.open(transport, (first, replay) => {
    if (isRev20251125Opening(first)) {
      const session = open('legacy') as ClientSession;
      connected(session);
      void session.connect(replay);
      return;
    }
    // Listen streams naming resources need the owning upstreams subscribed.
    const listens = new ListenBridge(gateway, profile);
    tapInbound(replay, (m) => void listens.inbound(m), () => listens.closeAll());
    // The replay transport holds the client's messages while the 2026-07-28 side loads.
    void loadRev20260728().then(({ serveStdio }) => serveStdio(
      (ctx) => {
        const session = open(ctx.era === 'modern' ? 'modern' : 'legacy');
        if (session.era === 'modern') return (session as Rev20260728Session).server;
        const rev20251125 = session as ClientSession;
        return rev20251125ForStdioEntry({ connect: (t: Transport) => rev20251125.connect(t), close: () => rev20251125.close() });
      },
      { transport: replay, legacy: 'serve' },
    )).catch(() => void replay.close());
  });
}

/** Every request of a connection to an unknown profile gets an MCP error saying so. */
export async function refuseUnknownProfile(transport: Transport, message: string): Promise<void> {
  transport.onmessage = (msg) => {
    if ('method' in msg && 'id' in msg) {
      void transport.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message } });
    }
  };
  await transport.start();
}

/** An `initialize` without the 2026-07-28 envelope: a 2025-11-25 client. */
function isRev20251125Opening(first: unknown): boolean {
  const m = first as { method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined;
  return m?.method === 'initialize' && m.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === undefined;
}

/**
 * Sees every inbound message of a transport before its owner does, and its close. The owner
 * (the SDK's stdio entry) sets onmessage/onclose after this, so they are wrapped on assignment.
 */
function tapInbound(transport: Transport, onMessage: (m: unknown) => void, onClose: () => void): void {
  let handler: Transport['onmessage'];
  let closer: Transport['onclose'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler && ((...args: Parameters<NonNullable<Transport['onmessage']>>) => {
      onMessage(args[0]);
      handler!(...args);
    }),
    set: (h: Transport['onmessage']) => (handler = h),
  });
  Object.defineProperty(transport, 'onclose', {
    configurable: true,
    get: () => () => {
      onClose();
      closer?.();
    },
    set: (h: Transport['onclose']) => (closer = h),
  });
}
