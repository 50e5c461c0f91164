// Issue 11, in the sandbox pool: one share (profile) cannot starve another, queued time counts
// against the timeout and a cancelled queued run leaves at once; values leaving the sandbox
// are depth-bounded; code never runs before its whole wrapped form compiled; catalog lookups
// are checked in the worker and run on the engine's thread one per turn; logs are capped in
// entries.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS, type ResolvedBudgets } from '../../../src-shared/config/schema.ts';
import { MAX_LOG_ENTRIES } from '../../../src-shared/codemode/result-text.ts';
import { MAX_SHARE_WORKERS, MAX_WORKERS, SandboxPool, type SandboxHost, type SandboxOutcome } from '../../../src-main/engine/codemode/sandbox-pool.ts';

class Host implements SandboxHost {
  readonly calls: unknown[] = [];
  readonly lookups: string[] = [];
  async callTool(global: string, method: string, args: unknown): Promise<{ ok: true; value: unknown }> {
    this.calls.push({ global, method, args });
    return { ok: true, value: 'done' };
  }
  async search(query: string): Promise<unknown> {
    this.lookups.push(`search ${query.length}`);
    return [];
  }
  async describe(names: string[]): Promise<string> {
    this.lookups.push(`describe ${names.length}`);
    return '';
  }
}

const pool = new SandboxPool();
afterAll(() => pool.dispose());
const globals = { github: ['list_issues'] };

function run(code: string, opts: { host?: SandboxHost; budgets?: Partial<ResolvedBudgets>; share?: string; signal?: AbortSignal } = {}): Promise<SandboxOutcome> {
  return pool.run({ code, budgets: { ...DEFAULT_BUDGETS, ...opts.budgets }, globals, share: opts.share }, opts.host ?? new Host(), opts.signal);
}

function failed(o: SandboxOutcome, kind: string): Extract<SandboxOutcome, { ok: false }> {
  if (o.ok) throw new Error(`expected ${kind}, got a result: ${JSON.stringify(o.value)?.slice(0, 200)}`);
  expect(o.kind, o.message).toBe(kind);
  return o;
}

describe('fair shares of the pool', () => {
  it("keeps room for another share's run while one share spins on every worker", async () => {
    const stop = new AbortController();
    let spinnersEnded = 0;
    const spinners = Array.from({ length: MAX_WORKERS }, () =>
      run('async () => { while (true) {} }', { share: 'A', budgets: { timeoutMs: 60_000 }, signal: stop.signal }).finally(() => spinnersEnded++),
    );
    try {
      await new Promise((r) => setTimeout(r, 500));
      // Another share's run starts at once and ends while every spinner still spins.
      expect(await run('async () => 6 * 7', { share: 'B' })).toMatchObject({ ok: true, value: 42 });
      expect(spinnersEnded).toBe(0);

      // A run of the full share waits; its wait counts against its own timeout.
      const queued = failed(await run('async () => 1', { share: 'A', budgets: { timeoutMs: 700 } }), 'timeout');
      expect(queued.message).toMatch(/^the run waited \d+ ms for a free sandbox and did not start within its 700 ms$/);
      expect(spinnersEnded).toBe(0);

      // A queued run that is cancelled leaves the queue at once.
      const cancel = new AbortController();
      const cancelled = run('async () => 1', { share: 'A', signal: cancel.signal });
      setTimeout(() => cancel.abort(), 100);
      expect(failed(await cancelled, 'aborted').message).toMatch(/while it waited/);
      expect(spinnersEnded).toBe(0);
      expect(pool.busy).toBeLessThanOrEqual(MAX_SHARE_WORKERS + 1);
    } finally {
      stop.abort();
      for (const o of await Promise.all(spinners)) failed(o, 'aborted');
    }
  }, 60_000);
});

