// Issue 20 finding 5: a server's question (elicitation, a 2026-07-28 `input_required`) reached
// whichever client had the oldest call in flight to that server, in any profile — a 2025 client
// read and answered a 2026-07-28 client's question, and the asker got the other's answer. Tried
// here as it was seen, on a real `switchboard serve` with clients of both eras on /mcp: each
// attempt holds when nobody but the caller is asked, and a question that cannot be tied to its
// call is refused (the asker is told why) rather than guessed.
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect } from 'vitest';
import { cleanupHomes, fixtureServer, makeHome } from '../helpers/home.ts';
import { serve } from '../helpers/serve.ts';
import { askedClient, askersOverHttp, sleep, waitForTools, type AskedClient } from '../helpers/asked-clients.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

const REFUSED = /Switchboard cannot tell which call this question belongs to/;

describe('server questions', () => {
  hardeningCase('attack', "a server's question reaches only the client whose call it belongs to, or nobody (issue 20 finding 5)", async (tally) => {
    let http: ChildProcess | undefined;
    const clients: AskedClient[] = [];
    const h = await askersOverHttp();
    http = h.child;
    const home = makeHome({
      servers: { m: fixtureServer('askers.mjs'), h: { url: h.url } },
      profiles: { p: { servers: ['m', 'h'] }, q: { servers: ['m', 'h'] } },
    });
    const s = await serve(home);
    const client = async (profile: string, era: 'legacy' | 'modern', name: string) => {
      const c = await askedClient(s, profile, era, name);
      clients.push(c);
      return c;
    };
    /** `a` has a slow call of `m` running while `b` calls the asking tool. */
    const meanwhile = async (a: AskedClient, b: AskedClient) => {
      const slow = a.call('m__slow', { ms: 2500 });
      await sleep(500);
      const ask = await b.call('m__ask', { who: b.name });
      return { slow: await slow, ask };
    };
    try {
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
    } finally {
      await Promise.all(clients.map((c) => c.client.close().catch(() => {})));
      await s.stop();
      http?.kill('SIGKILL');
    }
  }, 120_000);
});
