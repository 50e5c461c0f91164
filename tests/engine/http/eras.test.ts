// Both protocol generations on /mcp/<profile> of a real `switchboard serve`: v2-SDK clients in
// legacy, auto and pinned-2026-07-28 mode, the modern revision's header checks and error codes,
// and `subscriptions/listen` hearing a tools change.
import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cleanupHomes, cli, fixtureServer, makeHome, waitFor } from '../../helpers/home.ts';
import type { StatusReport } from '../../../src-shared/api.ts';
import { modernPost as rawPost, serve, type Served } from '../../helpers/serve.ts';

let s: Served;
let home: string;
beforeAll(async () => {
  home = makeHome({
    servers: { modern: fixtureServer('v2-modern.mjs'), legacy: fixtureServer('basic.mjs') },
    profiles: { web: { servers: ['modern', 'legacy'] } },
  });
  s = await serve(home);
});
afterAll(async () => {
  await s.stop();
  await cleanupHomes();
});

const text = (r: unknown) => ((r as { content: { text: string }[] }).content[0]!).text;

async function v2Client(mode: 'legacy' | 'auto' | { pin: string }, profile = 'web', name = 'v2-http-test'): Promise<Client> {
  const c = new Client({ name, version: '1' }, { versionNegotiation: { mode }, capabilities: { elicitation: {} } });
  c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Kay' } }));
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/${profile}`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
  return c;
}

describe('HTTP endpoint, both eras', () => {
  for (const mode of ['legacy', 'auto', { pin: '2026-07-28' }] as const) {
    const label = typeof mode === 'string' ? mode : `pinned ${mode.pin}`;
    it(`serves a v2-SDK client in ${label} mode`, async () => {
      const c = await v2Client(mode);
      expect(c.getProtocolEra()).toBe(mode === 'legacy' ? 'legacy' : 'modern');
      const { tools } = await waitFor(async () => {
        const r = await c.listTools(undefined, { cacheMode: 'refresh' });
        return r.tools.some((t) => t.name === 'modern__echo') && r.tools.some((t) => t.name === 'legacy__echo') ? r : undefined;
      }, 20_000, 'both servers');
      expect(tools.find((t) => t.name === 'modern__echo')).toMatchObject({ icons: [{ mimeType: 'image/svg+xml' }], _meta: { 'anthropic/alwaysLoad': true } });
      expect(text(await c.callTool({ name: 'modern__echo', arguments: { text: label } }))).toBe(label);
      expect(text(await c.callTool({ name: 'legacy__echo', arguments: { text: 'x' } }))).toBe('x');
      await c.close();
    });
  }

  it('marks list results cacheable per client only (ttlMs, cacheScope) and keeps the order stable', async () => {
    const a = await modernPost(1, 'tools/list');
    const b = await modernPost(2, 'tools/list');
    expect(a.status).toBe(200);
    const result = (t: string) => JSON.parse(t.includes('data:') ? t.split('data: ').pop()! : t).result as { ttlMs: number; cacheScope: string; tools: { name: string }[] };
    expect(result(a.body)).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(result(a.body).tools.map((t) => t.name)).toEqual(result(b.body).tools.map((t) => t.name));
  });

  it('refuses a modern request whose Mcp-Method header does not match its body', async () => {
    const r = await modernPost(7, 'tools/list', 'tools/call');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.body).toContain('-32020');
  });

  it('puts a 2025 server\'s mid-call question to a stateless modern client and hands back its answer', async () => {
    const c = await v2Client({ pin: '2026-07-28' });
    await waitFor(async () => ((await c.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'legacy__echo') ? true : undefined), 20_000, 'tools');
    expect(JSON.parse(text(await c.callTool({ name: 'legacy__elicit', arguments: {} })))).toEqual({ action: 'accept', content: { name: 'Kay' } });
    expect(text(await c.callTool({ name: 'modern__ask', arguments: {} }))).toBe('hello Kay');
    await c.close();
  });

  it('lists 2026-07-28 HTTP clients in status by their _meta.clientInfo, with when they were last seen, beside the 2025 sessions', async () => {
    const modern = await v2Client({ pin: '2026-07-28' }, 'web', 'stateless-lister');
    await waitFor(async () => ((await modern.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'legacy__echo') ? true : undefined), 20_000, 'tools');
    await modern.callTool({ name: 'legacy__echo', arguments: { text: 'seen' } });
    const legacy = await v2Client('legacy', 'web', 'session-lister');
    await legacy.listTools();
    const status = JSON.parse(cli(home, ['status', '--json']).stdout) as StatusReport;
    const seen = status.clients.find((c) => c.name === 'stateless-lister');
    expect(seen).toMatchObject({ profile: 'web', transport: 'http', era: 'modern', stateless: true, id: 'http:web:stateless-lister' });
    expect(seen!.requests).toBeGreaterThanOrEqual(2);
    expect(Date.parse(seen!.lastSeen!)).toBeGreaterThanOrEqual(Date.parse(seen!.since));
    expect(status.clients.find((c) => c.name === 'session-lister')).toMatchObject({ transport: 'http', era: 'legacy' });
    expect(status.clients.find((c) => c.name === 'session-lister')!.stateless).toBeUndefined();
    const text = cli(home, ['status']).stdout;
    expect(text).toMatch(/Clients:\n/);
    expect(text).toMatch(/stateless-lister\s+web\s+no known limits gets \d+ tools; http, 2026-07-28, no session; last seen .+ \(\d+ requests\)/);
    expect(text).toMatch(/session-lister\s+web\s+no known limits gets \d+ tools; http, 2025 session since/);
    await modern.close();
    await legacy.close();
  });

  it('still needs the bearer token for modern requests', async () => {
    const c = new Client({ name: 'no-token', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await expect(c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/web`)))).rejects.toThrow();
  });

  it('subscribes the owning upstream for the resources a listen stream names, and relays its updates', async () => {
    const c = await v2Client({ pin: '2026-07-28' });
    await waitFor(async () => ((await c.listResources(undefined, { cacheMode: 'refresh' })).resources.some((r) => r.uri === 'v2://counter') ? true : undefined), 20_000, 'resources');
    const updated: string[] = [];
    c.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    const sub = await c.listen({ resourceSubscriptions: ['v2://counter'] });
    await c.callTool({ name: 'modern__touch', arguments: {} });
    await waitFor(() => (updated.includes('v2://counter') ? true : undefined), 10_000, 'resources/updated on the HTTP listen stream');
    await sub.close();
    await c.close();
  });

  it('tells a subscriptions/listen stream when the profile changes', async () => {
    const c = await v2Client({ pin: '2026-07-28' });
    let changed = 0;
    c.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    const sub = await c.listen({ toolsListChanged: true });
    const file = path.join(home, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    cfg.profiles.web.tools = { legacy: { deny: ['fail'] } };
    writeFileSync(file, JSON.stringify(cfg, null, 2));
    await waitFor(() => changed > 0, 15_000, 'notifications/tools/list_changed on the listen stream');
    await sub.close();
    await c.close();
  });
});

/** A raw 2026-07-28 POST: the envelope in `_meta`, the method in the Mcp-Method header. */
function modernPost(id: number, method: string, headerMethod = method): Promise<{ status: number; body: string }> {
  return rawPost(s, 'web', method, {}, { id, headerMethod });
}
