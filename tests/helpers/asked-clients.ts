// Clients of both eras on /mcp/<profile> of a real `switchboard serve` that answer a server's
// questions (elicitation, sampling) with their own name and remember every question they were
// put: what tests of "who gets asked" look at. A 2025 client keeps a session; a 2026-07-28 one
// sends each request on its own (its SDK answers `input_required` with the same handlers).
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cleanupHomes, FIXTURES, makeHome, waitFor } from './home.ts';
import { serve, type Served } from './serve.ts';

export interface AskedClient {
  client: Client;
  name: string;
  /** The message of every question this client was put, in order. */
  asked: string[];
  /** Calls a tool; resolves with its first text (a tool error's too) and whether it was an error. */
  call(tool: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
}

export async function askedClient(base: { url: string; token: string }, profile: string, era: 'legacy' | 'modern', name: string): Promise<AskedClient> {
  const asked: string[] = [];
  const client = new Client({ name, version: '1' }, { versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: '2026-07-28' } }, capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(String(req.params.message));
    return { action: 'accept', content: { name } };
  });
  client.setRequestHandler('sampling/createMessage', async (req) => {
    const first = req.params.messages[0]?.content as { text?: string } | undefined;
    asked.push(String(first?.text));
    return { role: 'assistant', model: 'test', content: { type: 'text', text: `${name} samples` } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base.url}/mcp/${profile}`), { requestInit: { headers: { Authorization: `Bearer ${base.token}` } } }));
  return {
    client,
    name,
    asked,
    async call(tool, args = {}) {
      const r = (await client.callTool({ name: tool, arguments: args }, { timeout: 60_000 })) as { content?: { text?: string }[]; isError?: boolean };
      return { text: String(r.content?.[0]?.text ?? ''), isError: r.isError === true };
    },
  };
}

/** Waits until every one of `tools` is listed for the client. */
export async function waitForTools(c: AskedClient, tools: string[]): Promise<void> {
  await waitFor(async () => {
    const listed = (await c.client.listTools(undefined, { cacheMode: 'refresh' })).tools.map((t) => t.name);
    return tools.every((t) => listed.includes(t));
  }, 30_000, `tools ${tools.join(', ')}`);
}

/** The askers fixture over Streamable HTTP (a v1-SDK server with sessions); resolves with its URL. Kill the child after. */
export async function askersOverHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(FIXTURES, 'askers.mjs')], { env: { PATH: process.env.PATH ?? '', ASKERS_HTTP: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => out.includes('listening '), 15_000, 'the askers HTTP fixture to listen');
  return { url: out.split('listening ')[1]!.trim(), child };
}

/** Resolves after ms. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface AskersBench {
  s: Served;
  home: string;
  /** A client of `era` on /mcp/<profile>, closed by stop(). */
  client(profile: string, era: 'legacy' | 'modern', name: string): Promise<AskedClient>;
  /** `a` has a slow call of `server` running (2.5 s) while `b` calls its asking tool; both outcomes. */
  askDuringSlowCall(a: AskedClient, b: AskedClient, server: string): Promise<{ slow: { text: string; isError: boolean }; ask: { text: string; isError: boolean } }>;
  stop(): Promise<void>;
}

/**
 * A `switchboard serve` whose config is `config(askersHttpUrl)`, with the askers fixture also
 * running over Streamable HTTP. A server named `v` is taken to be the v2 fixture (its slow
 * call is `progress`).
 */
export async function askersBench(config: (httpUrl: string) => unknown): Promise<AskersBench> {
  const h = await askersOverHttp();
  const home = makeHome(config(h.url));
  const s = await serve(home);
  const clients: AskedClient[] = [];
  return {
    s,
    home,
    async client(profile, era, name) {
      const c = await askedClient(s, profile, era, name);
      clients.push(c);
      return c;
    },
    async askDuringSlowCall(a, b, server) {
      const slow = server === 'v' ? a.call('v__progress', { steps: 150 }) : a.call(`${server}__slow`, { ms: 2500 });
      await sleep(500);
      const ask = await b.call(`${server}__ask`, { who: b.name });
      return { slow: await slow, ask };
    },
    async stop() {
      await Promise.all(clients.map((c) => c.client.close().catch(() => {})));
      await s.stop();
      h.child.kill('SIGKILL');
      await cleanupHomes();
    },
  };
}
