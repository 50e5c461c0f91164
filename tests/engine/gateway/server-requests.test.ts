// A server's question (elicitation, sampling, a 2026-07-28 `input_required`) reaches only the
// client whose call it belongs to (docs/protocol.md), on a real `switchboard serve` with clients of both
// eras on /mcp: a 2025 session client and a 2026-07-28 stateless one (the v2 client SDK), one
// server shared by two profiles. Per upstream kind: a v1-SDK server over stdio (no link between
// a question and a call: only provable with one call in flight, or all of one 2025 session), the
// same server over Streamable HTTP (a question on a call's stream is that call's) and a v2-SDK
// 2026-07-28 server (the question is in the call's own result).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fixtureServer, shimClient, waitFor } from '../../helpers/home.ts';
import type { Served } from '../../helpers/serve.ts';
import { askedClient, askersBench, sleep, waitForTools, type AskedClient, type AskersBench } from '../../helpers/asked-clients.ts';

let bench: AskersBench;
let s: Served;
let home: string;
beforeAll(async () => {
  bench = await askersBench((url) => ({
    servers: {
      m: fixtureServer('askers.mjs'),
      h: { url },
      v: fixtureServer('v2-modern.mjs'),
      r: fixtureServer('basic.mjs', { rootsFrom: 'client', roots: ['/srv/shared'] }),
    },
    profiles: { p: { servers: ['m', 'h', 'v'] }, q: { servers: ['m', 'h', 'v'] }, solo: { servers: ['r'] }, code: { servers: ['m'], surface: 'code' } },
  }));
  ({ s, home } = bench);
  const probe = await askedClient(s, 'p', 'legacy', 'probe');
  await waitForTools(probe, ['m__slow', 'h__ask', 'v__ask']);
  await probe.client.close();
}, 60_000);
afterAll(() => bench?.stop());

const client = (profile: string, era: 'legacy' | 'modern', name: string) => bench.client(profile, era, name);
const askDuringSlowCall = (a: AskedClient, b: AskedClient, server: 'm' | 'h' | 'v') => bench.askDuringSlowCall(a, b, server);

const REFUSED = /Switchboard cannot tell which call this question belongs to: 2 calls of different clients are running on m/;

describe('a v1-SDK server over stdio: no link on the wire', () => {
  it("never puts a 2026-07-28 client's question to the 2025 client of another profile whose slow call is running (issue 20 finding 5): it is refused", async () => {
    const a = await client('p', 'legacy', 'A-2025');
    const b = await client('q', 'modern', 'B-2026');
    const { slow, ask } = await askDuringSlowCall(a, b, 'm');
    expect(a.asked).toEqual([]);
    expect(slow.text).toBe('slow done after 2500');
    expect(ask.isError).toBe(true);
    expect(ask.text).toMatch(REFUSED);
    // The sentence reaches the server as it is (its own SDK adds one code prefix, not two).
    expect(ask.text).not.toMatch(/-32600: MCP error/);
    expect(b.asked).toEqual([]);
    // The server's log says why nobody was asked.
    await waitFor(() => /elicitation\/create not asked: Switchboard cannot tell which call/.test(readFileSync(path.join(home, 'logs', 'm.log'), 'utf8')), 5000, 'the note in m.log');
  });

  it("never hands one 2026-07-28 client's question to another's slow call as input_required", async () => {
    const a = await client('p', 'modern', 'A2-2026');
    const b = await client('q', 'modern', 'B2-2026');
    const { slow, ask } = await askDuringSlowCall(a, b, 'm');
    expect(a.asked).toEqual([]);
    expect(slow).toEqual({ text: 'slow done after 2500', isError: false });
    expect(ask.text).toMatch(REFUSED);
  });

  it('refuses within one profile too, for either era asking', async () => {
    const a = await client('p', 'modern', 'A3-2026');
    const b = await client('p', 'legacy', 'B3-2025');
    const { ask } = await askDuringSlowCall(a, b, 'm');
    expect(ask.text).toMatch(REFUSED);
    expect([...a.asked, ...b.asked]).toEqual([]);
  });

  it('asks the caller when its call is the only one running (elicitation and sampling, both eras)', async () => {
    const a = await client('p', 'legacy', 'A4-2025');
    const b = await client('q', 'modern', 'B4-2026');
    expect((await a.call('m__ask', { who: 'A4' })).text).toBe('A4 was answered: {"action":"accept","content":{"name":"A4-2025"}}');
    expect((await b.call('m__ask', { who: 'B4' })).text).toBe('B4 was answered: {"action":"accept","content":{"name":"B4-2026"}}');
    expect((await b.call('m__sample', { who: 'B4' })).text).toBe('B4 was sampled: B4-2026 samples');
    expect(a.asked).toEqual(['Question for A4']);
    expect(b.asked).toEqual(['Question for B4', 'Sample for B4']);
  });

  it('asks a 2025 client whose own calls are all that is running', async () => {
    const a = await client('p', 'legacy', 'A5-2025');
    const { slow, ask } = await askDuringSlowCall(a, a, 'm');
    expect(slow.text).toBe('slow done after 2500');
    expect(ask.text).toBe('A5-2025 was answered: {"action":"accept","content":{"name":"A5-2025"}}');
    expect(a.asked).toEqual(['Question for A5-2025']);
  });
});

describe('a code run of a 2026-07-28 client', () => {
  it('is asked when its own calls are all that run on the server (one request, several calls)', async () => {
    const b = await client('code', 'modern', 'B14-2026');
    const r = await b.call('execute', { code: `async () => (await Promise.all([m.slow({ ms: 1500 }), m.ask({ who: 'B14' })])).map(String)` });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('B14 was answered');
    expect(r.text).toContain('B14-2026');
    expect(b.asked).toEqual(['Question for B14']);
  });
});

