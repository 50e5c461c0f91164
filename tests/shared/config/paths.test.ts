// Config paths as users type them (`switchboard config get/set/unset`, docs/command-line.md): dotted or JSON
// Pointer, and reads and writes that treat `__proto__` and the like as plain keys.
import { describe, expect, it } from 'vitest';
import { ConfigPathError, formatConfigPath, getAtPath, parseConfigPath, setAtPath, unsetAtPath } from '../../../src-shared/config/paths.ts';

describe('parseConfigPath', () => {
  it('splits dotted paths, reading whole numbers as list indices', () => {
    expect(parseConfigPath('profiles.demo.budgets.timeoutMs')).toEqual(['profiles', 'demo', 'budgets', 'timeoutMs']);
    expect(parseConfigPath('servers.0.name')).toEqual(['servers', 0, 'name']);
    // Not a canonical index: a key.
    expect(parseConfigPath('a.01.-1.1e3')).toEqual(['a', '01', '-1', '1e3']);
    expect(parseConfigPath('')).toEqual([]);
    expect(parseConfigPath('.')).toEqual([]);
  });

  it('reads a JSON Pointer for keys holding dots or slashes', () => {
    expect(parseConfigPath('/servers/my.server/env')).toEqual(['servers', 'my.server', 'env']);
    expect(parseConfigPath('/a~1b/c~0d/2')).toEqual(['a/b', 'c~d', 2]);
    // ~01 is "~1" literally, not "/": ~1 is replaced first, then ~0.
    expect(parseConfigPath('/x~01')).toEqual(['x~1']);
  });

  it('refuses empty names between dots, saying what to type instead', () => {
    for (const bad of ['a..b', '.a', 'a.']) {
      expect(() => parseConfigPath(bad)).toThrow(ConfigPathError);
    }
    try {
      parseConfigPath('a..b');
    } catch (err) {
      expect((err as ConfigPathError).code).toBe('bad-path');
      expect((err as Error).message).toMatch(/JSON Pointer/);
    }
  });

  it('formats problem paths with dots', () => {
    expect(formatConfigPath(['servers', 2, 'command'])).toBe('servers.2.command');
    expect(formatConfigPath([])).toBe('');
  });
});

describe('getAtPath', () => {
  const root = { servers: [{ name: 'a' }], nothing: null };
  it('finds values, null and falsy ones included', () => {
    expect(getAtPath(root, ['servers', 0, 'name'])).toEqual({ found: true, value: 'a' });
    expect(getAtPath(root, ['nothing'])).toEqual({ found: true, value: null });
    expect(getAtPath(root, [])).toEqual({ found: true, value: root });
  });

  it('finds nothing past a leaf, out of a list, or through the prototype', () => {
    expect(getAtPath(root, ['servers', 0, 'name', 'length']).found).toBe(false);
    expect(getAtPath(root, ['servers', 1]).found).toBe(false);
    expect(getAtPath(root, ['nothing', 'x']).found).toBe(false);
    expect(getAtPath(root, ['__proto__']).found).toBe(false);
    expect(getAtPath(root, ['servers', 'constructor']).found).toBe(false);
  });
});

describe('setAtPath', () => {
  it('returns a copy with the value set, creating objects on the way', () => {
    const root = { profiles: { demo: { mode: 'tools' } } };
    const next = setAtPath(root, ['profiles', 'demo', 'budgets', 'timeoutMs'], 5000);
    expect(next).toEqual({ profiles: { demo: { mode: 'tools', budgets: { timeoutMs: 5000 } } } });
    expect(root).toEqual({ profiles: { demo: { mode: 'tools' } } });
    expect(setAtPath(root, [], 1)).toBe(1);
    expect(setAtPath('scalar', ['a'], 1)).toEqual({ a: 1 });
  });

  it('sets an index in a list or appends at its end, and refuses anything else', () => {
    const root = { servers: ['a', 'b'] };
    expect(setAtPath(root, ['servers', 1], 'B')).toEqual({ servers: ['a', 'B'] });
    expect(setAtPath(root, ['servers', 2], 'c')).toEqual({ servers: ['a', 'b', 'c'] });
    expect(() => setAtPath(root, ['servers', 3], 'x')).toThrow(/use an index from 0 to 2/);
    expect(() => setAtPath(root, ['servers', 'x'], 'x')).toThrow(ConfigPathError);
    expect(() => setAtPath(root, ['servers', '__proto__'], 'x')).toThrow(ConfigPathError);
  });

  it('writes __proto__ as an own key, never replacing the prototype', () => {
    const next = setAtPath({}, ['__proto__', 'polluted'], true) as Record<string, unknown>;
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.keys(next)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(getAtPath(next, ['__proto__', 'polluted'])).toEqual({ found: true, value: true });
  });
});

describe('unsetAtPath', () => {
  it('removes a key or a list item from a copy', () => {
    const root = { a: { b: 1, c: 2 }, list: ['x', 'y', 'z'] };
    expect(unsetAtPath(root, ['a', 'b'])).toEqual({ value: { a: { c: 2 }, list: ['x', 'y', 'z'] }, removed: true });
    expect(unsetAtPath(root, ['list', 1])).toEqual({ value: { a: { b: 1, c: 2 }, list: ['x', 'z'] }, removed: true });
    expect(root).toEqual({ a: { b: 1, c: 2 }, list: ['x', 'y', 'z'] });
    expect(unsetAtPath(root, [])).toEqual({ value: undefined, removed: true });
  });

  it('says nothing was removed when the path is not there', () => {
    const root = { a: { b: 1 } };
    expect(unsetAtPath(root, ['a', 'zz'])).toEqual({ value: { a: { b: 1 } }, removed: false });
    expect(unsetAtPath(root, ['a', 'b', 'deeper']).removed).toBe(false);
    expect(unsetAtPath(root, ['toString']).removed).toBe(false);
  });

  it('refuses a position past the end of a list (its end is only for appending)', () => {
    // The index must exist as an own key to get that far; a list's length is own too.
    expect(() => unsetAtPath({ list: ['x'] }, ['list', 'length'])).toThrow(ConfigPathError);
    expect(unsetAtPath({ list: ['x'] }, ['list', 1]).removed).toBe(false);
  });

  it('keeps __proto__ an own key while removing beneath it', () => {
    const withProto = setAtPath({}, ['__proto__', 'k'], 1);
    const r = unsetAtPath(withProto, ['__proto__', 'k']);
    expect(r.removed).toBe(true);
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(Object.keys(r.value as object)).toEqual(['__proto__']);
  });
});
