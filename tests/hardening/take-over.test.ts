// Issue 32: a stop signal in the middle of a take-over (docs/updates.md). Each attempt starts a
// take-over with a 3 s call in flight and a config save made during it, then stops one engine
// with SIGTERM: the old one while it hands over, or the new one while it takes over. It holds
// when no process of either engine is left over (orphans, or a server running twice), the save is
// on disk, and the home is serviceable (a call through the client's shim works afterwards).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { cleanupHomes, cli, shimClient, stopEngine, waitFor } from '../helpers/home.ts';
import { serve } from '../helpers/serve.ts';
import { CAN_FIND_MARKED, killMarked, markedGone, markedProcesses, newMark } from '../helpers/processes.ts';
import { handingOver, homeWithServers, status, takeOver, text } from '../helpers/take-over.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

describe.skipIf(!CAN_FIND_MARKED)('take-over', () => {
  hardeningCase(
    'fault',
    'issue 32: SIGTERM to either engine during a take-over leaves no orphan, no server running twice, no lost save, and a home that serves',
    async (tally) => {
      for (const victim of ['old', 'new'] as const) {
        await tally.attempt(`SIGTERM to the ${victim} engine`, async () => {
          const mark = newMark();
          const home = homeWithServers(mark);
          const old = await serve(home);
          const client = await shimClient(home, 'demo', { name: 'hardening' });
          let next: ReturnType<typeof takeOver> | undefined;
          try {
            await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'slow__wait'), 30_000, 'slow__wait');
            const handed = handingOver(old);
            const inFlight = client.callTool({ name: 'slow__wait', arguments: { ms: 3000 } }, undefined, { timeout: 60_000 }).then(text, (e: Error) => e.message);
            await new Promise((r) => setTimeout(r, 200));
            next = takeOver(home, { SWITCHBOARD_TEST_VERSION: '0.2.0' });
            await handed;
            expect(cli(home, ['config', 'set', 'profiles.saved', JSON.stringify({ servers: ['basic'] })]).code).toBe(0);
            (victim === 'old' ? old.child : next.child).kill('SIGTERM');
            await inFlight;
            await waitFor(() => old.child.exitCode !== null || old.child.signalCode !== null, 30_000, 'the old engine to end');
            // Each server at most once, whatever engine runs now.
            for (const script of ['slow.mjs', 'basic.mjs']) {
              const running = markedProcesses(mark).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script));
              expect(running.length).toBeLessThanOrEqual(1);
            }
            expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).profiles.saved).toEqual({ servers: ['basic'] });
            expect(text(await client.callTool({ name: 'basic__echo', arguments: { text: 'after' } }, undefined, { timeout: 60_000 }))).toBe('after');
            // A client that connects now is served, and status reaches the engine serving the home.
            const later = await shimClient(home, 'saved', { name: 'later' });
            try {
              expect(text(await later.callTool({ name: 'basic__echo', arguments: { text: 'later' } }, undefined, { timeout: 60_000 }))).toBe('later');
            } finally {
              await later.close();
            }
            const st = await waitFor(() => { const s = status(home); return s.pid !== null && s; }, 20_000, 'status to reach an engine');
            expect('saved' in st.profiles).toBe(true);
          } finally {
            await client.close();
            await old.stop();
            next?.child.kill('SIGTERM');
            await next?.exit;
            await stopEngine(home);
            const left = await markedGone(mark, 10_000);
            killMarked(mark);
            expect(left).toEqual([]);
          }
        });
      }
    },
    180_000,
  );
});
