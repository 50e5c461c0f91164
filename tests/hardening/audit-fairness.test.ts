// One loud client and the audit (issue 29, finding 5): an upstream's JSON-RPC errors of 1 MB
// were stored whole, so 60 failing calls filled the 50 MB audit and removed every other client's
// entries. A real engine, a real server that fails with huge errors, two clients through the shim.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import type { AuditDrop, AuditEntry } from '../../src-shared/records.ts';
import { homePaths } from '../../src-main/engine/platform/home.ts';
import { cleanupHomes, fixtureServer, makeHome, shimClient } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

const dirBytes = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);

describe('the audit under one client\'s flood', () => {
  hardeningCase('attack', 'one loud client cannot flush another client\'s audit', async (tally) => {
    const home = makeHome({ servers: { up: fixtureServer('huge-errors.mjs') }, profiles: { main: { servers: ['up'] } } });
    // A 1 MB cap (the engine's 50 MB, lowered for the test) that the flood below fills 2.5 times.
    const cap = 1024 * 1024;
    const env = { ...process.env, SWITCHBOARD_AUDIT_MAX_BYTES: String(cap) };
    let engine = await serveEngine(home, env);
    const quiet = await shimClient(home, 'main', { name: 'quiet-client' });
    const loud = await shimClient(home, 'main', { name: 'loud-client' });
    const auditOf = async (client: string) => (await engine.api<{ entries: AuditEntry[]; dropped?: AuditDrop[] }>('audit.list', { client, limit: 10_000 }));
    const fail = (bytes?: number) => loud.callTool({ name: 'up__fail', arguments: bytes === undefined ? {} : { bytes } }).catch(() => undefined);
    try {
      for (let i = 0; i < 3; i++) await quiet.callTool({ name: 'up__ok', arguments: {} });
      expect((await auditOf('quiet-client')).entries).toHaveLength(3);

      await tally.attempt('60 calls whose JSON-RPC error carries 1 MB: each entry keeps 500 characters of it and says how long it was', async () => {
        for (let i = 0; i < 60; i++) await fail();
        const { entries } = await auditOf('loud-client');
        expect(entries).toHaveLength(60);
        for (const e of entries) {
          expect(e.outcome).toBe('error');
          expect(e.error).toMatch(/upstream exploded: E+[^]*\[error cut for the audit at 500 of \d{7} characters\]$/);
          expect(JSON.stringify(e).length).toBeLessThan(2_000);
        }
      });
      await tally.attempt('the quiet client\'s three entries are still listed after the 60', async () => {
        expect((await auditOf('quiet-client')).entries).toHaveLength(3);
      });

      const flood = 2_500;
      await tally.attempt(`${flood.toLocaleString('en-US')} more failing calls (2.5 times the cap): the quiet client's three entries are still listed, the audit within its cap`, async () => {
        for (let i = 0; i < flood; i += 10) await Promise.all(Array.from({ length: 10 }, () => fail(2_000)));
        const { entries: loudKept, dropped = [] } = await auditOf('loud-client');
        expect(loudKept.length).toBeLessThan(60 + flood); // the cap did remove entries…
        expect(dropped.map((d) => d.client)).toEqual(['loud-client']); // …the loud client's alone
        expect((await auditOf('quiet-client')).entries).toHaveLength(3);
        expect(dirBytes(homePaths(home).auditDir)).toBeLessThanOrEqual(cap + 4_096); // segments, index files, dropped.json
        tally.notes!.push(`${loudKept.length} of the loud client's ${60 + flood} entries kept; the quiet client's 3 of 3`);
      });
    } finally {
      await quiet.close();
      await loud.close();
      await engine.stop();
    }

    await tally.attempt('after a restart of the engine, the quiet client\'s three entries are still listed', async () => {
      engine = await serveEngine(home, env);
      try {
        expect((await auditOf('quiet-client')).entries).toHaveLength(3);
      } finally {
        await engine.stop();
      }
    });
  }, 240_000);
});
