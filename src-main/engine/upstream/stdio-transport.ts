// An MCP client transport over a child process's stdio that owns the whole process tree.
// Unlike the SDK's StdioClientTransport it: starts the child in its own process group so that
// stopping it also stops whatever it started (npx → node → …); survives non-JSON lines on
// stdout (banners, debug prints); caps one message at 64 MB instead of dropping the connection;
// and sends stderr to a size-capped log file.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { asJsonRpcMessage } from '../../../src-shared/jsonrpc.ts';
import { LineSplitter } from '../../shim/line-splitter.mjs';
import { groupAlive, killGroup, killGroupAndWait, taskkillTree } from '../platform/process-tree.ts';
import { cmdShellArgs } from './command-resolve.ts';
import type { GroupLedger } from './group-ledger.ts';
import type { ServerLog } from './server-log.ts';

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Wait between SIGTERM and SIGKILL when stopping, in ms. */
export const DEFAULT_KILL_GRACE_MS = 2000;
/**
 * What a server made with the MCP SDK reads of one stdio message by default (its
 * STDIO_DEFAULT_MAX_BUFFER_SIZE, 10 MiB): past it, such a server quits rather than answer.
 */
export const SDK_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface ChildStdioOptions {
  /** Absolute path of the executable (see resolveCommand). */
  command: string;
  args?: string[];
  /** The child's whole environment (see buildChildEnv); nothing is inherited. */
  env: Record<string, string>;
  cwd?: string;
  /** Receives stderr and notes about skipped stdout lines. */
  log?: ServerLog;
  /** Largest message accepted from the child, in bytes. Defaults to 64 MB. */
  maxMessageBytes?: number;
  /** Time between SIGTERM and SIGKILL on close, in ms. Defaults to 2000. */
  killGraceMs?: number;
  /** Name used in error messages. */
  label?: string;
  /** Where the child's process group is written down while it runs, for the next engine to stop if this one is killed. */
  groups?: GroupLedger;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Process groups we started, killed if the engine exits without stopping them. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pid: number): void {
  if (!exitHookInstalled && process.platform !== 'win32') {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const g of liveGroups) killGroup(g, 'SIGKILL');
    });
  }
  liveGroups.add(pid);
}

