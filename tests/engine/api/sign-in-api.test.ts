// servers.signIn / servers.signOut against a real `switchboard serve` and the OAuth-protected
// fixture server: the engine hands back the authorization URL and waits on its own loopback
// listener; the test plays the browser by following the redirects.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlApi, ControlMethod, ServerStatus } from '../../../src-shared/api.ts';
import type { ErrorData } from '../../../src-shared/errors.ts';
import { cleanupHomes, fixtureServer, makeHome, shimClient } from '../../helpers/home.ts';
import { serve, type Served } from '../../helpers/serve.ts';
import { browserLaunches, FAKE_BROWSER, startOAuthServer, storedSignIn, type OAuthServer } from '../upstream/oauth/helpers.ts';

let oauth: OAuthServer | undefined;
let s: Served | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  await s?.stop();
  s = undefined;
  oauth?.stop();
  oauth = undefined;
  await cleanupHomes();
});

async function call<M extends ControlMethod>(method: M, params: ControlApi[M]['params']): Promise<ControlApi[M]['result']> {
  const res = await fetch(`${s!.url}/api/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${s!.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
  const body = (await res.json()) as { result?: ControlApi[M]['result']; error?: ErrorData };
  if (body.error) throw Object.assign(new Error(body.error.message), { data: body.error });
  return body.result!;
}

async function remote(): Promise<ServerStatus> {
  return (await call('status', {})).servers.remote!;
}

async function until(what: string, check: (st: ServerStatus) => boolean, ms = 20_000): Promise<ServerStatus> {
  const end = Date.now() + ms;
  for (;;) {
    const st = await remote();
    if (check(st)) return st;
    if (Date.now() > end) throw new Error(`${what} did not happen: ${JSON.stringify(st)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What the user's browser does: the fixture consents at once and redirects to the loopback listener. */
async function consent(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  expect(res.status).toBe(302);
  const back = new URL(location!, url);
  expect(back.hostname).toBe('127.0.0.1');
  const page = await fetch(back);
  expect(page.status).toBe(200);
  return page.text();
}

async function start(): Promise<string> {
  oauth = await startOAuthServer();
  const home = makeHome({
    servers: { remote: { url: oauth.mcp }, basic: fixtureServer('basic.mjs') },
    profiles: { p: { servers: ['remote'] } },
  });
  // A browser the engine could launch: the test proves it never does.
  s = await serve(home, { SWITCHBOARD_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: `${home}/browser.log` });
  return home;
}

describe('servers.signIn and servers.signOut', () => {
  it('returns the authorization URL, stores tokens after the redirect, and the server then works', async () => {
    const home = await start();
    await until('the sign-in request', (st) => st.auth.state === 'needs-sign-in');
    expect((await remote()).auth.again).toBeUndefined();

    const { url } = await call('servers.signIn', { name: 'remote' });
    const auth = new URL(url);
    expect(auth.origin + auth.pathname).toBe(`${oauth!.base}/authorize`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect((await remote()).auth.signIn).toEqual({ state: 'waiting', url });
    // Asked again while waiting (the user closed the tab), the same flow answers.
    expect((await call('servers.signIn', { name: 'remote' })).url).toBe(url);
    expect(storedSignIn(home, 'remote')?.tokens).toBeUndefined();

    expect(await consent(url)).toContain('Signed in');
    const st = await until('signed in and ready', (x) => x.auth.state === 'signed-in' && x.state === 'ready' && !x.auth.signIn);
    expect(st.auth).toEqual({ state: 'signed-in', account: 'ada@example.com' });
    expect(st.tools).toBe(2);
    expect(browserLaunches(home)).toEqual([]);
    expect(await oauth!.stats()).toMatchObject({ registrations: 1, codeExchanges: 1 });

    const c = await shimClient(home, 'p');
    clients.push(c);
    const r = (await c.callTool({ name: 'remote__add', arguments: { a: 2, b: 3 } })) as { content: { text: string }[] };
    expect(r.content[0]!.text).toBe('5');

    // The authorization server forgets every token: the server now asks to sign in *again*.
    await oauth!.revokeAll();
    await call('servers.restart', { name: 'remote' });
    expect((await until('sign in again', (x) => x.auth.state === 'needs-sign-in')).auth.again).toBe(true);

    expect(await call('servers.signOut', { name: 'remote' })).toEqual({ ok: true, removed: true });
    expect(storedSignIn(home, 'remote')).toBeUndefined();
    const out = await until('signed out', (x) => x.auth.state === 'needs-sign-in');
    expect(out.auth.again).toBeUndefined();
    expect(await call('servers.signOut', { name: 'remote' })).toEqual({ ok: true, removed: false });
  });

  it('reports a refused redirect as a failed sign-in and stores nothing', async () => {
    const home = await start();
    const { url } = await call('servers.signIn', { name: 'remote' });
    const res = await fetch(url, { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    back.searchParams.set('state', 'forged');
    expect((await fetch(back)).status).toBe(400);
    const st = await until('the failure', (x) => x.auth.signIn?.state === 'failed');
    expect(st.auth.signIn).toEqual({ state: 'failed', message: expect.stringMatching(/wrong state/) });
    expect(storedSignIn(home, 'remote')?.tokens).toBeUndefined();
    // A new attempt starts a new flow with a new state.
    const again = await call('servers.signIn', { name: 'remote' });
    expect(new URL(again.url).searchParams.get('state')).not.toBe(new URL(url).searchParams.get('state'));
  });

  it('refuses local and unknown servers with a sentence saying why', async () => {
    await start();
    await expect(call('servers.signIn', { name: 'basic' })).rejects.toMatchObject({ data: { code: 'bad-request', message: expect.stringMatching(/local server/) } });
    await expect(call('servers.signIn', { name: 'nope' })).rejects.toMatchObject({ data: { code: 'unknown-server' } });
    await expect(call('servers.signOut', { name: 'nope' })).rejects.toMatchObject({ data: { code: 'unknown-server' } });
  });
});
