// Issue 11, the pure parts: the wrapper probe catches code that closes its wrapper, deep JSON
// is measured from its text, and captured logs are capped in entries. (Catalog lookup caps are
// in catalog.test.ts.)
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { jsonDeeperThan, MAX_VALUE_DEPTH } from '../../../src-shared/codemode/json-depth.ts';
import { normalizeCode } from '../../../src-shared/codemode/normalize-code.ts';
import { capLogs, LOG_CUT_NOTE, MAX_LOG_ENTRIES } from '../../../src-shared/codemode/result-text.ts';

describe('the wrapper probe', () => {
  /** Whether `source` compiles as a script (nothing runs). */
  const compiles = (source: string): boolean => {
    try {
      new vm.Script(source);
      return true;
    } catch {
      return false;
    }
  };
  /** Whether some form would run: its source and its probe both compile. */
  const runs = (code: string): number | undefined => {
    const n = normalizeCode(code);
    if (!n.ok) return undefined;
    const i = n.forms.findIndex((f) => compiles(f.source) && compiles(f.probe));
    return i >= 0 ? i : undefined;
  };

  it('catches code that closes the expression or the body wrapper early', () => {
    for (const code of [
      "0)); files.write_file({ path: '/x' }); JSON.parse('{'); ((0",
      "}); files.write_file({ path: '/x' }); JSON.parse('{'); (async () => {",
      '0)).then(() => files.write_file({})); ((0',
      '}, files.write_file({}), async () => {',
      '})(), files.write_file({}), (async () => {',
      '0), files.write_file({}), (0',
    ]) {
      const n = normalizeCode(code);
      if (!n.ok) throw new Error(n.message);
      // The attack works against the wrapper alone…
      expect(n.forms.some((f) => compiles(f.source)), code).toBe(true);
      // …and never against wrapper and probe together.
      expect(runs(code), code).toBeUndefined();
    }
  });

  it('lets every ordinary shape of code through', () => {
    expect(runs('async () => { return 1 }')).toBe(0);
    expect(runs('async () => ({ a: [1, 2, { b: ")" }] })')).toBe(0);
    expect(runs('Promise.resolve(5)')).toBe(0);
    expect(runs('const x = await Promise.resolve(4);\nreturn x;')).toBe(1);
    expect(runs('async function main() { return 6; }\nreturn main();')).toBe(1);
    expect(runs('"use strict";\nconst s = `}${"{"}`;\nreturn /[)}]/.test(s);')).toBe(1);
    expect(runs('```js\nasync () => 7\n```')).toBe(0);
    // A function body's own scoping: a declaration and a var of one name may share it.
    expect(runs('function f() { return 1; }\nvar f;\nreturn f();')).toBe(1);
  });
});

describe('jsonDeeperThan', () => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
  it('measures nesting from the text, ignoring brackets in strings', () => {
    expect(jsonDeeperThan(nested(MAX_VALUE_DEPTH))).toBe(false);
    expect(jsonDeeperThan(nested(MAX_VALUE_DEPTH + 1))).toBe(true);
    expect(jsonDeeperThan(JSON.stringify({ a: '[[[[[[', b: '\\"[[[[', c: [{ d: '{{{{' }] }), 3)).toBe(false);
    expect(jsonDeeperThan(JSON.stringify({ a: { b: { c: [] } } }), 3)).toBe(true);
    expect(jsonDeeperThan('"just a string"', 0)).toBe(false);
  });
});

describe('capLogs', () => {
  it('caps the number of entries, with the note once', () => {
    const lines = Array.from({ length: 1_000_000 }, () => ({ level: 'log' as const, text: '' }));
    const kept = capLogs(lines);
    expect(kept).toHaveLength(MAX_LOG_ENTRIES + 1);
    expect(kept.filter((l) => l.text === LOG_CUT_NOTE)).toHaveLength(1);
    expect(kept.at(-1)).toEqual({ level: 'warn', text: LOG_CUT_NOTE });
    expect(LOG_CUT_NOTE).toMatch(/64 KB and 1,000 lines/);
  });
});