describe('values leaving the sandbox', () => {
  it('fails a result nested thousands deep with runtime:', async () => {
    const o = failed(await run('async () => { let a = []; for (let i = 0; i < 6000; i++) a = [a]; return a; }'), 'runtime');
    expect(o.message).toMatch(/^the result is nested more than 128 levels deep/);
  });

  it('refuses tool-call arguments nested thousands deep before they reach the host', async () => {
    const host = new Host();
    const o = failed(await run('async () => { let a = {}; for (let i = 0; i < 5000; i++) a = { a }; return await github.list_issues({ a }); }', { host }), 'runtime');
    expect(o.message).toMatch(/^the arguments of github\.list_issues are nested more than 128 levels deep/);
    expect(host.calls).toEqual([]);
    expect(o.calls).toBe(0);
    // The code can catch it like any failed call.
    const caught = await run('async () => { let a = []; for (let i = 0; i < 500; i++) a = [a]; try { await github.list_issues({ a }); } catch (e) { return "caught"; } }');
    expect(caught).toMatchObject({ ok: true, value: 'caught' });
  });

  it('keeps values within the bound as they are', async () => {
    const o = await run('async () => { let a = []; for (let i = 0; i < 100; i++) a = [a]; return a; }');
    expect(o.ok).toBe(true);
  });
});

describe('the wrapped code compiles before anything runs', () => {
  it('refuses code that breaks out of its wrapper, and nothing of it runs', async () => {
    for (const code of [
      "0)); github.list_issues({ escaped: true }); JSON.parse('{'); ((0",
      "}); github.list_issues({ escaped: true }); JSON.parse('{'); (async () => {",
      '}, github.list_issues({ escaped: true }), async () => {',
      '})(), github.list_issues({ escaped: true }), (async () => {',
      '0), github.list_issues({ escaped: true }), (0',
    ]) {
      const host = new Host();
      const o = failed(await run(code, { host }), 'syntax');
      expect(o.message).toMatch(/closes the function it is wrapped in/);
      expect(host.calls, code).toEqual([]);
    }
  });

  it('reports a SyntaxError thrown while running as runtime:, after one run only', async () => {
    const host = new Host();
    const o = failed(await run("await github.list_issues({}); JSON.parse('{');", { host }), 'runtime');
    expect(o.message).toMatch(/^SyntaxError/);
    expect(host.calls).toHaveLength(1);
  });

  it('runs every ordinary shape of code, with a function body\'s own scoping', async () => {
    expect(await run('function f() { return 1; }\nvar f;\nreturn f();')).toMatchObject({ ok: true, value: 1 });
    expect(await run('"use strict";\nconst s = `}${"{"}`;\nreturn /[)}]/.test(s);')).toMatchObject({ ok: true, value: true });
    expect(await run('async () => ({ a: [1, 2, { b: ")" }] })')).toMatchObject({ ok: true, value: { a: [1, 2, { b: ')' }] } });
  });

  it('still reports real syntax errors with their place', async () => {
    const o = failed(await run('async () => {\n  const x = ;\n}'), 'syntax');
    expect(o.line).toBe(2);
  });
});

describe('catalog lookups', () => {
  it('refuses oversized lookups in the worker, before the engine sees them', async () => {
    const host = new Host();
    const o = await run(
      `async () => [
        await catalog.search('a'.repeat(60000)).catch((e) => e.message),
        await catalog.describe(Array.from({ length: 100000 }, (_, i) => 'x.y' + i)).catch((e) => e.message),
        await catalog.search('fine', 2),
      ]`,
      { host },
    );
    if (!o.ok) throw new Error(o.message);
    const [search, describe] = o.value as string[];
    expect(search).toMatch(/60,000 characters; search with a few words \(at most 1,000 characters\)/);
    expect(describe).toMatch(/100,000 tool names at once; ask for at most 100/);
    expect(host.lookups).toEqual(['search 4']);
  });

  it("answers one lookup per turn of the engine's event loop, however many a run sends at once", async () => {
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turns: number[] = [];
    const host = new Host();
    host.search = async () => {
      turns.push(turn);
      return [];
    };
    try {
      const o = await run('async () => (await Promise.all(Array.from({ length: 200 }, () => catalog.search("issue")))).length', { host });
      expect(o).toMatchObject({ ok: true, value: 200 });
    } finally {
      ticking = false;
    }
    expect(turns).toHaveLength(200);
    for (let i = 1; i < turns.length; i++) expect(turns[i]!, `lookup ${i}`).toBeGreaterThan(turns[i - 1]!);
  });
});

describe('captured logs', () => {
  it(`keeps at most ${MAX_LOG_ENTRIES} entries, with the note once`, async () => {
    const o = await run("async () => { for (let i = 0; i < 100000; i++) console.log(''); return 1; }");
    expect(o.ok).toBe(true);
    expect(o.logs).toHaveLength(MAX_LOG_ENTRIES + 1);
    expect(o.logs.filter((l) => /further console output was dropped/.test(l.text))).toHaveLength(1);
  });
});
