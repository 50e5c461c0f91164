// The pool gives memory back: it stops its warm workers after a quiet spell and replaces a
// worker after many runs or once its heap grew, without a run ever waiting for that.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS } from '../../../src-shared/config/schema.ts';
import { SandboxPool, type SandboxHost } from '../../../src-main/engine/codemode/sandbox-pool.ts';
import { waitFor } from '../../helpers/home.ts';

const host: SandboxHost = {
  callTool: async (_g, _m, args) => ({ ok: true, value: args }),
  search: async () => [],
  describe: async () => '',
};
const globals = { t: ['echo'] };
const pools: SandboxPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.dispose();
});

function pool(opts: ConstructorParameters<typeof SandboxPool>[0]): SandboxPool {
  const p = new SandboxPool(opts);
  pools.push(p);
  return p;
}

async function echo(p: SandboxPool, i: number): Promise<void> {
  const o = await p.run({ code: `async () => (await t.echo({ i: ${i} })).i`, budgets: DEFAULT_BUDGETS, globals }, host);
  expect(o).toMatchObject({ ok: true, value: i });
}

describe('SandboxPool memory', () => {
  it('stops its warm worker after restAfterMs without runs, and the next run starts one', async () => {
    const p = pool({ restAfterMs: 300 });
    await echo(p, 1);
    expect(p.started).toBe(1);
    await waitFor(() => p.workers === 0, 10_000, 'the warm worker to stop');
    // It stays stopped: nothing restarts it while no run comes.
    await new Promise((r) => setTimeout(r, 500));
    expect(p.workers).toBe(0);
    await echo(p, 2);
    expect(p.started).toBe(2);
    expect(p.workers).toBe(1);
  });

  it('keeps the warm worker while runs keep coming', async () => {
    const p = pool({ restAfterMs: 3000 });
    for (let i = 0; i < 8; i++) {
      await echo(p, i);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(p.started).toBe(1);
  });

  it('replaces a worker after recycleAfterRuns runs: the fresh one starts first, the old one stops', async () => {
    const p = pool({ recycleAfterRuns: 3 });
    for (let i = 0; i < 3; i++) await echo(p, i);
    await waitFor(() => p.started === 2 && p.workers === 1, 10_000, 'the replacement to take over');
    for (let i = 3; i < 6; i++) await echo(p, i);
    await waitFor(() => p.started === 3 && p.workers === 1, 10_000, 'the second replacement');
  });

  it('replaces a worker whose heap is above recycleHeapMb after a run, and runs on meanwhile', async () => {
    const p = pool({ recycleHeapMb: 1 });
    await echo(p, 1);
    // Runs right after keep working while the fresh worker starts (the old one serves them).
    await echo(p, 2);
    await waitFor(() => p.started >= 2, 10_000, 'a replacement');
    await echo(p, 3);
    await waitFor(() => p.workers === 1, 10_000, 'one worker left');
  });
});
