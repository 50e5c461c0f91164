import { describe, expect, it } from 'vitest';
import { MAX_SHAPE_PROPS, isShape, mergeShapes, renderShape, shapeOf } from '../../../src-shared/codemode/shapes.ts';

describe('shapes', () => {
  it('sketch a value as a type, never its data', () => {
    const text = renderShape(shapeOf({ id: 7, title: 'secret title', labels: [{ name: 'bug' }], closed: false, owner: null }));
    expect(text).toBe('{ id: number; title: string; labels: { name: string }[]; closed: boolean; owner: null }');
    expect(text).not.toContain('secret');
  });

  it('merge array elements: a key missing in some is optional, differing kinds become a union', () => {
    expect(renderShape(shapeOf([{ a: 1 }, { a: 2, b: 'x' }, { a: 'three' }]))).toBe('{ a: number | string; b?: string }[]');
    expect(renderShape(shapeOf([1, 'a', null]))).toBe('(number | string | null)[]');
    expect(renderShape(shapeOf([]))).toBe('never[]');
  });

  it('merge shapes of separate results', () => {
    const merged = mergeShapes(shapeOf({ id: 1, tags: ['a'] }), shapeOf({ id: 2, extra: { deep: true } }));
    expect(renderShape(merged)).toBe('{ id: number; tags?: string[]; extra?: { deep: boolean } }');
  });

  it('stay bounded for wide, deep and hostile values', () => {
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    const s = shapeOf(wide);
    expect(s.t === 'object' && Object.keys(s.props).length).toBe(MAX_SHAPE_PROPS);
    expect(renderShape(s, 10_000)).toContain('[key: string]: unknown');
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    expect(renderShape(shapeOf(deep))).toBe('{ d: { d: { d: { d: { d: unknown } } } } }');
    const huge = Array.from({ length: 1_000_000 }, (_, i) => ({ i }));
    expect(renderShape(shapeOf(huge))).toBe('{ i: number }[]');
    expect(renderShape(shapeOf(wide), 60).length).toBeLessThanOrEqual(60);
    expect(renderShape(shapeOf({ 'a-b': 1, __proto__x: 2 }))).toBe('{ "a-b": number; __proto__x: number }');
  });

  it('keep no keys of an object used as a map (ids, emails, paths are data)', () => {
    const byUser = { 'alice@example.com': { n: 1 }, 'bob@example.com': { n: 2, admin: true } };
    expect(renderShape(shapeOf(byUser))).toBe('Record<string, { n: number; admin?: boolean }>');
    expect(renderShape(shapeOf({ '1001': 'a', '1002': 'b' }))).toBe('Record<string, string>');
    expect(renderShape(mergeShapes(shapeOf({ '/a/b': 1 }), shapeOf({ '/c': 2 })))).toBe('Record<string, number>');
    expect(renderShape(shapeOf({ created_at: 'x', 'x-request-id': 'y' }))).toBe('{ created_at: string; "x-request-id": string }');
  });

  it('are recognised when read back from disk, and junk is not', () => {
    expect(isShape(JSON.parse(JSON.stringify(shapeOf({ a: [1, { b: null }] }))))).toBe(true);
    expect(isShape({ t: 'object', props: { a: { s: { t: 'weird' } } } })).toBe(false);
    expect(isShape(null)).toBe(false);
    expect(isShape(JSON.parse(JSON.stringify(shapeOf({ 'a@b': [1] }))))).toBe(true);
  });
});
