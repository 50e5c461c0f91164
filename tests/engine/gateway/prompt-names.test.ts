// Two profiles over the same server, connected to one client that merges every server's prompts
// (Gemini CLI warned "Prompt … is already registered"): their prompt names must not collide, and
// each name still reaches the right upstream prompt. A profile with "namespace": false keeps the
// upstream names, prompts as tools (docs/configuration.md; the conformance suite relies on it).
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupHomes, fixtureServer, makeHome, shimClient } from '../../helpers/home.ts';

afterAll(cleanupHomes);

describe('prompt names', () => {
  it('are unique per profile and still resolve to the upstream prompt', { timeout: 60_000 }, async () => {
    const home = makeHome({
      servers: { basic: fixtureServer('basic.mjs') },
      profiles: { demo: { servers: ['basic'] }, 'demo-code': { servers: ['basic'], surface: 'code' }, solo: { servers: ['basic'], namespace: false } },
    });
    const clients = await Promise.all(['demo', 'demo-code', 'solo'].map((p) => shimClient(home, p)));
    try {
      const names = await Promise.all(clients.map(async (c) => (await c.listPrompts()).prompts.map((p) => p.name)));
      expect(names).toEqual([['demo__basic__greet'], ['demo-code__basic__greet'], ['greet']]);
      expect(new Set(names.flat()).size).toBe(3);
      for (const [i, c] of clients.entries()) {
        const got = await c.getPrompt({ name: names[i]![0]!, arguments: { who: 'Ada' } });
        expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'Hello Ada' });
      }
      await expect(clients[0]!.getPrompt({ name: 'basic__greet', arguments: { who: 'Ada' } })).rejects.toThrow(/Unknown prompt/);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});
