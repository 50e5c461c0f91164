// An MCP Transport over any duplex byte stream carrying newline-delimited JSON-RPC (the stdio
// framing), used for shim connections on the engine socket.
import type { Duplex } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { asJsonRpcMessage } from '../../../src-shared/jsonrpc.ts';
import { LineSplitter } from '../../shim/line-splitter.mjs';
import type { BootDigests } from '../../../src-shared/api.ts';

/** Largest single message accepted, in bytes (docs/protocol.md: 64 MB). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface LineTransportOptions {
  /** Bytes already read past the hello line. */
  initial?: Buffer;
  /** Defaults to MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;
  /** The lists the client on this connection holds, by digest (set by its session; a hand-over tells the shim). */
  heldLists?: () => BootDigests;

  readonly #stream: Duplex;
  readonly #max: number;
  readonly #lines: LineSplitter;
  #closed = false;
  #pending: Buffer | undefined;
  /**
   * The client's requests not answered yet (JSON text of their ids): what an engine handing the
   * home over waits for on this connection. A request the client cancelled counts as answered.
   */
  readonly #unanswered = new Set<string>();

  constructor(stream: Duplex, opts: LineTransportOptions = {}) {
    this.#stream = stream;
    this.#max = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.#lines = new LineSplitter({ maxLineBytes: this.#max, onLine: (line) => this.#handleLine(line), onOversized: () => this.#oversized() });
    this.#pending = opts.initial && opts.initial.length > 0 ? opts.initial : undefined;
  }

  async start(): Promise<void> {
    this.#stream.on('data', (chunk: Buffer) => this.#onData(chunk));
    this.#stream.on('error', (err) => this.onerror?.(err));
    this.#stream.on('close', () => this.#handleClose());
    this.#stream.on('end', () => this.#handleClose());
    if (this.#pending) {
      const p = this.#pending;
      this.#pending = undefined;
      queueMicrotask(() => this.#onData(p));
    }
  }

  #onData(chunk: Buffer): void {
    this.#lines.push(chunk);
  }

  #oversized(): void {
    // The id of a message we refuse to buffer is unknown, so the error goes out with id null
    // (JSON-RPC's answer to a request it could not read) and the connection stays up.
    this.#write({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `A message larger than ${Math.round(this.#max / 1024 / 1024)} MB was dropped; send smaller arguments (the connection is still open).`,
      },
    } as unknown as JSONRPCMessage);
  }

  #handleLine(line: Buffer): void {
    const text = line.toString('utf8').trim();
    if (text === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.#write({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: a line on stdin was not JSON; each MCP message must be one line of JSON.' },
      } as unknown as JSONRPCMessage);
      return;
    }
    const msg = asJsonRpcMessage(parsed);
    if (!msg) {
      const id = parsed && typeof parsed === 'object' && 'id' in parsed ? (parsed as { id: unknown }).id : null;
      this.#write({
        jsonrpc: '2.0',
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
        error: { code: -32600, message: 'Invalid request: not a JSON-RPC 2.0 message.' },
      } as unknown as JSONRPCMessage);
      return;
    }
    const m = msg as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof m.method === 'string') {
      if (m.id !== undefined) this.#unanswered.add(JSON.stringify(m.id));
      else if (m.method === 'notifications/cancelled') this.#unanswered.delete(JSON.stringify(m.params?.requestId));
    }
    this.onmessage?.(msg);
  }

  /** How many of the client's requests are not answered yet. */
  get unanswered(): number {
    return this.#unanswered.size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  #write(message: JSONRPCMessage): boolean {
    if (this.#closed) return false;
    const m = message as { id?: unknown; method?: unknown };
    if (m.id !== undefined && m.method === undefined) this.#unanswered.delete(JSON.stringify(m.id));
    return this.#stream.write(serializeIdFirst(message));
  }

  /**
   * Writes one message already serialised as a line (id first, newline included) without
   * waiting for the socket to drain: the tools/call fast path's one serialisation per message.
   */
  writeLine(line: string): boolean {
    if (this.#closed) return false;
    const answer = ANSWER_HEAD.exec(line);
    if (answer) this.#unanswered.delete(answer[1]!);
    this.#stream.write(line);
    return true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('connection closed');
    if (!this.#write(message)) {
      await new Promise<void>((resolve) => this.#stream.once('drain', resolve));
    }
  }

  #handleClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#stream.end();
    this.#stream.destroy();
    this.#handleClose();
  }
}

/** The head serializeIdFirst gives a response: its id, then its result or error. */
const ANSWER_HEAD = /^\{"jsonrpc":"2\.0","id":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?),"(?:result|error)"/;

/**
 * Serialises a message with `"jsonrpc"` and `"id"` first. The shim reads a response's id from
 * the start of the line (to answer in-flight calls when the engine dies) without parsing
 * results that may be megabytes long.
 */
export function serializeIdFirst(message: JSONRPCMessage): string {
  const m = message as Record<string, unknown>;
  if (!('id' in m)) return JSON.stringify(message) + '\n';
  const { jsonrpc: _j, id, ...rest } = m;
  const body = JSON.stringify(rest);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)}${body.length > 2 ? ',' + body.slice(1) : '}'}\n`;
}
