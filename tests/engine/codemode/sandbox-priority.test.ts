// A sandbox worker's thread runs at normal priority while its runs only wait on tool calls, and
// at a lower one once a run keeps the CPU busy (docs/protocol.md: a spinning run never slows the engine).
// Linux only: elsewhere threads have no nice value of their own.
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS, type ResolvedBudgets } from '../../../src-shared/config/schema.ts';
import { SandboxPool, type SandboxHost } from '../../../src-main/engine/codemode/sandbox-pool.ts';

// Every call answers at once with its arguments: the run only waits on the engine.
const host: SandboxHost = { callTool: async (_g, _m, args) => ({ ok: true, value: { args } }), search: async () => [], describe: async () => '' };
const globals = { github: ['list_issues'] };
const budgets: ResolvedBudgets = { ...DEFAULT_BUDGETS, memoryMb: 32, maxToolCalls: 500 };
const pool = new SandboxPool();
afterAll(() => pool.dispose());

const run = (code: string, timeoutMs = 20_000) => pool.run({ code, budgets: { ...budgets, timeoutMs }, globals }, host);

/** This process's threads with their nice value (field 19 of /proc/PID/task/TID/stat). */
function threadNice(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}
const lowered = () => [...threadNice()].filter(([, nice]) => nice > 0).map(([tid]) => tid);

async function until(what: string, test: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (test()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`still not so after 5 s: ${what}`);
}

describe.skipIf(process.platform !== 'linux')('sandbox thread priority', () => {
  it('stays normal for runs that wait on tool calls', async () => {
    expect(lowered()).toEqual([]);
    const o = await run('async () => { let n = 0; for (let i = 0; i < 200; i++) n += (await github.list_issues({ i })).args.i; return n; }');
    expect(o).toMatchObject({ ok: true, value: 19900, calls: 200 });
    expect(await run('async () => 1')).toMatchObject({ ok: true, value: 1 });
    expect(lowered()).toEqual([]);
  });

  it('is lowered once a run spins, and the worker goes on serving', async () => {
    const before = new Set(threadNice().keys());
    const spinning = run('async () => { while (true) {} }', 1500);
    await until('a thread of this process runs at a lower priority', () => lowered().length === 1);
    const [spinner] = lowered();
    // It is the sandbox worker's thread, one this process had before the run (not a new one).
    expect(before.has(spinner!)).toBe(true);
    expect(await spinning).toMatchObject({ ok: false, kind: 'timeout' });
    // Raising a thread's priority needs a privilege: it stays lowered, and serves the next runs.
    expect(await run('async () => (await github.list_issues({ n: 1 })).args.n + 1')).toMatchObject({ ok: true, value: 2 });
    expect(lowered()).toEqual([spinner]);
  });
});
