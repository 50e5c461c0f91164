// Which call a server's request over Streamable HTTP belongs to. A server sends a request that
// belongs to one of its client's requests on that request's own POST response stream (the SDKs'
// `relatedRequestId`); anything else comes on the standalone GET stream and names no call. The
// SDK's client transport does not say which stream a message came on, so its fetch is wrapped:
// each call's POST carries a private header naming the call (taken off before the request
// leaves), and the request ids the server sends on that POST's event stream are noted as the
// call's before the SDK reads them. A message this cannot read is simply not tied: the gateway
// then treats it as one whose call is unknown, never as some other call's.
import { LineSplitter } from '../../shim/line-splitter.mjs';

/** The private header naming our call on its POST; never sent to the server. */
export const CALL_HEADER = 'x-switchboard-call';
/** Largest event line read for ties (the transport itself reads bigger ones; those are not tied). */
const MAX_TIE_LINE_BYTES = 16 * 1024 * 1024;

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export class StreamTies {
  /** A server request's id (as JSON) → the call whose POST stream carried it. */
  readonly #calls = new Map<string, number>();

  /** The call a server request (by its JSON-RPC id) came with; each tie is read once. */
  take(requestId: unknown): number | undefined {
    const key = JSON.stringify(requestId);
    const call = this.#calls.get(key);
    this.#calls.delete(key);
    return call;
  }

  /** A fetch that notes which call each server request came with (on `inner`, or the global fetch). */
  fetch(inner?: Fetch): Fetch {
    return async (url, init) => {
      const headers = new Headers(init?.headers);
      const call = Number(headers.get(CALL_HEADER));
      if (!headers.has(CALL_HEADER)) return (inner ?? fetch)(url, init);
      headers.delete(CALL_HEADER);
      const response = await (inner ?? fetch)(url, { ...init, headers });
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !response.body || !type.toLowerCase().startsWith('text/event-stream') || !Number.isSafeInteger(call)) return response;
      return new Response(response.body.pipeThrough(this.#noter(call)), { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }

  /** Passes the stream through unchanged, noting the server requests in its events as the call's. */
  #noter(call: number): TransformStream<Uint8Array, Uint8Array> {
    let data: string[] = [];
    const event = () => {
      const text = data.join('\n');
      data = [];
      if (!text) return;
      try {
        const msg = JSON.parse(text) as { method?: unknown; id?: unknown };
        if (typeof msg?.method === 'string' && (typeof msg.id === 'string' || typeof msg.id === 'number')) this.#calls.set(JSON.stringify(msg.id), call);
      } catch {
        // Not JSON: the transport reports it; there is nothing to tie.
      }
    };
    const lines = new LineSplitter({
      maxLineBytes: MAX_TIE_LINE_BYTES,
      onLine: (raw: Buffer) => {
        const line = raw.toString('utf8').replace(/\r$/, '');
        if (line === '') return event();
        if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      },
      onOversized: () => (data = []),
    });
    return new TransformStream({
      // Noted before the chunk is passed on: the SDK reads an event only after this saw it.
      transform: (chunk, ctrl) => {
        lines.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        ctrl.enqueue(chunk);
      },
    });
  }
}
