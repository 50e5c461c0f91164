// Each profile over Streamable HTTP on loopback, and the control API under /api/, from a real
// `switchboard serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';
import { serve, type Served } from '../../helpers/serve.ts';

let s: Served;
beforeAll(async () => {
  const home = makeHome({
    servers: { basic: fixtureServer('basic.mjs') },
    profiles: { web: { servers: ['basic'] }, webcode: { servers: ['basic'], surface: 'code' } },
  });
  s = await serve(home);
});
afterAll(async () => {
  await s.stop();
  await cleanupHomes();
});

function httpClient(profile: string, token = s.token): Promise<Client> {
  const c = new Client({ name: 'http-test', version: '1' });
  const t = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/${profile}`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  return c.connect(t).then(() => c);
}

describe('HTTP endpoint', () => {
  it('serves a profile as Streamable HTTP with the bearer token', async () => {
    const c = await httpClient('web');
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toContain('basic__echo');
    const r = (await c.callTool({ name: 'basic__echo', arguments: { text: 'over http' } })) as CallToolResult;
    expect((r.content[0] as { text: string }).text).toBe('over http');
    await c.close();
  });

  it('sends a priming event with retry to 2025-11-25 clients, so they can resume a dropped stream', async () => {
    const headers = { Authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(`${s.url}/mcp/web`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    const call = await fetch(`${s.url}/mcp/web`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'basic__echo', arguments: { text: 'sse' } } }),
    });
    const body = await call.text();
    expect(body).toMatch(/^id: \S+\nretry: 1000\ndata: \n/);
    expect(body).toContain('"text":"sse"');
  });

  it('runs code mode over HTTP too', async () => {
    const c = await httpClient('webcode');
    const r = (await c.callTool({ name: 'execute', arguments: { code: 'async () => (await basic.add({ a: 1, b: 2 })).sum' } })) as CallToolResult;
    expect((r.content[0] as { text: string }).text).toBe('Result:\n3');
    await c.close();
  });

  it('refuses a request without the token (401) and with a foreign Host (403)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const noToken = await fetch(`${s.url}/mcp/web`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(noToken.status).toBe(401);
    const api = await fetch(`${s.url}/api/status`, { method: 'POST' });
    expect(api.status).toBe(401);
    const http = await import('node:http');
    const port = new URL(s.url).port;
    const status = await new Promise<number>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/api/status', method: 'POST', headers: { Host: `evil.example:${port}`, Authorization: `Bearer ${s.token}` } }, (res) => resolve(res.statusCode!));
      req.end();
    });
    expect(status).toBe(403);
    const origin = await fetch(`${s.url}/api/status`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, Origin: 'http://evil.example' } });
    expect(origin.status).toBe(403);
  });

  it('answers an unknown profile with 404 and a JSON-RPC error listing the known ones', async () => {
    const r = await fetch(`${s.url}/mcp/nope`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(r.status).toBe(404);
    const j = (await r.json()) as { error: { message: string } };
    expect(j.error.message).toMatch(/Unknown profile "nope".*web, webcode/);
  });

  it('serves the control API under /api/ with errors as { code, message }', async () => {
    const ok = await fetch(`${s.url}/api/status`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}` } });
    expect(ok.status).toBe(200);
    const st = ((await ok.json()) as { result: { profiles: object } }).result;
    expect(Object.keys(st.profiles).sort()).toEqual(['web', 'webcode']);
    const bad = await fetch(`${s.url}/api/config.set`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.token}` },
      body: JSON.stringify({ path: 'profiles.web.budgets.timeoutMs', value: -1 }),
    });
    expect(bad.status).toBe(400);
    const err = ((await bad.json()) as { error: { code: string; problems: object[] } }).error;
    expect(err.code).toBe('invalid-config');
    expect(err.problems[0]).toMatchObject({ path: 'profiles.web.budgets.timeoutMs', message: 'expected a positive integer' });
  });
});
