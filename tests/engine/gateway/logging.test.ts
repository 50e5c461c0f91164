// Servers' log messages for 2026-07-28 clients: a request that names a log level in its `_meta`
// hears its servers' `notifications/message` at or above that level on its own response stream,
// and one that names none hears none. And a 2025 client's level reaches a 2026-07-28 server. Real v2-SDK clients through the real shim and the real
// HTTP endpoint, to a 2025 server (v1 SDK) and a 2026-07-28 server (v2 SDK).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, cleanupHomes, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';
import { serve, type Served } from '../../helpers/serve.ts';

afterAll(cleanupHomes);

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const config = { servers: { legacy: fixtureServer('basic.mjs'), modern: fixtureServer('v2-modern.mjs') }, profiles: { p: { servers: ['legacy', 'modern'] } } };
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

type Heard = { level: string; logger?: string; data: unknown }[];

/** Calls `tool` with the given `_meta` log level (or none) and returns what the client heard. */
async function callHearing(client: Client, heard: Heard, tool: string, level?: string): Promise<Heard> {
  heard.length = 0;
  const r = await client.callTool({ name: tool, arguments: {}, ...(level ? { _meta: { [LOG_LEVEL]: level } } : {}) });
  expect(text(r)).toBe('logged');
  // A notification read together with the response is handled a tick later.
  await new Promise((res) => setTimeout(res, 100));
  return [...heard];
}

function checks(connect: () => Promise<{ client: Client; heard: Heard }>) {
  it('relays a 2025 server\'s message to a request that asked for its level, on that request', async () => {
    const { client, heard } = await connect();
    await waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'modern__log') ? true : undefined), 20_000, 'tools');
    expect(await callHearing(client, heard, 'legacy__log', 'info')).toEqual([{ level: 'info', logger: 'fixture', data: 'hello from the log tool' }]);
    // Below the request's level, or no level named: nothing.
    expect(await callHearing(client, heard, 'legacy__log', 'error')).toEqual([]);
    expect(await callHearing(client, heard, 'legacy__log')).toEqual([]);
    await client.close();
  });

  it("asks a 2026-07-28 server to log at the request's level and relays what it sends", async () => {
    const { client, heard } = await connect();
    await waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'modern__log') ? true : undefined), 20_000, 'tools');
    expect(await callHearing(client, heard, 'modern__log', 'info')).toEqual([{ level: 'warning', logger: 'fixture-v2', data: 'v2 warning from the log tool' }]);
    expect((await callHearing(client, heard, 'modern__log', 'debug')).map((m) => m.level)).toEqual(['warning', 'debug']);
    expect(await callHearing(client, heard, 'modern__log')).toEqual([]);
    await client.close();
  });
}

function hearing(client: Client): Heard {
  const heard: Heard = [];
  client.setNotificationHandler('notifications/message', (n) => void heard.push({ level: n.params.level, logger: n.params.logger, data: n.params.data }));
  return heard;
}

describe('logging for a 2026-07-28 client through the shim', () => {
  const home = makeHome(config);
  checks(async () => {
    const client = new Client({ name: 'log-listener', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const heard = hearing(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'shim', '--profile', 'p', '--home', home], stderr: 'pipe' }));
    expect(client.getServerCapabilities()?.logging).toEqual({});
    return { client, heard };
  });
});

describe('logging for a 2025 client from a 2026-07-28 server', () => {
  const home = makeHome(config);
  it('asks the server to log at the level the client set (info until it sets one) and relays it on the session', async () => {
    const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const client = await shimClient(home, 'p', { name: 'legacy-log-listener' });
    const heard: Heard = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push({ level: n.params.level, logger: n.params.logger, data: n.params.data }));
    await waitFor(async () => ((await client.listTools()).tools.some((t) => t.name === 'modern__log') ? true : undefined), 20_000, 'tools');
    const call = async () => {
      heard.length = 0;
      expect(text(await client.callTool({ name: 'modern__log', arguments: {} }))).toBe('logged');
      await new Promise((res) => setTimeout(res, 100));
      return heard.map((m) => `${m.level} ${String(m.data)}`);
    };
    expect(await call()).toEqual(['warning v2 warning from the log tool']);
    await client.setLoggingLevel('debug');
    expect(await call()).toEqual(['warning v2 warning from the log tool', 'debug v2 debug from the log tool']);
    await client.close();
  });
});

describe('logging for a 2026-07-28 client on the HTTP endpoint', () => {
  let s: Served;
  const home = makeHome(config);
  beforeAll(async () => {
    s = await serve(home);
  });
  afterAll(async () => {
    await s?.stop();
  });
  checks(async () => {
    const client = new Client({ name: 'log-listener', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const heard = hearing(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/p`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    return { client, heard };
  });
});
