// Servers' log messages for 2026-07-28 clients. That revision keeps no session to send
// `notifications/message` on: a client that wants logs puts a level in a request's `_meta`
// (`io.modelcontextprotocol/logLevel`) and hears the messages at or above it on that request's
// response stream, while the request runs. A call registers itself here for the servers it may
// reach; a server's message goes to every call to that server open at that moment (a 2025 server
// does not say which request a message belongs to; a 2026 one sends it on the gateway's own
// request, which the upstream client does not tell apart either).
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

export type LogSink = (server: string, params: { level: LoggingLevel; data: unknown; logger?: string }) => void;

export class CallLogRelay {
  readonly #open = new Set<{ servers: ReadonlySet<string>; sink: LogSink }>();

  /** A call that wants logs from these servers; the returned function ends it. */
  open(servers: Iterable<string>, sink: LogSink): () => void {
    const entry = { servers: new Set(servers), sink };
    this.#open.add(entry);
    return () => void this.#open.delete(entry);
  }

  /** A server's `notifications/message`: to the calls to it that are open now. */
  deliver(server: string, params: Parameters<LogSink>[1]): void {
    for (const e of this.#open) if (e.servers.has(server)) e.sink(server, params);
  }
}
