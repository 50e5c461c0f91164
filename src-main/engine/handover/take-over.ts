// The new engine's side of a take-over: asks the engine serving the home to hand it over (a
// `takeover` hello on its socket) and follows what it says (hand-over.ts is the other side).
import net from 'node:net';
import type { TakeOverEvent, TakeOverHello } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { LineSplitter } from '../../shim/line-splitter.mjs';

/** How long the running engine may take to answer the hello, in ms (it answers at once when it runs). */
const ANSWER_TIMEOUT_MS = 10_000;

/** The running engine refused to hand the home over (it is newer, or already handing over). */
export class TakeOverRefusedError extends SwitchboardError {
  constructor(message: string) {
    super('engine-unavailable', message);
  }
}

export interface HandOverTalk {
  /** The running engine's pid and version. */
  readonly from: { pid: number; version: string };
  /** Resolves when its HTTP port is free, or it went away. */
  readonly httpReleased: Promise<void>;
  /** Resolves when it has left (its lock released), or the conversation ended. */
  readonly ended: Promise<void>;
  close(): void;
}

/**
 * Asks the engine on `socketPath` to hand the home over to us; resolves once it accepted (it has
 * then moved our socket onto its path). Throws TakeOverRefusedError when refused, or a
 * SwitchboardError when no engine answers there.
 */
export function askToHandOver(socketPath: string, hello: Omit<TakeOverHello, 'kind' | 'v'>): Promise<HandOverTalk> {
  return new Promise((resolve, reject) => {
    const sock = net.createConnection(socketPath);
    let onHttp!: () => void;
    let onEnd!: () => void;
    const httpReleased = new Promise<void>((r) => (onHttp = r));
    const ended = new Promise<void>((r) => (onEnd = r));
    let accepted = false;
    const timer = setTimeout(() => fail(new SwitchboardError('engine-unavailable', 'The running engine did not answer the take-over.')), ANSWER_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      sock.destroy();
      reject(err);
    };
    const lines = new LineSplitter({
      maxLineBytes: 64 * 1024,
      onLine: (buf) => {
        let e: TakeOverEvent;
        try {
          e = JSON.parse(buf.toString('utf8')) as TakeOverEvent;
        } catch {
          return;
        }
        if (e.event === 'refused') return fail(new TakeOverRefusedError(e.error.message));
        if (e.event === 'accepted') {
          accepted = true;
          clearTimeout(timer);
          resolve({ from: { pid: e.pid, version: e.version }, httpReleased, ended, close: () => sock.destroy() });
        } else if (e.event === 'http-released') onHttp();
        else if (e.event === 'left') onEnd();
      },
    });
    sock.on('connect', () => sock.write(JSON.stringify({ kind: 'takeover', v: 1, ...hello } satisfies TakeOverHello) + '\n'));
    sock.on('data', (chunk: Buffer) => lines.push(chunk));
    sock.on('error', (err) => {
      if (!accepted) fail(new SwitchboardError('engine-unavailable', `The running engine could not be asked to hand over: ${err.message}`));
    });
    sock.on('close', () => {
      onHttp();
      onEnd();
      if (!accepted) fail(new SwitchboardError('engine-unavailable', 'The running engine closed the take-over without an answer.'));
    });
  });
}
