// A running OAuth-protected MCP server (tests/fixtures/oauth/oauth-server.mjs), the fake
// browser that gives consent, and the CLI run with the environment a test chooses.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, ROOT } from '../../../helpers/home.ts';

export const FAKE_BROWSER = path.join(ROOT, 'tests/fixtures/oauth/fake-browser.mjs');
const SERVER = path.join(ROOT, 'tests/fixtures/oauth/oauth-server.mjs');

export interface OAuthServer {
  base: string;
  mcp: string;
  sse: string;
  stats(): Promise<Record<string, number>>;
  revokeAll(): Promise<void>;
  /** Every access token issued so far expires now (the server's clock, moved by the test). */
  expireAll(): Promise<void>;
  stop(): void;
}

export function startOAuthServer(env: Record<string, string> = {}): Promise<OAuthServer> {
  const child: ChildProcess = spawn(process.execPath, [SERVER], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`oauth fixture exited (${code}): ${err}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      const urls = JSON.parse(out.slice(0, nl)) as { base: string; mcp: string; sse: string };
      resolve({
        ...urls,
        stats: async () => (await (await fetch(`${urls.base}/admin/stats`)).json()) as Record<string, number>,
        revokeAll: async () => void (await fetch(`${urls.base}/admin/revoke-all`, { method: 'POST' })),
        expireAll: async () => void (await fetch(`${urls.base}/admin/expire-all`, { method: 'POST' })),
        stop: () => void child.kill('SIGKILL'),
      });
    });
  });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `switchboard ARGS --home HOME` with the fake browser unless `env` says otherwise. */
export function runCli(home: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args, '--home', home],
      { env: { ...process.env, SWITCHBOARD_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: path.join(home, 'browser.log'), ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every launch of the fake browser for this home. */
export function browserLaunches(home: string): { url: string }[] {
  const file = path.join(home, 'browser.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { url: string });
}

export function storedSignIn(home: string, server: string): { tokens?: { access_token: string; refresh_token?: string }; account?: string } | undefined {
  const file = path.join(home, 'secrets.json');
  if (!existsSync(file)) return undefined;
  const raw = (JSON.parse(readFileSync(file, 'utf8')) as { secrets: Record<string, string> }).secrets[`oauth.${server}`];
  return raw === undefined ? undefined : JSON.parse(raw);
}
