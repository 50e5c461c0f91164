// Hostile code (docs/protocol.md): every attempt ends with the outcome the spec gives, and the pool keeps
// serving promptly afterwards with the engine's memory bounded.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatRunText } from '../../../src-shared/codemode/result-text.ts';
import { DEFAULT_BUDGETS, type ResolvedBudgets } from '../../../src-shared/config/schema.ts';
import { SandboxPool, type SandboxHost, type SandboxOutcome } from '../../../src-main/engine/codemode/sandbox-pool.ts';

const host: SandboxHost = {
  async callTool(global, method, args) {
    return { ok: true, value: { tool: `${global}.${method}`, args } };
  },
  async search() {
    return [];
  },
  async describe() {
    return '';
  },
};
const globals = { github: ['list_issues'] };
// Short budgets keep the suite quick; the mechanisms are the same at the defaults.
const budgets: ResolvedBudgets = { ...DEFAULT_BUDGETS, timeoutMs: 1000, memoryMb: 32 };
/**
 * For bombs that fill the memory cap by computing: a worker that has computed 100 ms lowers its
 * priority (sandbox-worker.ts), and under the full suite's load it may need longer than 1 s of
 * wall time to reach the cap.
 */
const LOADED: Partial<ResolvedBudgets> = { timeoutMs: 8000 };

const pool = new SandboxPool();
let rssBefore = 0;
beforeAll(async () => {
  await run('async () => 1');
  rssBefore = process.memoryUsage().rss;
});
afterAll(() => pool.dispose());

function run(code: string, extra: Partial<ResolvedBudgets> = {}): Promise<SandboxOutcome> {
  return pool.run({ code, budgets: { ...budgets, ...extra }, globals }, host);
}

function expectFailure(o: SandboxOutcome, kind: string): Extract<SandboxOutcome, { ok: false }> {
  if (o.ok) throw new Error(`expected ${kind}, got a result: ${JSON.stringify(o.value)?.slice(0, 200)}`);
  expect(o.kind, o.message).toBe(kind);
  return o;
}

afterEach(async () => {
  // Whatever the last run did, the next trivial one is answered promptly (generous bound: a
  // replaced worker may have to start).
  const started = Date.now();
  expect(await run('async () => 40 + 2')).toMatchObject({ ok: true, value: 42 });
  expect(Date.now() - started).toBeLessThan(10_000);
});

