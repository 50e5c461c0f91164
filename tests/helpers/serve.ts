// A real `switchboard serve` on a temp home, on any free port, stopped after the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './home.ts';

export interface Served {
  url: string;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `opts.onlyEnv`: the engine gets extraEnv alone, none of this process's environment. */
export async function serve(home: string, extraEnv: Record<string, string> = {}, opts: { onlyEnv?: boolean } = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--home', home, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: opts.onlyEnv ? extraEnv : { ...process.env, ...extraEnv },
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000);
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /Switchboard is running: (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  const u = new URL(line);
  const token = new URLSearchParams(u.hash.slice(1)).get('token')!;
  return {
    url: `${u.protocol}//${u.host}`,
    token,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // The engine forces its own exit 5 s after SIGTERM; on a machine this loaded that timer
        // can run late, so a test never waits for it longer than 10 s (and says so).
        const kill = setTimeout(() => {
          process.stderr.write(`serve (pid ${child.pid}) was still running 10 s after SIGTERM; killing it\n`);
          child.kill('SIGKILL');
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export interface ModernPostOptions {
  /** The Mcp-Method header when it should differ from the body's method. */
  headerMethod?: string;
  /** The Mcp-Name header (the body's tool name or task id, per the revision's table). */
  name?: string;
  clientName?: string;
  capabilities?: Record<string, unknown>;
  id?: number;
}

/** One raw 2026-07-28 request to /mcp/<profile>: the headers and `_meta` envelope a client sends. */
export async function modernPost(
  s: Served,
  profile: string,
  method: string,
  params: Record<string, unknown> = {},
  opts: ModernPostOptions = {},
): Promise<{ status: number; body: string; json: () => { result?: Record<string, unknown>; error?: { code: number; message: string } } }> {
  const r = await fetch(`${s.url}/mcp/${profile}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${s.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': opts.headerMethod ?? method,
      ...(opts.name !== undefined ? { 'mcp-name': opts.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: opts.id ?? 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: opts.clientName ?? 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': opts.capabilities ?? {},
        },
      },
    }),
  });
  const body = await r.text();
  // An SSE answer carries the response as its last data line.
  return { status: r.status, body, json: () => JSON.parse(body.includes('data:') ? body.split('data: ').pop()! : body) };
}
