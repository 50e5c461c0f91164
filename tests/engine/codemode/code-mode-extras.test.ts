// Code mode beyond the docs page (issue 14): the call ledger of a failed run, result handles,
// learned return types and the name index — through a real MCP client, the shim and an engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';

afterAll(cleanupHomes);

let home: string;
const clients = new Map<string, Client>();

beforeAll(async () => {
  home = makeHome({
    servers: {
      basic: fixtureServer('basic.mjs'),
      slow: fixtureServer('slow.mjs'),
    },
    profiles: {
      ledger: { servers: ['basic', 'slow'], surface: 'code' },
      noledger: { servers: ['basic'], surface: 'code', codeMode: { ledger: false } },
    },
  });
  await waitFor(async () => {
    const r = await run('ledger', 'async () => typeof slow.wait + typeof basic.add');
    return r.text.includes('functionfunction') || undefined;
  }, 30_000, 'servers ready');
}, 60_000);

afterAll(async () => {
  for (const c of clients.values()) await c.close();
});

async function client(profile: string): Promise<Client> {
  let c = clients.get(profile);
  if (!c) {
    c = await shimClient(home, profile, { name: 'extras-client' });
    clients.set(profile, c);
  }
  return c;
}

async function run(profile: string, code: string): Promise<{ text: string; isError: boolean }> {
  const raw = (await (await client(profile)).callTool({ name: 'execute', arguments: { code } }, undefined, { timeout: 60_000 })) as CallToolResult;
  return { text: (raw.content[0] as { text: string }).text, isError: Boolean(raw.isError) };
}

describe('a failed run lists the calls it made (the call ledger)', () => {
  it('kind and message first, then the calls with outcome and duration and the last result shape, then the logs', async () => {
    const r = await run(
      'ledger',
      `async () => {
        console.log('starting');
        await basic.add({ a: 1, b: 2 });
        await basic.echo({ text: '{"id": 7, "tags": ["x"]}' });
        slow.wait({ ms: 5000 }).catch(() => {});
        throw new Error('boom after the calls');
      }`,
    );
    expect(r.isError).toBe(true);
    const [head, ledger, logs] = r.text.split('\n\n');
    expect(head).toMatch(/^runtime: boom after the calls \(line 6, column \d+\)$/);
    expect(ledger).toMatch(/^Calls: 3 started, 2 finished \(2 ok\), 1 unfinished\./);
    expect(ledger).toMatch(/\n {2}1\. basic\.add\(\{"a":1,"b":2\}\) → ok in [\d.]+ ms/);
    expect(ledger).toMatch(/\n {2}2\. basic\.echo\(.*\) → ok in [\d.]+ ms/);
    expect(ledger).toMatch(/\n {2}3\. slow\.wait\(\{"ms":5000\}\) → (unfinished: cancelled when the run ended|cancelled in)/);
    expect(ledger).toContain('Last completed result (basic.echo): { id: number; tags: string[] }');
    expect(logs).toBe('Logs:\nstarting');
  });

  it('a run without calls, or a profile with "ledger": false, has no ledger', async () => {
    expect((await run('ledger', 'async () => { throw new Error("x") }')).text).toMatch(/^runtime: x \(line 1, column \d+\)$/);
    const off = await run('noledger', 'async () => { await basic.add({ a: 1, b: 1 }); throw new Error("x"); }');
    expect(off.text).toMatch(/^runtime: x/);
    expect(off.text).not.toContain('Calls:');
  });
});
