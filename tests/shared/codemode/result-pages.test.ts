import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_ITEMS, describeKept, parseResultPath, queryResult, resultPage } from '../../../src-shared/codemode/result-pages.ts';

const value = { items: Array.from({ length: 250 }, (_, i) => ({ id: i, title: `t${i}`, user: { login: i % 2 ? 'a' : 'b' } })), total: 250 };

describe('result pages', () => {
  it('pages through an array, a string and an object, with next pointing at the following page', () => {
    const first = resultPage(value.items, { offset: 0 });
    expect(first).toMatchObject({ kind: 'array', total: 250, offset: 0, next: DEFAULT_PAGE_ITEMS });
    expect(first.kind === 'array' && first.items).toHaveLength(DEFAULT_PAGE_ITEMS);
    expect(resultPage(value.items, { offset: 200, limit: 100 })).toMatchObject({ next: null, items: value.items.slice(200) });
    expect(resultPage('abcdef', { offset: 2, limit: 3 })).toEqual({ kind: 'string', total: 6, offset: 2, next: 5, text: 'cde' });
    expect(resultPage({ a: 1, b: 2, c: 3 }, { offset: 1, limit: 1 })).toEqual({ kind: 'object', total: 3, offset: 1, next: 2, entries: { b: 2 } });
    expect(resultPage(value.items, { offset: 999 })).toMatchObject({ items: [], next: null });
  });

  it('never splits a character made of two UTF-16 units between pages', () => {
    const s = 'a😀b';
    const p1 = resultPage(s, { offset: 0, limit: 2 });
    expect(p1).toMatchObject({ text: 'a', next: 1 });
    expect(resultPage(s, { offset: 1, limit: 2 })).toMatchObject({ text: '😀', next: 3 });
  });

  it('keeps __proto__ a plain key of an object page', () => {
    const o = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
    const page = resultPage(o, { limit: 5 });
    expect(page.kind === 'object' && Object.keys(page.entries)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses bad paging options with a message saying what to send', () => {
    expect(() => resultPage([], { offset: -1 })).toThrow(/offset must be a whole number/);
    expect(() => resultPage([], { limit: 1.5 })).toThrow(/limit must be a whole number/);
    expect(() => resultPage([], 'x')).toThrow(/\{ offset, limit \}/);
  });
});

describe('result queries', () => {
  it('reads dotted, bracketed, wildcard and JSON Pointer paths', () => {
    expect(queryResult(value, 'items[3].title')).toBe('t3');
    expect(queryResult(value, '$.items.3.user.login')).toBe('a');
    expect(queryResult(value, '/items/3/user/login')).toBe('a');
    expect((queryResult(value, 'items.*.id') as number[]).slice(0, 3)).toEqual([0, 1, 2]);
    expect(queryResult(value, 'items[*].user.login')).toHaveLength(250);
    expect(queryResult(value, 'items.length')).toBe(250);
    expect(queryResult({ 'a b': { c: 1 } }, '["a b"].c')).toBe(1);
    expect(queryResult(value, 'items[999].title')).toBeUndefined();
    expect(queryResult(value, 'constructor')).toBeUndefined();
  });

  it('refuses a malformed path with examples', () => {
    expect(() => parseResultPath('items[0')).toThrow(/unclosed/);
    expect(() => parseResultPath('items[x]')).toThrow(/not an index/);
    expect(() => parseResultPath(5)).toThrow(/must be a string/);
    expect(() => parseResultPath('a.'.repeat(100))).toThrow(/at most 64 steps/);
  });

  it('describes a kept value for the cut note', () => {
    expect(describeKept(value.items)).toBe('an array of 250 items');
    expect(describeKept('x'.repeat(1234))).toBe('a string of 1,234 characters');
  });
});
