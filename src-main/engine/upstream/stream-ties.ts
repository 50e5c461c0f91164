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
/**
 * Largest event line read for ties, in bytes. The transport itself reads bigger ones, but a
 * question is small and a big result is not worth decoding twice: a request bigger than this
 * is not tied (the gateway then sees it as untied, never as another call's).
 */
export const MAX_TIE_LINE_BYTES = 1024 * 1024;
const METHOD = Buffer.from('"method"');
const DATA = Buffer.from('data:');
const CR = 0x0d;
const SPACE = 0x20;

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
    let data: Buffer[] = [];
    const event = () => {
      const lines = data;
      data = [];
      // Only a request names a method: results and notes of the call are not decoded here.
      if (!lines.some((l) => l.includes(METHOD))) return;
      const text = lines.map((l) => l.toString('utf8')).join('\n');
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
        const line = raw.at(-1) === CR ? raw.subarray(0, -1) : raw;
        if (line.length === 0) return event();
        if (line.subarray(0, 5).equals(DATA)) data.push(line.subarray(line[5] === SPACE ? 6 : 5));
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
