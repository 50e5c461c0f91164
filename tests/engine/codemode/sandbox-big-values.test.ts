// A big result stays in the sandbox worker: the worker makes its text, cut at maxResultChars
// (plus the slack redaction needs) with the true size, and the engine gets the value itself
// only when the whole result fits the cut. A cut result of a profile that keeps results
// crosses as its compact JSON's bytes, stored as they are. The run record is made from the
// cut text, redacted past the cut.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CUT_SLACK_CHARS, formatRunText } from '../../../src-shared/codemode/result-text.ts';
import { DEFAULT_BUDGETS } from '../../../src-shared/config/schema.ts';
import type { RunRecord } from '../../../src-shared/records.ts';
import { SandboxPool, type SandboxHost, type SandboxOutcome } from '../../../src-main/engine/codemode/sandbox-pool.ts';
import { MAX_KEPT_RESULT_CHARS, ResultHandles, ResultTooLarge } from '../../../src-main/engine/codemode/result-handles.ts';
import { capRunRecord } from '../../../src-main/engine/records/run-record-caps.ts';
import { redactDeep, redactSecrets } from '../../../src-main/engine/records/redact.ts';

const host: SandboxHost = {
  callTool: async () => ({ ok: false, message: 'no tools here' }),
  search: async () => [],
  describe: async () => '',
};
const pool = new SandboxPool();
const dirs: string[] = [];
afterAll(async () => {
  await pool.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const budgets = { ...DEFAULT_BUDGETS, memoryMb: 256 };
function run(code: string, results = false): Promise<SandboxOutcome> {
  return pool.run({ code, budgets, globals: {}, ...(results ? { results: true } : {}) }, host);
}
function ok(o: SandboxOutcome): Extract<SandboxOutcome, { ok: true }> {
  if (!o.ok) throw new Error(`the run failed: ${o.kind}: ${o.message}`);
  return o;
}

const N = 200_000;
const rows = Array.from({ length: N }, (_, i) => ({ i, name: `row ${i}` }));
const pretty = JSON.stringify(rows, null, 2);
const code = `async () => Array.from({ length: ${N} }, (_, i) => ({ i, name: 'row ' + i }))`;

describe('big results from the sandbox', () => {
  it('reach the engine as the cut text and the true size, never as the value', async () => {
    const o = ok(await run(code));
    expect(o.value).toBeUndefined();
    expect(o.keep).toBeUndefined();
    expect(o.text!.chars).toBe(pretty.length);
    expect(o.text!.head).toBe(pretty.slice(0, budgets.maxResultChars + CUT_SLACK_CHARS));
    expect(o.text!.kind).toBe('an array of 200,000 items');
    const text = formatRunText(o, budgets.maxResultChars).text;
    expect(text).toBe(
      `Result:\n${pretty.slice(0, budgets.maxResultChars)}\n… [result cut at ${budgets.maxResultChars} of ${pretty.length} characters; return a smaller result, such as fewer items or only the fields you need]`,
    );
  }, 60_000);

  it('that fit maxResultChars still come as the value', async () => {
    const o = ok(await run(`async () => ({ a: [1, 2], b: 'x' })`));
    expect(o.value).toEqual({ a: [1, 2], b: 'x' });
    expect(formatRunText(o, 1000).text).toBe('Result:\n{\n  "a": [\n    1,\n    2\n  ],\n  "b": "x"\n}');
    expect(formatRunText(ok(await run(`async () => {}`)), 1000).text).toBe('Result:\nundefined (the function returned nothing)');
  });

  it('of a profile that keeps results cross as the compact JSON bytes, stored without a parse', async () => {
    const o = ok(await run(code, true));
    expect(o.value).toBeUndefined();
    expect(o.keep!.chars).toBe(JSON.stringify(rows).length);
    expect(Buffer.from(o.keep!.bytes!).toString('utf8')).toBe(JSON.stringify(rows));
    const d = mkdtempSync(path.join(os.tmpdir(), 'sb-bigkeep-'));
    dirs.push(d);
    const store = new ResultHandles(d);
    const h = store.newHandle();
    await store.keepJson('p', h, o.keep!);
    expect(await store.get('p', h, { offset: N - 1, limit: 5 })).toEqual({ kind: 'array', total: N, offset: N - 1, next: null, items: [{ i: N - 1, name: `row ${N - 1}` }] });
  }, 60_000);

  it('too large to keep send only their size', async () => {
    const o = ok(await run(`async () => 'x'.repeat(${MAX_KEPT_RESULT_CHARS})`, true));
    expect(o.keep).toEqual({ chars: MAX_KEPT_RESULT_CHARS + 2 });
    expect(o.text!.chars).toBe(MAX_KEPT_RESULT_CHARS + 2);
    const store = new ResultHandles(path.join(os.tmpdir(), 'sb-never-written'));
    await expect(store.keepJson('p', store.newHandle(), o.keep!)).rejects.toBeInstanceOf(ResultTooLarge);
  }, 60_000);
});

describe('the run record of a big result', () => {
  it('is the worker text cut for the history, with the true size, a secret at the cut redacted whole', () => {
    const secret = 'ghp_' + 'A1b2C3d4'.repeat(5);
    const max = 1000;
    // The secret starts just before the history's cut, so only the slack past it shows it is one.
    const head = 'y'.repeat(max - 11) + ' ' + secret + ' ' + 'z'.repeat(CUT_SLACK_CHARS);
    const rec: RunRecord = { id: 'r1', time: new Date(0).toISOString(), profile: 'p', client: 'c', code: 'x', logs: [], calls: [], durationMs: 1, budgets: { ...budgets, maxResultChars: max }, resultChars: 1, resultText: head, resultFullChars: 5_000_000 };
    const stored = capRunRecord(rec, (s) => redactSecrets(s, []), (r) => redactDeep(r, []));
    expect(stored.result).toBeUndefined();
    expect(stored.resultFullChars).toBe(5_000_000);
    expect(stored.resultText).toBe(`${'y'.repeat(max - 11)} [redacted]\n… [result cut at ${max} of 5000000 characters]`);
    expect(stored.resultText).not.toContain('ghp_');
  });
});
