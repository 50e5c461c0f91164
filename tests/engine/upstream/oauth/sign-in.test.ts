// `switchboard login` against a real OAuth-protected MCP server, then the engine using the
// stored sign-in: discovery, registration, PKCE, refresh with rotation, and "sign in again".
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupHomes, makeHome, shimClient } from '../../../helpers/home.ts';
import { browserLaunches, runCli, startOAuthServer, storedSignIn, type OAuthServer } from './helpers.ts';

let server: OAuthServer | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  server?.stop();
  server = undefined;
  await cleanupHomes();
});

function homeFor(url: string, extra: Record<string, unknown> = {}): string {
  return makeHome({ servers: { remote: { url, ...extra } }, profiles: { p: { servers: ['remote'] } } });
}

async function connect(home: string): Promise<Client> {
  const c = await shimClient(home, 'p');
  clients.push(c);
  return c;
}

function text(r: unknown): string {
  return ((r as { content: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');
}

async function status(home: string): Promise<{ servers: Record<string, { state: string; auth: { state: string; account?: string }; lastError: string | null }> }> {
  const r = await runCli(home, ['status', '--json']);
  return JSON.parse(r.stdout);
}

describe('switchboard login', () => {
  it('discovers, registers, signs in with PKCE S256, and the engine then lists and calls the tools', async () => {
    server = await startOAuthServer();
    const home = homeFor(server.mcp);
    const r = await runCli(home, ['login', 'remote']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const launches = browserLaunches(home);
    expect(launches).toHaveLength(1);
    const authUrl = new URL(launches[0]!.url);
    // The URL is printed whether or not a browser opens.
    expect(r.stdout).toContain(authUrl.href);
    expect(authUrl.origin + authUrl.pathname).toBe(`${server.base}/authorize`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(server.mcp);
    expect(authUrl.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(new URL(authUrl.searchParams.get('redirect_uri')!).hostname).toBe('127.0.0.1');
    expect(r.stdout).toContain('Signed in to remote as ada@example.com');
    expect(await server.stats()).toMatchObject({ registrations: 1, codeExchanges: 1 });

    const stored = storedSignIn(home, 'remote');
    expect(stored?.tokens?.access_token).toBeTruthy();
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).not.toContain(stored!.tokens!.access_token);

    const c = await connect(home);
    const tools = (await c.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['remote__whoami', 'remote__add']));
    expect(text(await c.callTool({ name: 'remote__add', arguments: { a: 2, b: 3 } }))).toBe('5');
    expect((await status(home)).servers.remote!.auth).toEqual({ state: 'signed-in', account: 'ada@example.com' });
  });

  it('signs in to an SSE server the same way', async () => {
    server = await startOAuthServer();
    const home = homeFor(server.sse, { transport: 'sse' });
    expect((await runCli(home, ['login', 'remote'])).code).toBe(0);
    const c = await connect(home);
    expect(text(await c.callTool({ name: 'remote__whoami', arguments: {} }))).toMatch(/^hello [0-9a-f-]{36}$/);
  });

  it('refreshes expired access tokens and keeps each rotated refresh token', async () => {
    server = await startOAuthServer();
    const home = homeFor(server.mcp);
    expect((await runCli(home, ['login', 'remote'])).code).toBe(0);
    const first = storedSignIn(home, 'remote')!.tokens!.refresh_token;
    const c = await connect(home);
    expect(text(await c.callTool({ name: 'remote__add', arguments: { a: 1, b: 1 } }))).toBe('2');
    for (let round = 0; round < 2; round++) {
      await server.expireAll();
      // Several calls meet the expired token at once; they must share one refresh.
      const results = await Promise.all([1, 2, 3, 4].map((n) => c.callTool({ name: 'remote__add', arguments: { a: n, b: 0 } })));
      expect(results.map(text)).toEqual(['1', '2', '3', '4']);
    }
    const stats = await server.stats();
    expect(stats.refreshes).toBeGreaterThanOrEqual(2);
    expect(stats.refusedRefreshes).toBe(0);
    expect(storedSignIn(home, 'remote')!.tokens!.refresh_token).not.toBe(first);
    expect((await status(home)).servers.remote!.auth.state).toBe('signed-in');
  });

  it('asks to sign in again when the refresh token is revoked, keeps the tools listed, and recovers after login', async () => {
    server = await startOAuthServer();
    const home = homeFor(server.mcp);
    expect((await runCli(home, ['login', 'remote'])).code).toBe(0);
    const c = await connect(home);
    expect(text(await c.callTool({ name: 'remote__add', arguments: { a: 1, b: 2 } }))).toBe('3');

    await server.revokeAll();
    const failed = await c.callTool({ name: 'remote__add', arguments: { a: 1, b: 2 } });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('remote needs you to sign in again');
    expect(text(failed)).toContain('switchboard login remote');
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('remote__add');
    const st = (await status(home)).servers.remote!;
    expect(st.auth.state).toBe('needs-sign-in');
    expect(st.lastError).toContain('sign in again');

    const again = await runCli(home, ['login', 'remote']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('The running engine reconnected remote');
    expect(text(await c.callTool({ name: 'remote__add', arguments: { a: 2, b: 2 } }))).toBe('4');
    expect((await status(home)).servers.remote!.auth.state).toBe('signed-in');
  });

  it('reports a server that was never signed in as needing a sign-in, without registering from the engine', async () => {
    server = await startOAuthServer();
    const home = homeFor(server.mcp);
    const c = await connect(home);
    // No connection ever succeeded, so there is no catalog to keep.
    expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('remote__add');
    const st = (await status(home)).servers.remote!;
    expect(st.auth.state).toBe('needs-sign-in');
    expect(st.lastError).toContain('remote asks you to sign in: run `switchboard login remote`');
    expect((await server.stats()).registrations).toBe(0);
  });

  it('forgets the tokens on logout', async () => {
    server = await startOAuthServer();
    const home = homeFor(server.mcp);
    expect((await runCli(home, ['login', 'remote'])).code).toBe(0);
    const r = await runCli(home, ['logout', 'remote']);
    expect(r.code).toBe(0);
    expect(storedSignIn(home, 'remote')).toBeUndefined();
  });
});

describe('switchboard login refuses', () => {
  it('a redirect with a wrong state, storing nothing', async () => {
    server = await startOAuthServer();
    const home = homeFor(server.mcp);
    const r = await runCli(home, ['login', 'remote'], { FAKE_BROWSER_MODE: 'wrong-state' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('wrong state');
    expect(storedSignIn(home, 'remote')).toBeUndefined();
    expect((await server.stats()).codeExchanges).toBe(0);
  });

  it('an authorization server without PKCE S256, opening and storing nothing', async () => {
    server = await startOAuthServer({ MODE: 'no-s256' });
    const home = homeFor(server.mcp);
    const r = await runCli(home, ['login', 'remote']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('does not support PKCE with S256');
    expect(browserLaunches(home)).toEqual([]);
    expect(storedSignIn(home, 'remote')).toBeUndefined();
    expect((await server.stats()).registrations).toBe(0);
  });

  for (const mode of ['javascript-authorize', 'file-authorize']) {
    it(`a ${mode.split('-')[0]}: authorization URL, never opening it`, async () => {
      server = await startOAuthServer({ MODE: mode });
      const home = homeFor(server.mcp);
      const r = await runCli(home, ['login', 'remote']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(mode === 'file-authorize' ? /uses file:, not https:/ : /javascript:/);
      expect(browserLaunches(home)).toEqual([]);
      expect(storedSignIn(home, 'remote')).toBeUndefined();
    });
  }

  it('a local server, naming the problem', async () => {
    const home = makeHome({ servers: { local: { command: process.execPath } }, profiles: {} });
    const r = await runCli(home, ['login', 'local']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('only remote servers');
  });
});
