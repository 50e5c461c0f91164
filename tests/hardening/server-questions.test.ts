// Issue 20 finding 5: a server's question (elicitation, a 2026-07-28 `input_required`) reached
// whichever client had the oldest call in flight to that server, in any profile — a 2025 client
// read and answered a 2026-07-28 client's question, and the asker got the other's answer. Tried
// here as it was seen, on a real `switchboard serve` with clients of both eras on /mcp: each
// attempt holds when nobody but the caller is asked, and a question that cannot be tied to its
// call is refused (the asker is told why) rather than guessed.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fixtureServer } from '../helpers/home.ts';
import type { Served } from '../helpers/serve.ts';
import { askersBench, waitForTools, type AskedClient, type AskersBench } from '../helpers/asked-clients.ts';
import { hardeningCase } from './hardening-case.ts';

const REFUSED = /Switchboard cannot tell which call this question belongs to/;

let bench: AskersBench;
let s: Served;
beforeAll(async () => {
  bench = await askersBench((url) => ({
    servers: { m: fixtureServer('askers.mjs'), h: { url }, r: fixtureServer('basic.mjs', { rootsFrom: 'client', roots: ['/srv/shared'] }) },
    profiles: { p: { servers: ['m', 'h'] }, q: { servers: ['m', 'h'] }, solo: { servers: ['r'] } },
  }));
  s = bench.s;
}, 60_000);
afterAll(() => bench?.stop());

const client = (profile: string, era: 'legacy' | 'modern', name: string) => bench.client(profile, era, name);
const meanwhile = (a: AskedClient, b: AskedClient) => bench.askDuringSlowCall(a, b, 'm');

describe('server questions', () => {
  hardeningCase('attack', "a server's question reaches only the client whose call it belongs to, or nobody (issue 20 finding 5)", async (tally) => {
    await waitForTools(await client('p', 'legacy', 'probe'), ['m__ask', 'h__ask']);

    await tally.attempt('a 2025 client on /mcp/p with a slow call is not put the question of a 2026-07-28 client on /mcp/q', async () => {
      const a = await client('p', 'legacy', 'A-2025');
      const b = await client('q', 'modern', 'B-2026');
      const { slow, ask } = await meanwhile(a, b);
      expect(a.asked).toEqual([]);
      expect(slow.text).toBe('slow done after 2500');
      expect(ask.text).toMatch(REFUSED);
    });

    await tally.attempt("a 2026-07-28 client's slow call does not come back as input_required carrying another client's question", async () => {
      const a = await client('p', 'modern', 'A-2026');
      const b = await client('q', 'modern', 'B-2026b');
      const { slow, ask } = await meanwhile(a, b);
      expect(a.asked).toEqual([]);
      expect(slow).toEqual({ text: 'slow done after 2500', isError: false });
      expect(ask.text).toMatch(REFUSED);
    });

    await tally.attempt('within one profile, a question is not swapped between a 2025 and a 2026-07-28 client', async () => {
      const a = await client('p', 'legacy', 'A-2025c');
      const b = await client('p', 'modern', 'B-2026c');
      const { ask } = await meanwhile(a, b);
      expect(ask.text).toMatch(REFUSED);
      expect([...a.asked, ...b.asked]).toEqual([]);
    });

    await tally.attempt('two clients asking at once over Streamable HTTP each get their own question and answer', async () => {
      const a = await client('p', 'legacy', 'A-2025d');
      const b = await client('p', 'modern', 'B-2026d');
      const [ra, rb] = await Promise.all([a.call('h__ask', { who: 'A' }), b.call('h__ask', { who: 'B' })]);
      expect(ra.text).toBe('A was answered: {"action":"accept","content":{"name":"A-2025d"}}');
      expect(rb.text).toBe('B was answered: {"action":"accept","content":{"name":"B-2026d"}}');
      expect(a.asked).toEqual(['Question for A']);
      expect(b.asked).toEqual(['Question for B']);
    });
  }, 120_000);

  hardeningCase('attack', "a server following its sole client's roots is not given them during another client's call", async (tally) => {
    const sole = new Client({ name: 'S-2025', version: '1' }, { versionNegotiation: { mode: 'legacy' }, capabilities: { roots: { listChanged: true } } });
    sole.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///home/s-only', name: 's-only' }] }));
    await sole.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/solo`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    try {
      const b = await client('solo', 'modern', 'B-2026r');
      await waitForTools(b, ['r__roots']);
      await tally.attempt("a 2026-07-28 client's call of the server's roots tool gets the configured roots, not the sole 2025 client's", async () => {
        const r = await b.call('r__roots');
        expect(r.text).not.toContain('s-only');
        expect(JSON.parse(r.text)).toEqual([{ uri: 'file:///srv/shared', name: 'shared' }]);
      });
    } finally {
      await sole.close();
    }
  }, 60_000);
});
