// Containment between clients and profiles (issue 11, items 1, 7, 11, 12): one client's roots
// never steer a server other clients share, names that objects inherit cannot slip past tool
// pinning, a profile's filters cover resources and prompts, and /mcp takes 64 MB messages.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, describe, expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, fixtureServer, makeHome } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

const MB = 1024 * 1024;

function httpClient(url: string, token: string, profile: string): Promise<Client> {
  const c = new Client({ name: 'http-big', version: '1' });
  const t = new StreamableHTTPClientTransport(new URL(`${url}/mcp/${profile}`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  return c.connect(t).then(() => c);
}

/** POSTs `bytes` bytes of a JSON string to /mcp, streamed, and reads whatever answer comes back. */
function postHuge(url: string, token: string, profile: string, bytes: number, chunked: boolean): Promise<{ status: number; body: string } | { error: string }> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (!chunked) headers['content-length'] = bytes;
    const req = http.request({ host: u.hostname, port: Number(u.port), path: `/mcp/${profile}`, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (e) => resolve({ status: res.statusCode ?? 0, body: body || e.message }));
    });
    req.on('error', (e) => resolve({ error: e.message }));
    const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"';
    const tail = '"}}';
    const chunk = Buffer.alloc(MB, 'a');
    let left = bytes - head.length - tail.length;
    req.write(head);
    const pump = (): void => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}

describe('/mcp message size', () => {
  hardeningCase('attack', '/mcp takes a 10 MB call and refuses a body over 64 MB with a clear error, staying up', async (tally) => {
    const home = makeHome({ servers: { big: fixtureServer('big-input.mjs') }, profiles: { web: { servers: ['big'] } } });
    const engine = await serveEngine(home);
    try {
      const c = await httpClient(engine.url, engine.token, 'web');
      // 10 MB of arguments (the SDK's own HTTP default refuses anything over 4 MB).
      const big = 'x'.repeat(10 * MB);
      const r = (await c.callTool({ name: 'big__measure', arguments: { text: big } })) as CallToolResult;
      expect((r.content[0] as { text: string }).text).toBe(`${big.length} ${createHash('sha256').update(big).digest('hex')}`);

      for (const chunked of [false, true]) {
        tally.tried++;
        const res = await postHuge(engine.url, engine.token, 'web', 65 * MB, chunked);
        expect(res, JSON.stringify(res).slice(0, 300)).toMatchObject({ status: 413 });
        if ('body' in res) expect(res.body).toMatch(/64 MB|67108864 bytes/);
        // Still serving: the same session calls again.
        const again = (await c.callTool({ name: 'big__measure', arguments: { text: 'still here' } })) as CallToolResult;
        expect((again.content[0] as { text: string }).text).toMatch(/^10 /);
        tally.held++;
      }
      await c.close();
    } finally {
      await engine.stop();
    }
  }, 120_000);
});
