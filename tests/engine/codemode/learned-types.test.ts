import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { LearnedTypes, MAX_LEARNED_SAMPLES } from '../../../src-main/engine/codemode/learned-types.ts';
import { methodDeclaration } from '../../../src-shared/codemode/declarations.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function file(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'sb-learned-'));
  dirs.push(d);
  return path.join(d, 'learned-types.json');
}

const listIssues: Tool = { name: 'list_issues', description: 'Lists issues.', inputSchema: { type: 'object', properties: { repo: { type: 'string' } } } };

describe('learned return types', () => {
  it('merge the shapes of recent results and count them, up to the last few', () => {
    const l = new LearnedTypes(file());
    expect(l.observed('gh', listIssues)).toBeUndefined();
    l.observe('gh', listIssues, [{ number: 1, title: 'a' }]);
    expect(l.observed('gh', listIssues)).toEqual({ type: '{ number: number; title: string }[]', samples: 1 });
    l.observe('gh', listIssues, [{ number: 2, title: 'b', labels: ['x'] }]);
    expect(l.observed('gh', listIssues)).toEqual({ type: '{ number: number; title: string; labels?: string[] }[]', samples: 2 });
    for (let i = 0; i < 10; i++) l.observe('gh', listIssues, { page: i });
    // The array shapes have aged out: only the last MAX_LEARNED_SAMPLES results count.
    expect(l.observed('gh', listIssues)).toEqual({ type: '{ page: number }', samples: MAX_LEARNED_SAMPLES });
  });

  it('start over when the tool definition changes, and skip tools with an outputSchema', () => {
    const l = new LearnedTypes(file());
    l.observe('gh', listIssues, { a: 1 });
    const changed: Tool = { ...listIssues, description: 'Lists issues, now differently.' };
    expect(l.observed('gh', changed)).toBeUndefined();
    l.observe('gh', changed, { b: 'x' });
    expect(l.observed('gh', changed)).toEqual({ type: '{ b: string }', samples: 1 });
    expect(l.observed('gh', listIssues)).toBeUndefined();
    const typed: Tool = { ...listIssues, name: 'typed', outputSchema: { type: 'object', properties: { n: { type: 'number' } } } };
    l.observe('gh', typed, { other: true });
    expect(l.observed('gh', typed)).toBeUndefined();
  });

  it('bump the epoch only when a shown type changes', () => {
    const l = new LearnedTypes(file());
    const e0 = l.epoch();
    for (let i = 0; i < MAX_LEARNED_SAMPLES; i++) l.observe('gh', listIssues, { n: i });
    const e1 = l.epoch();
    expect(e1).toBeGreaterThan(e0);
    for (let i = 0; i < 20; i++) l.observe('gh', listIssues, { n: i });
    expect(l.epoch()).toBe(e1);
  });

  it('persist shapes (never values) in the home, and read back only what is well formed', async () => {
    const f = file();
    await new LearnedTypes(f).flush();
    expect(() => readFileSync(f)).toThrow(/ENOENT/);
    const a = new LearnedTypes(f);
    a.observe('gh', listIssues, [{ title: 'a secret title', token: 'ghp_secret' }]);
    await a.flush();
    expect(readFileSync(f, 'utf8')).not.toContain('secret');
    const b = new LearnedTypes(f);
    await b.load();
    expect(b.observed('gh', listIssues)).toEqual({ type: '{ title: string; token: string }[]', samples: 1 });
    writeFileSync(f, JSON.stringify({ version: 1, tools: [{ server: 'gh', tool: 'list_issues', def: 'x', shapes: [{ t: 'bogus' }] }, 5, null] }));
    const c = new LearnedTypes(f);
    await c.load();
    expect(c.observed('gh', listIssues)).toBeUndefined();
    writeFileSync(f, '{ not json');
    const errors: string[] = [];
    await new LearnedTypes(f, { onError: (m) => errors.push(m) }).load();
    expect(errors[0]).toMatch(/not valid JSON/);
  });

  it('show in the declarations as observed, never as guaranteed', () => {
    const text = methodDeclaration({ method: 'list_issues', name: 'list_issues', inputSchema: listIssues.inputSchema, description: 'Lists issues.', observedReturn: { type: '{ n: number }[]', samples: 3 } });
    expect(text).toBe(
      '  /**\n   * Lists issues.\n   * @returns observed from 3 recent results, not guaranteed (the tool declares no output schema)\n   */\n  list_issues(args?: { repo?: string }): Promise<{ n: number }[]>;\n',
    );
    const declared = methodDeclaration({ method: 'm', name: 'm', inputSchema: {}, outputSchema: { type: 'object', properties: { s: { type: 'string' } } }, observedReturn: { type: 'number', samples: 1 } });
    expect(declared).toContain('Promise<{ s?: string }>');
    expect(declared).not.toContain('observed');
  });
});