describe('sandbox escapes', () => {
  it('reaches no host through the constructor chain', async () => {
    const o = expectFailure(await run("async () => this.constructor.constructor('return process')()"), 'runtime');
    expect(o.message).toMatch(/process' is not defined/);
    const probe = await run(
      "async () => [(async () => {}).constructor('return typeof process + typeof require')(), await github.list_issues.constructor('return [typeof fetch, typeof setTimeout, typeof globalThis.process]')()]",
    );
    expect(probe.ok).toBe(true);
    if (!probe.ok) return;
    const [fromAsyncCtor, fromToolCtor] = probe.value as [unknown, unknown];
    expect(fromAsyncCtor).toEqual({});
    expect(fromToolCtor).toEqual(['undefined', 'undefined', 'undefined']);
  });

  it('offers only the standard built-ins, the server globals, catalog and console', async () => {
    const o = await run('async () => Object.getOwnPropertyNames(globalThis).sort()');
    const standard = [
      'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView', 'Date',
      'Error', 'EvalError', 'FinalizationRegistry', 'Float16Array', 'Float32Array', 'Float64Array', 'Function', 'Infinity',
      'Int16Array', 'Int32Array', 'Int8Array', 'InternalError', 'Iterator', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object',
      'Promise', 'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'SharedArrayBuffer', 'String', 'Symbol',
      'SyntaxError', 'TypeError', 'URIError', 'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap',
      'WeakRef', 'WeakSet', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval',
      'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'undefined', 'unescape',
    ];
    expect(o).toMatchObject({ ok: true, value: [...standard, 'github', 'catalog', 'console'].sort() });
  });

  it('lets eval and Function see only the sandbox', async () => {
    const o = await run(
      "async () => [eval('typeof process'), Function('return typeof require')(), eval('typeof fetch'), typeof setInterval, typeof queueMicrotask]",
    );
    expect(o).toMatchObject({ ok: true, value: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'] });
  });

  it('keeps prototype tricks on returned values away from the engine', async () => {
    const o = await run(
      'async () => { Object.prototype.polluted = true; const v = JSON.parse(\'{"__proto__": {"isAdmin": true}}\'); v.toString = 1; return v; }',
    );
    expect(o.ok).toBe(true);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (o.ok) expect(Object.getPrototypeOf(o.value)).toBe(Object.prototype);
  });

  it('does not let a getter on the result run after the run is over', async () => {
    const o = await run('async () => ({ get x() { return 5; }, toJSON() { return { y: 1 }; } })');
    expect(o).toMatchObject({ ok: true, value: { y: 1 } });
  });
});

describe('runaway code', () => {
  it('stops a CPU loop inside a promise job with timeout:', async () => {
    expectFailure(await run('async () => { await Promise.resolve().then(() => { while (true) {} }); }'), 'timeout');
  });

  it('stops an endless chain of promise jobs with timeout:', async () => {
    expectFailure(await run('async () => { const f = () => Promise.resolve().then(f); f(); await new Promise(() => {}); }'), 'timeout');
  });

  it('ends a promise that never settles with timeout:', async () => {
    expectFailure(await run('async () => { await new Promise(() => {}); }'), 'timeout');
  });

  it('ends catastrophic regular-expression backtracking with timeout:', async () => {
    expectFailure(await run("async () => /^(a+)+$/.test('a'.repeat(40) + 'b')"), 'timeout');
  });

  it('turns deep recursion into a clean runtime: error', async () => {
    const o = expectFailure(await run('async () => { const f = (n) => f(n + 1) + 1; return f(0); }'), 'runtime');
    expect(o.message).toMatch(/stack overflow/);
    expect(o.hint).toMatch(/recursion/);
  });

  it('survives a promise storm', async () => {
    const o = await run('async () => { let n = 0; await Promise.all(Array.from({ length: 100000 }, () => Promise.resolve().then(() => n++))); return n; }');
    if (o.ok) expect(o.value).toBe(100000);
    else expect(['memory', 'timeout'], o.message).toContain(o.kind);
  });
});

describe('memory bombs', () => {
  it('ends string doubling with memory:', async () => {
    expectFailure(await run('async () => { let s = "x"; for (;;) s = s + s + "y"; }'), 'memory');
  });

  it('ends a growing pile of arrays with memory:', async () => {
    expectFailure(await run('async () => { const keep = []; for (;;) keep.push(new Array(100000).fill(1.5)); }', LOADED), 'memory');
  });

  it('refuses a huge ArrayBuffer with memory:', async () => {
    expectFailure(await run('async () => new ArrayBuffer(2 ** 30).byteLength'), 'memory');
  });

  it('ends many large ArrayBuffers with memory:', async () => {
    expectFailure(await run('async () => { const keep = []; for (;;) keep.push(new Uint8Array(4 << 20).fill(7)); }', LOADED), 'memory');
  });

  it('ends a flattened string bomb with memory:', async () => {
    // A generous deadline: on a loaded machine the bomb needs more than a second to fill 32 MB.
    expectFailure(await run('async () => { const keep = []; let s = "ab"; for (;;) { s = s + s; keep.push(s.split("").join("")); } }', { timeoutMs: 10_000 }), 'memory');
  });
});

describe('results', () => {
  it('cuts a huge result with a note asking for less', async () => {
    const o = await run('async () => "x".repeat(1000000)');
    expect(o.ok).toBe(true);
    const text = formatRunText(o, budgets.maxResultChars).text;
    expect(text.length).toBeLessThan(budgets.maxResultChars + 300);
    expect(text).toMatch(/result cut at 24000 of 1000002 characters; return a smaller result/);
  });

  it.each([
    ['a cyclic object', 'async () => { const a = {}; a.self = a; return a; }', /cyclic/],
    ['a BigInt', 'async () => ({ n: 10n })', /BigInt \(at key "n"\)/],
    ['a function', 'async () => [1, () => 2]', /a function/],
    ['a symbol', "async () => Symbol('s')", /a symbol/],
  ])('fails with runtime: when the result holds %s', async (_what, code, message) => {
    const o = expectFailure(await run(code), 'runtime');
    expect(o.message).toMatch(message);
    expect(o.message).toMatch(/JSON cannot hold/);
  });

  it('says a run returning undefined returned nothing', async () => {
    const o = await run('async () => undefined');
    expect(formatRunText(o, 1000).text).toBe('Result:\nundefined (the function returned nothing)');
  });
});

describe('the engine afterwards', () => {
  it('keeps its memory bounded after all of the above', async () => {
    for (let i = 0; i < 3; i++) expectFailure(await run('async () => { const keep = []; for (;;) keep.push(new Uint8Array(4 << 20).fill(7)); }'), 'memory');
    // Each worker keeps at most one capped WASM memory per cap (32 MB + 16 MB here).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 * 1024 * 1024);
  });
});
