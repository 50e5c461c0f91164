// Lets the gateway read a connection's first message before choosing who serves it: the first
// message picks the protocol generation. The inner transport is started once, here; messages
// are held until the chosen owner starts this wrapper, then delivered in order.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class ReplayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #inner: Transport;
  readonly #held: JSONRPCMessage[] = [];
  #started = false;
  #closed = false;

  private constructor(inner: Transport) {
    this.#inner = inner;
    inner.onmessage = (m) => (this.#started ? this.onmessage?.(m) : this.#held.push(m));
    inner.onerror = (e) => this.onerror?.(e);
    inner.onclose = () => {
      this.#closed = true;
      if (this.#started) this.onclose?.();
    };
  }

  /** Starts `inner` and calls `choose` with its first message (undefined: closed before one came). */
  static open(inner: Transport, choose: (first: JSONRPCMessage | undefined, transport: ReplayTransport) => void): void {
    const t = new ReplayTransport(inner);
    let chosen = false;
    const decide = () => {
      if (chosen) return;
      chosen = true;
      choose(t.#held[0], t);
    };
    const onmessage = inner.onmessage!;
    inner.onmessage = (m) => {
      onmessage(m);
      decide();
    };
    const onclose = inner.onclose!;
    inner.onclose = () => {
      onclose();
      decide();
    };
    void inner.start().catch((err: unknown) => t.onerror?.(err instanceof Error ? err : new Error(String(err))));
  }

  /** The owner has set its handlers: deliver what was held, then everything as it comes. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    for (const m of this.#held.splice(0)) this.onmessage?.(m);
    if (this.#closed) this.onclose?.();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    return this.#inner.send(message, options);
  }

  /** The inner transport's line writer (line-transport.ts), when it has one. */
  get writeLine(): ((line: string) => boolean) | undefined {
    const inner = this.#inner as Transport & { writeLine?: (line: string) => boolean };
    return inner.writeLine?.bind(inner);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
