// A bounded in-memory event store for one Streamable HTTP session, so that a client whose SSE
// stream drops can resume with Last-Event-ID (and the server may close streams to make the
// client poll). Bounded by count and bytes: the oldest events go first.
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events kept per session. */
const MAX_EVENTS = 1000;
/** Bytes of serialised messages kept per session (8 MB). */
const MAX_BYTES = 8 * 1024 * 1024;

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

export class BoundedEventStore implements EventStore {
  readonly #events: StoredEvent[] = [];
  #bytes = 0;
  #next = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${++this.#next}`;
    const bytes = JSON.stringify(message).length;
    this.#events.push({ id, streamId, message, bytes });
    this.#bytes += bytes;
    while (this.#events.length > MAX_EVENTS || (this.#bytes > MAX_BYTES && this.#events.length > 1)) {
      this.#bytes -= this.#events.shift()!.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.find((e) => e.id === eventId)?.streamId ?? streamOf(eventId);
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = streamOf(lastEventId) ?? '';
    const start = this.#events.findIndex((e) => e.id === lastEventId);
    for (const e of start === -1 ? [] : this.#events.slice(start + 1)) {
      if (e.streamId === streamId) await send(e.id, e.message);
    }
    return streamId;
  }
}

function streamOf(eventId: string): string | undefined {
  const i = eventId.lastIndexOf('_');
  return i > 0 ? eventId.slice(0, i) : undefined;
}
