import { afterAll, describe, expect, it } from 'vitest';
import { formatRunText } from '../../../src-shared/codemode/result-text.ts';
import { DEFAULT_BUDGETS, MAX_LOG_BYTES, type ResolvedBudgets } from '../../../src-shared/config/schema.ts';
import { SandboxPool, type SandboxHost, type SandboxOutcome } from '../../../src-main/engine/codemode/sandbox-pool.ts';

/** A host whose tools answer after `delayMs`; it records every call and every cancellation. */
class RecordingHost implements SandboxHost {
  readonly calls: { global: string; method: string; args: unknown }[] = [];
  readonly cancelled: string[] = [];
  constructor(readonly delayMs = 0) {}

  callTool(global: string, method: string, args: unknown, signal: AbortSignal): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
    this.calls.push({ global, method, args });
    return new Promise((resolve) => {
      const done = (): void => {
        if (method === 'fail') resolve({ ok: false, message: 'the repository does not exist' });
        else resolve({ ok: true, value: { tool: `${global}.${method}`, args } });
      };
      const delay = method === 'hang' ? 60_000 : this.delayMs;
      const timer = setTimeout(done, delay);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        this.cancelled.push(method);
        resolve({ ok: false, message: 'cancelled' });
      });
    });
  }
  async search(query: string, limit?: number): Promise<unknown> {
    return [{ name: 'github.list_issues', description: `match for ${query} (${limit})` }];
  }
  async describe(names: string[]): Promise<string> {
    return names.map((n) => `declare function ${n}(): void;`).join('\n');
  }
}

const pool = new SandboxPool();
afterAll(() => pool.dispose());
const globals = { github: ['list_issues', 'create_issue', 'fail', 'hang'], beta_2: ['ping'] };

function run(code: string, host: SandboxHost = new RecordingHost(), budgets: Partial<ResolvedBudgets> = {}, signal?: AbortSignal): Promise<SandboxOutcome> {
  return pool.run({ code, budgets: { ...DEFAULT_BUDGETS, ...budgets }, globals }, host, signal);
}

function expectFailure(o: SandboxOutcome, kind: string): Extract<SandboxOutcome, { ok: false }> {
  if (o.ok) throw new Error(`expected ${kind}, got a result: ${JSON.stringify(o.value)}`);
  expect(o.kind, o.message).toBe(kind);
  return o;
}

