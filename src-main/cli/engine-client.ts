// The CLI's way to the engine: a control connection on the engine socket, and starting an
// engine in the background when a command needs one.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { APP_BIN } from '../engine/platform/app-root.ts';
import { ENGINE_NODE_FLAGS, claimEngineStart, engineEnv } from '../shim/engine-launch.mjs';
import type { ControlClient, ControlMethod, ControlParams, ControlResult, ControlResponse } from '../../src-shared/api.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';
import type { HomePaths } from '../engine/platform/home.ts';
import { MAX_MESSAGE_BYTES } from '../engine/gateway/line-transport.ts';
import { LineSplitter } from '../shim/line-splitter.mjs';
import { openHomeAppendSync } from '../shim/home-file.mjs';

const BIN = APP_BIN;

export class SocketControlClient implements ControlClient {
  readonly #sock: net.Socket;
  #next = 1;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(sock: net.Socket) {
    this.#sock = sock;
    const lines = new LineSplitter({
      maxLineBytes: MAX_MESSAGE_BYTES,
      onLine: (line) => {
        if (line.length === 0) return;
        let res: ControlResponse;
        try {
          res = JSON.parse(line.toString('utf8')) as ControlResponse;
        } catch {
          return; // not ours to answer; the caller's own reply still comes or the socket closes
        }
        const p = this.#pending.get(res.id);
        if (!p) return;
        this.#pending.delete(res.id);
        if ('error' in res) p.reject(new SwitchboardError(res.error.code, res.error.message, res.error.problems));
        else p.resolve(res.result);
      },
      // Responses start with their id (`{"id":N,`), so the call that asked for too much is told.
      onOversized: ({ bytes, head }) => {
        const id = Number(/^\{"id":(\d+)/.exec(head.toString('latin1'))?.[1]);
        const p = this.#pending.get(id);
        if (!p) return;
        this.#pending.delete(id);
        p.reject(new SwitchboardError('bad-request', `The engine's answer was ${Math.round(bytes / 1024 / 1024)} MB, over the ${MAX_MESSAGE_BYTES / 1024 / 1024} MB message limit; ask for less (a smaller result or --limit).`));
      },
    });
    sock.on('data', (chunk: Buffer) => lines.push(chunk));
    sock.on('close', () => {
      for (const p of this.#pending.values()) p.reject(new SwitchboardError('engine-unavailable', 'The engine closed the connection.'));
      this.#pending.clear();
    });
  }

  /** Connects to a running engine, or returns undefined when none answers. */
  static connect(paths: HomePaths): Promise<SocketControlClient | undefined> {
    return new Promise((resolve) => {
      const sock = net.createConnection(paths.socket);
      sock.once('connect', () => {
        sock.write(JSON.stringify({ kind: 'control', v: 1 }) + '\n');
        resolve(new SocketControlClient(sock));
      });
      sock.once('error', () => resolve(undefined));
    });
  }

  call<M extends ControlMethod>(method: M, params: ControlParams<M>): Promise<ControlResult<M>> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#sock.write(JSON.stringify({ id, method, params }) + '\n');
    });
  }

  close(): void {
    this.#sock.end();
    this.#sock.destroy();
  }
}

/**
 * Starts an engine for the home in the background (detached, output to the home's log), unless
 * another starter holds the claim on starting it (claimEngineStart): then that one's engine is
 * awaited. Returns the claim's release (call it once the engine answers), or undefined.
 */
export function spawnBackgroundEngine(paths: HomePaths): (() => void) | undefined {
  const release = claimEngineStart(paths.home);
  if (!release) return undefined;
  mkdirSync(paths.logsDir, { recursive: true, mode: 0o700 });
  let out: 'ignore' | number = 'ignore';
  try {
    // Never waits on a pipe planted under the log's name (home-file.mjs).
    out = openHomeAppendSync(path.join(paths.logsDir, 'engine.out.log'));
  } catch {
    // Not writable, or not a file of ours: the engine still starts, without this log.
  }
  const child = spawn(process.execPath, [...ENGINE_NODE_FLAGS, BIN, 'engine', '--home', paths.home], {
    detached: true,
    stdio: ['ignore', out, out],
    windowsHide: true,
    env: engineEnv(),
  });
  child.on('exit', release);
  child.unref();
  return release;
}

/** Connects to the home's engine, starting one when none runs. */
export async function ensureEngine(paths: HomePaths, timeoutMs = 20_000): Promise<SocketControlClient> {
  let client = await SocketControlClient.connect(paths);
  if (client) return client;
  let release = spawnBackgroundEngine(paths);
  const t0 = Date.now();
  let lastTry = t0;
  while (Date.now() - t0 < timeoutMs) {
    await new Promise((r) => setTimeout(r, 50));
    client = await SocketControlClient.connect(paths);
    if (client) {
      release?.();
      return client;
    }
    // The claimant's engine may have failed to start: claim it ourselves then.
    if (!release && Date.now() - lastTry > 1000) {
      lastTry = Date.now();
      release = spawnBackgroundEngine(paths);
    }
  }
  release?.();
  throw new SwitchboardError(
    'engine-unavailable',
    `The Switchboard engine did not start within ${timeoutMs / 1000} s; see ${path.join(paths.logsDir, 'engine.out.log')}.`,
  );
}
