// The engine socket's own conversation: the hello that chooses what a connection is, the
// take-over of the home by a new engine, and the notice a shim gets when the engine moves.

/**
 * The digests of the lists a shim answered its client from the last engine's boot answer before
 * handing the session to this engine (`resume.boot`), by list: tools, prompts, resources,
 * resourceTemplates.
 */
export type BootList = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
export type BootDigests = Partial<Record<BootList, string>>;

/** First line a client writes on the engine socket, choosing what the connection is. */
export type SocketHello =
  /** `resume`: a shim reconnecting after an engine restart replays its client's initialize params (`boot`: see BootDigests). */
  /** `client`: the connector id of the entry that started the shim (`--client`), when it names one. */
  /** `moved`: the engine before this one handed the home over; `boot` then holds the digests of the lists the client holds. */
  | { kind: 'mcp'; profile: string; v: 1; resume?: { initialize: unknown; boot?: BootDigests; moved?: boolean }; client?: string }
  | { kind: 'control'; v: 1 }
  /** A new engine asking this one to hand the home over (engine --take-over; docs/updates.md). */
  | TakeOverHello;

/**
 * The take-over conversation on the engine socket (src-main/engine/handover/). The new engine
 * opens it with this hello: its version, and where it already listens — a socket beside the
 * home's (renamed onto it when the old engine accepts) and a loopback port the old engine
 * forwards new HTTP connections to while it drains.
 */
export interface TakeOverHello {
  kind: 'takeover';
  v: 1;
  version: string;
  pid: number;
  socket: string;
  httpPort: number | null;
}

/**
 * What the old engine says back, one JSON line each: accepted (or refused, with the reason), then
 * `http-released` once its HTTP listener is closed (the new engine binds the port at once), then
 * `left` once its servers are stopped and its lock released.
 */
export type TakeOverEvent =
  | { event: 'accepted'; version: string; pid: number }
  | { event: 'refused'; error: { code: string; message: string } }
  | { event: 'http-released' }
  | { event: 'left' };

/**
 * The notification the engine writes on a shim's connection when it hands the home over: the
 * shim sends its client's new requests to the socket's new owner (resuming the session there)
 * and leaves this connection to answer the requests in flight. A shim never relays it.
 */
export const ENGINE_MOVING_METHOD = 'notifications/switchboard/engineMoving';