describe('SandboxPool', () => {
  it('calls tools through the host with JSON arguments and returns their values', async () => {
    const host = new RecordingHost();
    const o = await run('async () => { const r = await github.list_issues({ state: "open", when: new Date(0) }); return r; }', host);
    expect(o).toMatchObject({ ok: true, value: { tool: 'github.list_issues', args: { state: 'open', when: '1970-01-01T00:00:00.000Z' } }, calls: 1 });
    expect(host.calls).toEqual([{ global: 'github', method: 'list_issues', args: { state: 'open', when: '1970-01-01T00:00:00.000Z' } }]);
  });

  it('runs Promise.all of tool calls concurrently', async () => {
    const host = new RecordingHost(50);
    const started = Date.now();
    const o = await run('async () => (await Promise.all(Array.from({ length: 50 }, (_, i) => github.list_issues({ i })))).length', host);
    const elapsed = Date.now() - started;
    expect(o).toMatchObject({ ok: true, value: 50, calls: 50 });
    // Sequential calls would take 2500 ms.
    expect(elapsed).toBeLessThan(1500);
  });

  it('throws a tool error as an Error the code can catch', async () => {
    const o = await run('async () => { try { await github.fail({}); return "no"; } catch (e) { return [e instanceof Error, e.message]; } }');
    expect(o).toMatchObject({ ok: true, value: [true, 'the repository does not exist'] });
  });

  it('fails with runtime: and the tool message when a tool error is not caught', async () => {
    const o = expectFailure(await run('async () => {\n  await github.fail({});\n}'), 'runtime');
    expect(o.message).toBe('the repository does not exist');
  });

  it('captures console output with levels and keeps it when the run fails', async () => {
    const o = await run('async () => { console.log("a", 1, { b: 2 }); console.info("i"); console.warn("w"); console.error(new TypeError("e")); console.debug([1n]); throw new Error("late"); }');
    expect(o.logs).toEqual([
      { level: 'log', text: 'a 1 {"b":2}' },
      { level: 'info', text: 'i' },
      { level: 'warn', text: 'w' },
      { level: 'error', text: 'TypeError: e' },
      { level: 'debug', text: '["1n"]' },
    ]);
    expect(formatRunText(o, 1000).text.replace(/column \d+/, 'column N')).toBe(
      'runtime: late (line 1, column N)\n\nLogs:\na 1 {"b":2}\n[info] i\n[warn] w\n[error] TypeError: e\n[debug] ["1n"]',
    );
  });

  it('caps captured logs at 64 KB with a note', async () => {
    const o = await run('async () => { for (let i = 0; i < 2000; i++) console.log("z".repeat(100)); return 1; }');
    expect(o.ok).toBe(true);
    expect(o.logs.at(-1)?.text).toMatch(/logs are capped at 64 KB/);
    expect(o.logs.slice(0, -1).reduce((n, l) => n + l.text.length + 1, 0)).toBeLessThanOrEqual(MAX_LOG_BYTES);
  });

  it('fails the tool call past maxToolCalls with budget:', async () => {
    const host = new RecordingHost();
    const o = expectFailure(await run('async () => { for (let i = 0; i < 10; i++) await github.list_issues({ i }); }', host, { maxToolCalls: 3 }), 'budget');
    expect(o.message).toContain('3 tool calls');
    expect(o.calls).toBe(3);
    expect(host.calls).toHaveLength(3);
  });

  it('refuses code over maxSourceBytes before running it', async () => {
    const host = new RecordingHost();
    const o = expectFailure(await run(`async () => { await github.ping(); return "${'x'.repeat(200)}"; }`, host, { maxSourceBytes: 100 }), 'budget');
    expect(o.message).toMatch(/more than the 100 bytes/);
    expect(host.calls).toHaveLength(0);
  });

  it('stops a tight loop at timeoutMs with timeout:', async () => {
    const started = Date.now();
    expectFailure(await run('async () => { while (true) {} }', undefined, { timeoutMs: 300 }), 'timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops a run waiting on a slow tool at timeoutMs and cancels the call', async () => {
    const host = new RecordingHost();
    expectFailure(await run('async () => github.hang({})', host, { timeoutMs: 300 }), 'timeout');
    expect(host.cancelled).toEqual(['hang']);
  });

  it('ends with aborted: when the signal fires, and cancels pending host calls', async () => {
    const host = new RecordingHost();
    const controller = new AbortController();
    const outcome = run('async () => { console.log("started"); await Promise.all([github.hang({}), github.hang({})]); }', host, {}, controller.signal);
    while (host.calls.length < 2) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const o = expectFailure(await outcome, 'aborted');
    expect(o.logs).toEqual([{ level: 'log', text: 'started' }]);
    expect(host.cancelled).toEqual(['hang', 'hang']);
  });

  it('cancels calls still pending when the run returns', async () => {
    const host = new RecordingHost();
    const o = await run('async () => { github.hang({}); return "done"; }', host);
    expect(o).toMatchObject({ ok: true, value: 'done' });
    await new Promise((r) => setTimeout(r, 50));
    expect(host.cancelled).toEqual(['hang']);
  });

  it('hints the server globals for an unknown name', async () => {
    const o = expectFailure(await run('async () => {\n  return await githb.list_issues({});\n}'), 'runtime');
    expect(o).toMatchObject({ line: 2 });
    expect(o.hint).toBe('Did you mean github? The server globals are: github, beta_2 (and catalog, console).');
  });

  it('hints the closest methods for an unknown method', async () => {
    const o = expectFailure(await run('async () => {\n  return await github.list_issue({});\n}'), 'runtime');
    expect(o).toMatchObject({ line: 2 });
    expect(o.hint).toMatch(/^github has no method "list_issue"; the closest are: list_issues/);
  });

  it('reports syntax errors at the line and column of the code as sent', async () => {
    const o = expectFailure(await run('```js\nasync () => {\n  const x = ;\n}\n```'), 'syntax');
    expect(o).toMatchObject({ line: 3, column: 13 });
  });

  it('refuses empty code with syntax:', async () => {
    const o = expectFailure(await run('   '), 'syntax');
    expect(o.message).toBe('the code is empty; send an async arrow function such as async () => { … }');
  });

  it('accepts a bare body and a single expression', async () => {
    expect(await run('const r = await beta_2.ping(); return r.tool;')).toMatchObject({ ok: true, value: 'beta_2.ping' });
    expect(await run('beta_2.ping()')).toMatchObject({ ok: true, value: { tool: 'beta_2.ping' } });
  });

  it('sends catalog.search and catalog.describe to the host', async () => {
    const o = await run('async () => [await catalog.search("issues", 2), await catalog.describe(["github.list_issues"])]');
    expect(o).toMatchObject({
      ok: true,
      value: [[{ name: 'github.list_issues', description: 'match for issues (2)' }], 'declare function github.list_issues(): void;'],
      calls: 0,
    });
  });

  it('keeps no state between runs', async () => {
    await run('async () => { globalThis.leftover = 1; Array.prototype.extra = 2; }');
    expect(await run('async () => [typeof leftover, typeof [].extra]')).toMatchObject({ ok: true, value: ['undefined', 'undefined'] });
  });

  it('says a run that returns nothing returned undefined', async () => {
    expect(await run('async () => { await github.list_issues({}); }')).toMatchObject({ ok: true, returnedUndefined: true, value: undefined });
  });
});
