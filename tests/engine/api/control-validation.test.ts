// Parameters of the control API are checked against the contract's schema whichever way they
// arrive: a wrong field gets `bad-request` naming it, over the socket and under /api/; a tool
// error reaches an MCP client as data too; and a hello that is not one never takes the engine down.
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src-main/engine/platform/home.ts';
import { cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';
import { serve, type Served } from '../../helpers/serve.ts';

let home: string;
let s: Served;
beforeAll(async () => {
  home = makeHome({
    servers: { basic: fixtureServer('basic.mjs') },
    profiles: { code: { servers: ['basic'], surface: 'code' } },
  });
  s = await serve(home);
});
afterAll(async () => {
  await s.stop();
  await cleanupHomes();
});

/** Writes `lines` on a fresh engine socket connection and collects `want` answer lines. */
async function socketLines(lines: string[], want: number): Promise<string[]> {
  const sock = net.createConnection(homePaths(home).socket);
  await new Promise((res, rej) => sock.once('connect', res).once('error', rej));
  const got: string[] = [];
  let buf = '';
  sock.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      got.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  });
  const closed = new Promise((res) => sock.once('close', res));
  sock.write(lines.map((l) => `${l}\n`).join(''));
  const t0 = Date.now();
  while (got.length < want && sock.readyState !== 'closed' && Date.now() - t0 < 10_000) await new Promise((res) => setTimeout(res, 10));
  sock.destroy();
  await closed;
  return got;
}

function api(method: string, body: unknown): Promise<Response> {
  return fetch(`${s.url}/api/${method}`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}` }, body: JSON.stringify(body) });
}

describe('control API validation', () => {
  it('answers bad params over the socket with bad-request naming the field', async () => {
    const [line] = await socketLines([JSON.stringify({ kind: 'control', v: 1 }), JSON.stringify({ id: 1, method: 'servers.log', params: { name: 'basic', lines: 'all' } })], 1);
    const res = JSON.parse(line!);
    expect(res).toMatchObject({ id: 1, error: { code: 'bad-request' } });
    expect(res.error.message).toMatch(/^Bad parameters for servers\.log: "lines" is wrong/);
  });

  it('answers bad params under /api/ with 400 bad-request naming the field', async () => {
    const res = await api('exec', { profile: 'code' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toEqual({ code: 'bad-request', message: 'Bad parameters for exec: "code" is missing.' });
  });

  it('answers with the status of the error code: an unknown server is 404', async () => {
    const res = await api('servers.restart', { name: 'nope' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unknown-server');
  });

  it('closes a connection whose hello is not one, and keeps serving', async () => {
    for (const hello of ['null', '7', '{"kind":"mcp","v":1}', '{"kind":"control","v":2}']) {
      expect(await socketLines([hello], 1)).toEqual([]);
    }
    const [line] = await socketLines([JSON.stringify({ kind: 'control', v: 1 }), JSON.stringify({ id: 2, method: 'status', params: {} })], 1);
    expect(JSON.parse(line!)).toMatchObject({ id: 2, result: { pid: expect.any(Number) } });
  });

  it('gives a failed tool call its error as { code, message } in _meta, beside the sentence', async () => {
    const c = new Client({ name: 'validation-test', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/code`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    const r = (await c.callTool({ name: 'execute', arguments: {} })) as CallToolResult;
    await c.close();
    expect(r.isError).toBe(true);
    const message = (r.content[0] as { text: string }).text;
    expect(message).toMatch(/^syntax: execute needs a "code" argument/);
    expect(r._meta?.['switchboard/error']).toEqual({ code: 'bad-request', message });
  });
});
