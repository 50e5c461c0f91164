// One attempt at a connection to an upstream server, from making its transport to its end.
// Everything a connection owns (SDK client, transport, child process, listen stream, the fast
// lane, how a request is tied to its call) belongs to its attempt and goes in one dispose(): a
// restart, a crash or a failed start leaves nothing of the last attempt behind, and a late event
// of an ended attempt is recognised as such (`ended`) instead of by a counter.
import type { Client, Transport } from '@modelcontextprotocol/client';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { formatBytes } from '../../../src-shared/codemode/unwrap.ts';
import type { DirectCalls } from './direct-calls.ts';
import type { Rev20260728Subscriptions } from './subscriptions-2026-07-28.ts';
import { SDK_STDIO_MESSAGE_BYTES, type ChildStdioTransport } from './stdio-transport.ts';
import type { StreamTies } from './stream-ties.ts';
import type { MadeTransport } from './transport-factory.ts';

export class ConnectionAttempt {
  transport: Transport | undefined;
  /** Set for a local server: its child process (pid, exit, last request's size). */
  stdio: ChildStdioTransport | undefined;
  /** Set for Streamable HTTP: which call each server request came with (stream-ties.ts). */
  ties: StreamTies | undefined;
  client: Client | undefined;
  /** The MCP revision negotiated; null until the server answered. */
  protocol: string | null = null;
  /** Set once the server answered initialize (or server/discover). */
  initialized = false;
  /** Set on a 2026-07-28 connection: its listen stream (subscriptions-2026-07-28.ts). */
  subscriptions: Rev20260728Subscriptions | undefined;
  /** Set on a ready 2025-era stdio connection: the tools/call fast lane (direct-calls.ts). */
  direct: DirectCalls | undefined;
  /** What calls cut off by dispose() are told, when someone stopped the connection. */
  #stopReason: string | undefined;
  #ended = false;

  /** True once disposed: whatever it still reports comes too late to count. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Takes the transport made for this attempt; false, with the transport closed, when the attempt ended meanwhile. */
  async adopt(made: MadeTransport): Promise<boolean> {
    if (this.#ended) {
      await made.transport.close();
      return false;
    }
    this.transport = made.transport;
    this.stdio = made.stdio;
    this.ties = made.ties;
    return true;
  }

  /**
   * Ends the attempt and closes what it holds. `stopReason` is what calls it cuts off are told
   * (none: the connection ended on its own). Its child's exit and last request stay readable.
   */
  async dispose(stopReason?: string): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopReason = stopReason;
    await this.subscriptions?.close();
    await this.client?.close().catch(() => {});
    // Also when the client is closed: one closed while it connects may not hold its transport yet
    // (the era probe opens it), and the server would go on running. Closing twice is one stop.
    await this.transport?.close().catch(() => {});
  }

  /** What a call gets when this connection ends under it. */
  closedError(name: string): SwitchboardError {
    return new SwitchboardError('server-unavailable', this.#stopReason ?? `${name} stopped while the call was running; it is being restarted${this.#hugeRequestNote()}`);
  }

  /** Why a stdio server that quit mid-call likely did: the last request it was sent was over the SDK's message limit. */
  #hugeRequestNote(): string {
    const chars = this.stdio?.lastSentChars ?? 0;
    if (chars <= SDK_STDIO_MESSAGE_BYTES) return '';
    return (
      `. The last request it was sent was ${formatBytes(chars)}: servers made with the MCP SDK read at most ${formatBytes(SDK_STDIO_MESSAGE_BYTES)} per message ` +
      `unless they raise that limit, and quit on a bigger one; send less per call (split the data over several calls)`
    );
  }
}