export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Called once when the child process exits, before onclose. */
  onexit?: (exit: ChildExit) => void;
  /**
   * Sees each message from the child before `onmessage`, and keeps it when it returns true: the
   * direct calls of the tools/call fast path (direct-calls.ts) take their answers here, past the
   * SDK's Protocol.
   */
  intercept?: (message: JSONRPCMessage) => boolean;
  /** Called once when the connection ends, before onclose (whoever set onclose). */
  onend?: () => void;

  readonly #opts: ChildStdioOptions;
  readonly #maxBytes: number;
  #child: ChildProcess | undefined;
  #exit: ChildExit | undefined;
  #exited: Promise<void> | undefined;
  #closed = false;
  /** Characters of the last message sent, so that a server quitting on a huge request can be explained. */
  lastSentChars = 0;
  readonly #lines: LineSplitter;

  constructor(opts: ChildStdioOptions) {
    this.#opts = opts;
    this.#maxBytes = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#lines = new LineSplitter({
      maxLineBytes: this.#maxBytes,
      onLine: (line) => this.#onLine(line),
      onOversized: ({ bytes, head, tail }) => this.#oversized(bytes, head.toString('utf8'), tail.toString('latin1')),
    });
  }

  /**
   * The v2 client SDK recognises a stdio transport by `stderr` and `pid`: then a server/discover
   * probe that gets no answer means a 2025-era server (fall back to initialize), not an outage.
   * stderr itself goes to the server's log, never to the SDK.
   */
  get stderr(): null {
    return null;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get exitInfo(): ChildExit | undefined {
    return this.#exit;
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error('ChildStdioTransport already started');
    // Closed before it started (its server stopped while the connection was being made, e.g. an
    // engine stopped while starting): spawning now would leave a process nobody stops.
    if (this.#closed) throw new Error('Not connected: the connection was closed before the server started');
    const { command, args = [], env, cwd } = this.#opts;
    const win = process.platform === 'win32';
    // Node refuses to spawn .cmd/.bat without a shell (CVE-2024-27980); npm's shims are .cmd files.
    const viaCmd = win && /\.(cmd|bat)$/i.test(command);
    const child = viaCmd
      ? spawn(env.COMSPEC ?? env.ComSpec ?? 'cmd.exe', cmdShellArgs(command, args), {
          env,
          cwd,
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsHide: true,
          windowsVerbatimArguments: true,
        })
      : spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: !win, windowsHide: true });
    this.#child = child;
    // Tracked and awaitable from the spawn on, not from its 'spawn' event: close() may come first.
    if (child.pid !== undefined && !win) {
      trackGroup(child.pid);
      // Its name only: arguments may hold a token.
      this.#opts.groups?.add(child.pid, this.#opts.label ?? path.basename(command));
    }
    this.#exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        resolve();
      });
      // A program that could not be started never exits.
      child.once('error', () => {
        if (child.pid === undefined) resolve();
      });
    });

    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => reject(err));
    });
    this.#opts.log?.note(`started ${command} ${args.join(' ')} (pid ${child.pid})`);
    // 'close' waits for stdout to drain, so every message the child wrote is delivered first.
    child.once('close', () => {
      if (child.pid !== undefined && !win) {
        // A server that died on its own may leave children behind in its group; they go too.
        if (!this.#closed) {
          killGroup(child.pid, 'SIGKILL');
          this.#opts.groups?.remove(child.pid);
        }
        liveGroups.delete(child.pid);
      }
      const exit = this.#exit ?? { code: child.exitCode, signal: child.signalCode };
      this.#opts.log?.note(exit.signal ? `exited on ${exit.signal}` : `exited with code ${exit.code}`);
      this.#opts.log?.flushPartial();
      this.onexit?.(exit);
      this.#finish();
    });
    child.on('error', (err) => this.onerror?.(err));
    child.stdin!.on('error', (err) => {
      // EPIPE after the child died is reported by 'exit'; anything else is worth knowing.
      if ((err as NodeJS.ErrnoException).code !== 'EPIPE') this.onerror?.(err);
    });
    child.stdout!.on('data', (chunk: Buffer) => this.#onData(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => this.#opts.log?.write(text));
  }

  #onData(chunk: Buffer): void {
    this.#lines.push(chunk);
  }

  #onLine(buf: Buffer): void {
    const line = buf.toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return;
    let message: JSONRPCMessage | undefined;
    try {
      message = asJsonRpcMessage(JSON.parse(line));
    } catch {
      message = undefined;
    }
    if (!message) {
      this.#opts.log?.note(`skipped a stdout line that is not an MCP message: ${line.slice(0, 200)}`);
      return;
    }
    if (this.intercept?.(message)) return;
    this.onmessage?.(message);
  }

  /** Drops a message over the cap; a response gets an error in its place so its caller is not left waiting. */
  #oversized(size: number, head: string, tail: string): void {
    const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
    const text = `${this.#opts.label ?? 'the server'} sent a message of ${mb(size)}, over the ${mb(this.#maxBytes)} limit; it was dropped`;
    this.#opts.log?.note(text);
    this.onerror?.(new Error(text));
    if (/"method"\s*:/.test(head.slice(0, 200))) return;
    const id = matchId(head, /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/) ?? matchId(tail, /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*\r?$/);
    if (id === undefined) return;
    const answer: JSONRPCMessage = { jsonrpc: '2.0', id, error: { code: -32603, message: `${text}. Ask for a smaller result.` } };
    if (this.intercept?.(answer)) return;
    this.onmessage?.(answer);
  }

  /**
   * Writes one message already serialised as a line (with its newline), without waiting for
   * the pipe to drain (Node buffers what the pipe does not take). False when not connected.
   */
  writeLine(line: string): boolean {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closed || !stdin.writable) return false;
    this.lastSentChars = line.length;
    stdin.write(line);
    return true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closed || !stdin.writable) throw new Error('Not connected');
    const data = JSON.stringify(message) + '\n';
    this.lastSentChars = data.length;
    if (!stdin.write(data)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          stdin.off('close', done);
          resolve();
        };
        stdin.once('drain', done);
        stdin.once('close', done);
      });
    }
  }

  /** Stops the whole process tree: SIGTERM to the group, SIGKILL after the grace period. */
  close(): Promise<void> {
    // Every caller waits for the same stop, so "closed" always means the tree is gone.
    this.#closing ??= this.#stop();
    return this.#closing;
  }
  #closing: Promise<void> | undefined;

  async #stop(): Promise<void> {
    const child = this.#child;
    if (!child || this.#exit) {
      this.#closed = true;
      if (child?.pid !== undefined && process.platform !== 'win32') {
        if (groupAlive(child.pid)) await killGroupAndWait(child.pid);
        this.#opts.groups?.remove(child.pid);
      }
      await this.#exited;
      this.#finish();
      return;
    }
    this.#closed = true;
    child.stdin?.end();
    const pid = child.pid;
    if (pid !== undefined) {
      if (process.platform === 'win32') await taskkillTree(pid);
      else {
        await stopGroup(pid, this.#exited!, this.#opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
        this.#opts.groups?.remove(pid);
      }
    }
    await this.#exited;
    this.#finish();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#closed = true;
    this.onend?.();
    this.onclose?.();
  }
  #finished = false;
}

async function stopGroup(pgid: number, exited: Promise<void>, graceMs: number): Promise<void> {
  killGroup(pgid, 'SIGTERM');
  let leaderGone = false;
  void exited.then(() => (leaderGone = true));
  const deadline = Date.now() + graceMs;
  // The group outlives its leader when grandchildren ignore SIGTERM; wait for all of it.
  while (Date.now() < deadline && !(leaderGone && !groupAlive(pgid))) await new Promise((r) => setTimeout(r, 50));
  if (groupAlive(pgid)) await killGroupAndWait(pgid);
  liveGroups.delete(pgid);
}

function matchId(text: string, re: RegExp): string | number | undefined {
  const m = re.exec(text);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as string | number;
  } catch {
    return undefined;
  }
}
