// Clients of both eras on /mcp/<profile> of a real `switchboard serve` that answer a server's
// questions (elicitation, sampling) with their own name and remember every question they were
// put: what tests of "who gets asked" look at. A 2025 client keeps a session; a 2026-07-28 one
// sends each request on its own (its SDK answers `input_required` with the same handlers).
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FIXTURES, waitFor } from './home.ts';

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
