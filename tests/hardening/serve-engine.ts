// A real `switchboard serve` process for a test home, with the environment the test chooses.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from '../helpers/home.ts';

export interface ServedEngine {
  url: string;
  token: string;
  proc: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  api<T = unknown>(method: string, params?: unknown): Promise<T>;
  stop(): Promise<void>;
}

export async function serveEngine(home: string, env: NodeJS.ProcessEnv = process.env): Promise<ServedEngine> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--home', home, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const m = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 30_000);
    const check = () => {
      const found = /Switchboard is running: (http:\/\/[^\s/]+)\/#token=([0-9a-f]+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
  const [, url, token] = m as unknown as [string, string, string];
  return {
    url,
    token,
    proc,
    output: () => out,
    async api<T>(method: string, params: unknown = {}): Promise<T> {
      const res = await fetch(`${url}/api/${method}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(params) });
      const body = (await res.json()) as { result?: T; error?: { message: string } } & T;
      if (!res.ok) throw new Error(`${method}: ${res.status} ${JSON.stringify(body)}`);
      return (body.result ?? body) as T;
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 8000);
      await exited;
      clearTimeout(t);
    },
  };
}
