// A fresh home starts with the demo servers' shipped catalogs pinned (trust/demo-pins.ts), so a
// client's first tools/list there is answered while the three servers are still starting; and
// those catalogs are exactly what the shipped servers list (else run
// scripts/capture-demo-catalogs.mjs). Real engine on a new home, the real reference servers.
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Engine } from '../../../src-main/engine/engine.ts';
import { DEMO_CATALOGS } from '../../../src-main/engine/config/demo-catalogs.generated.ts';
import { cleanupHomes, makeHome, waitFor } from '../../helpers/home.ts';

afterAll(cleanupHomes);

const DEMO = ['everything', 'memory', 'files'];

describe('a fresh home', () => {
  it('answers the first tools/list with every demo tool while the servers start, and they list exactly the shipped catalogs', { timeout: 60_000 }, async () => {
    const engine = await Engine.start({ home: makeHome(), port: null });
    try {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await engine.gateway.connect('demo', serverSide, { kind: 'socket' });
      const client = new Client({ name: 'fresh-home', version: '1.0.0' });
      await client.connect(clientSide);
      const { tools } = await client.listTools();
      const starting = DEMO.filter((s) => engine.supervisor.get(s)?.state !== 'ready');
      expect(starting.length).toBeGreaterThan(0);
      const want = DEMO.flatMap((s) => DEMO_CATALOGS[s]!.map((t) => `${s}__${t.name}`));
      expect(tools.map((t) => t.name).sort()).toEqual(want.sort());

      // Once they are up, what they listed is what shipped: nothing withheld, nothing new.
      await waitFor(() => DEMO.every((s) => engine.supervisor.get(s)?.state === 'ready'), 45_000, 'the demo servers');
      for (const s of DEMO) {
        expect(engine.pins.changedTools(s), `${s} lists changed tools: run node scripts/capture-demo-catalogs.mjs`).toEqual([]);
        expect(engine.pins.approvedCatalog(s), `${s} lists other tools: run node scripts/capture-demo-catalogs.mjs`).toEqual(DEMO_CATALOGS[s]);
      }
      await client.close();
    } finally {
      await engine.dispose();
    }
  });
});
