// A registry entry whose remote server is behind OAuth (the local OAuth fixture): install adds it,
// sees the server's 401 at once and goes on to the sign-in — the same flow as `switchboard login`,
// with the fake browser giving consent — instead of leaving a server that silently fails.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogHandlers } from '../../../src-main/engine/catalog/catalog-control.ts';
import { probeSignIn } from '../../../src-main/engine/catalog/sign-in-probe.ts';
import { FileSecretStore } from '../../../src-main/engine/secrets/secret-store.ts';
import { BIN, cleanupHomes, makeHome, ROOT } from '../../helpers/home.ts';
import { loadEntries, startRegistry, type LocalRegistry } from '../../fixtures/registry/registry-server.ts';
import { FAKE_BROWSER, browserLaunches, startOAuthServer, storedSignIn, type OAuthServer } from '../upstream/oauth/helpers.ts';

let oauth: OAuthServer;
let registry: LocalRegistry;

const NAME = 'com.example/oauth-notes';
const entry = (url: string) => ({
  server: { $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json', name: NAME, description: 'Notes behind a sign-in.', version: '1.0.0', remotes: [{ type: 'streamable-http', url }] },
  _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2026-11-01T10:00:00Z', updatedAt: '2026-11-01T10:00:00Z', isLatest: true } },
});

beforeAll(async () => {
  oauth = await startOAuthServer();
  registry = await startRegistry({ entries: [...loadEntries(), entry(oauth.mcp)] });
}, 30_000);
afterAll(async () => {
  oauth?.stop();
  await registry?.close();
  await cleanupHomes();
});

function install(home: string, input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, 'install', NAME, '--home', home],
      { cwd: ROOT, timeout: 90_000, env: { ...process.env, SWITCHBOARD_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: path.join(home, 'browser.log') } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

describe('installing a remote server that needs a sign-in', () => {
  it('the CLI adds it, says it asks for a sign-in, and signs in on yes', { timeout: 120_000 }, async () => {
    const home = makeHome({ settings: { registry: registry.url }, servers: {}, profiles: {} });
    const r = await install(home, 'y\ny\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Added "oauth-notes" to config.json.`);
    expect(r.stdout).toContain('oauth-notes asks you to sign in (OAuth)');
    expect(r.stdout).toContain('oauth-notes asks you to sign in (OAuth): its tools can be used once you have.\nSign in to oauth-notes now, in your browser? [Y/n] \n');
    expect(r.stdout).toContain('Signed in to oauth-notes as ada@example.com.');
    expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).servers['oauth-notes']).toEqual({ url: oauth.mcp, transport: 'http' });
    expect(storedSignIn(home, 'oauth-notes')?.tokens?.access_token).toBeTruthy();
    expect(browserLaunches(home)).toHaveLength(1);
  });

  it('on no, the server stays added and the CLI says how to sign in later; nothing is signed in', { timeout: 120_000 }, async () => {
    const home = makeHome({ settings: { registry: registry.url }, servers: {}, profiles: {} });
    const r = await install(home, 'y\nn\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('To sign in later: switchboard login oauth-notes');
    expect(storedSignIn(home, 'oauth-notes')).toBeUndefined();
    expect(browserLaunches(home)).toHaveLength(0);
    expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).servers['oauth-notes']).toBeDefined();
  });

  it('catalog.install (the app) reports signIn: needed for it, and not for a server that takes an API key', async () => {
    const home = makeHome({ servers: {}, profiles: {} });
    const servers: Record<string, unknown> = {};
    const h = catalogHandlers({
      home,
      env: { PATH: '' },
      platform: 'linux',
      registry: () => registry.url,
      servers: () => servers,
      setServer: async (n, c) => void (servers[n] = c),
      secrets: new FileSecretStore(path.join(home, 'secrets.json')),
      loginPath: async () => '',
    });
    expect(await h['catalog.install']({ name: NAME, answers: {}, approved: true })).toMatchObject({ serverName: 'oauth-notes', signIn: 'needed' });
    const keyed = await h['catalog.prepare']({ name: 'com.example/remote-notes' });
    const r = await h['catalog.install']({ name: 'com.example/remote-notes', answers: Object.fromEntries(keyed.inputs.map((i) => [i.id, 'tok'])), approved: true });
    expect(r.signIn).toBeUndefined();
  });

  it('the probe: 401 means sign in, an open server or no answer does not', async () => {
    expect(await probeSignIn({ url: oauth.mcp })).toBe('needed');
    const open = http.createServer((_q, s) => s.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((r) => open.listen(0, '127.0.0.1', r));
    const port = (open.address() as AddressInfo).port;
    expect(await probeSignIn({ url: `http://127.0.0.1:${port}/mcp` })).toBe('not-needed');
    await new Promise((r) => open.close(r));
    expect(await probeSignIn({ url: `http://127.0.0.1:${port}/mcp` })).toBe('unknown');
    expect(await probeSignIn({ command: 'npx' })).toBe('not-needed');
  });
});
