// A sandbox worker thread's life as the pool sees it: ready once its QuickJS module is
// compiled, and gone exactly once, with a typed reason its run is told.
import { describe, expect, it } from 'vitest';
import { SandboxThread, type ThreadGone } from '../../../src-main/engine/codemode/sandbox-thread.ts';

describe('SandboxThread', () => {
  it('tells the run it serves that it is gone, once, when disposed, and stops its worker', async () => {
    const forgotten: SandboxThread[] = [];
    const t = new SandboxThread((gone) => forgotten.push(gone));
    await t.ready;
    expect(t.isReady).toBe(true);
    const told: ThreadGone[] = [];
    t.run = { runId: 1, onMessage: () => {}, onGone: (why) => told.push(why) };
    await t.dispose();
    await t.dispose();
    expect(told).toEqual([{ reason: 'stopped' }]);
    expect(t.dead).toBe(true);
    expect(t.run).toBeUndefined();
    // The pool forgets a thread it disposed itself; only a thread that dies on its own calls back.
    expect(forgotten).toEqual([]);
    // Posting to a stopped thread is a no-op, not a throw.
    t.post({ type: 'stop', runId: 1 });
  }, 30_000);
});