describe('the same server over Streamable HTTP: a question travels on its call\'s stream', () => {
  it('puts the question to its own caller while another profile\'s slow call runs', async () => {
    const a = await client('p', 'legacy', 'A6-2025');
    const b = await client('q', 'modern', 'B6-2026');
    const { slow, ask } = await askDuringSlowCall(a, b, 'h');
    expect(slow.text).toBe('slow done after 2500');
    expect(ask.text).toBe('B6-2026 was answered: {"action":"accept","content":{"name":"B6-2026"}}');
    expect(a.asked).toEqual([]);
    expect(b.asked).toEqual(['Question for B6-2026']);
  });

  it('gives two clients asking at once each their own question and answer', async () => {
    const a = await client('p', 'legacy', 'A7-2025');
    const b = await client('p', 'modern', 'B7-2026');
    const [ra, rb] = await Promise.all([a.call('h__ask', { who: 'A7' }), b.call('h__ask', { who: 'B7' })]);
    expect(ra.text).toBe('A7 was answered: {"action":"accept","content":{"name":"A7-2025"}}');
    expect(rb.text).toBe('B7 was answered: {"action":"accept","content":{"name":"B7-2026"}}');
    expect(a.asked).toEqual(['Question for A7']);
    expect(b.asked).toEqual(['Question for B7']);
  });

  it('refuses a question the server sent on no call\'s stream while calls of two clients run', async () => {
    const a = await client('p', 'legacy', 'A8-2025');
    const b = await client('q', 'modern', 'B8-2026');
    const slow = a.call('h__slow', { ms: 2500 });
    await sleep(500);
    const loose = await b.call('h__ask_loose', { who: 'B8' });
    await slow;
    expect(loose.text).toMatch(/Switchboard cannot tell which call this question belongs to: 2 calls of different clients are running on h/);
    expect([...a.asked, ...b.asked]).toEqual([]);
  });
});

describe('a 2026-07-28 server: the question is in its call\'s own result', () => {
  it('puts it to the caller only, while another client\'s call runs', async () => {
    const a = await client('p', 'legacy', 'A9-2025');
    const b = await client('q', 'modern', 'B9-2026');
    const { slow, ask } = await askDuringSlowCall(a, b, 'v');
    expect(slow.text).toBe('done');
    expect(ask.text).toBe('hello B9-2026');
    expect(a.asked).toEqual([]);
    expect(b.asked).toEqual(['What is your name?']);
  });

  it('gives two clients asking at once each their own answer', async () => {
    const a = await client('p', 'modern', 'A10-2026');
    const b = await client('q', 'legacy', 'B10-2025');
    const [ra, rb] = await Promise.all([a.call('v__ask'), b.call('v__ask')]);
    expect(ra.text).toBe('hello A10-2026');
    expect(rb.text).toBe('hello B10-2025');
    expect(a.asked).toEqual(['What is your name?']);
    expect(b.asked).toEqual(['What is your name?']);
  });
});

describe('a 2025 client over the shim socket (the tools/call fast path)', () => {
  async function shimAsked(profile: string, name: string) {
    const asked: string[] = [];
    const c = await shimClient(home, profile, { name, capabilities: { elicitation: {} } });
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(String(req.params.message));
      return { action: 'accept', content: { name } };
    });
    const call = async (tool: string, args: Record<string, unknown>) => {
      const r = (await c.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 })) as { content: { text: string }[] };
      return r.content[0]!.text;
    };
    return { c, asked, call };
  }

  it("never puts another client's question to it while its slow call runs", async () => {
    const a = await shimAsked('p', 'A11-shim');
    const b = await client('q', 'modern', 'B11-2026');
    const slow = a.call('m__slow', { ms: 2500 });
    await sleep(500);
    const ask = await b.call('m__ask', { who: 'B11' });
    expect(await slow).toBe('slow done after 2500');
    expect(ask.text).toMatch(REFUSED);
    expect(a.asked).toEqual([]);
    await a.c.close();
  });

  it('is asked when its own calls are all that run', async () => {
    const a = await shimAsked('p', 'A12-shim');
    const slow = a.call('m__slow', { ms: 2500 });
    await sleep(500);
    expect(await a.call('m__ask', { who: 'A12' })).toBe('A12 was answered: {"action":"accept","content":{"name":"A12-shim"}}');
    expect(await slow).toBe('slow done after 2500');
    expect(a.asked).toEqual(['Question for A12']);
    await a.c.close();
  });
});

describe('roots of a server that follows its sole client', () => {
  it("are that client's in its own calls, and the server's configured ones in a 2026-07-28 client's call", async () => {
    const sole = new Client({ name: 'S-2025', version: '1' }, { versionNegotiation: { mode: 'legacy' }, capabilities: { roots: { listChanged: true } } });
    sole.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///home/s-only', name: 's-only' }] }));
    await sole.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/solo`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    const b = await client('solo', 'modern', 'B13-2026');
    await waitForTools(b, ['r__roots']);
    const roots = async (c: Client) => ((await c.callTool({ name: 'r__roots', arguments: {} })) as { content: { text: string }[] }).content[0]!.text;
    expect(await roots(sole)).toContain('file:///home/s-only');
    const seenByB = await roots(b.client);
    expect(seenByB).not.toContain('s-only');
    expect(JSON.parse(seenByB)).toEqual([{ uri: 'file:///srv/shared', name: 'shared' }]);
    await sole.close();
  });
});
