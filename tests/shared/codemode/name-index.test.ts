import { describe, expect, it } from 'vitest';
import { NAME_INDEX_CHARS, globalsList, nameIndex } from '../../../src-shared/codemode/name-index.ts';

describe('the compact name index', () => {
  it('lists every name when they fit', () => {
    expect(nameIndex({ github: ['create_issue', 'get_me'], fs: ['read_file'], empty: [] })).toBe(
      'Tool names by server (all 3):\ngithub: create_issue, get_me\nfs: read_file',
    );
    expect(nameIndex({})).toBe('');
  });

  it('stays within its budget, gives every server names in turn, and says how many it left out', () => {
    const globals = {
      big: Array.from({ length: 1000 }, (_, i) => `some_rather_long_tool_name_${i}`),
      small: ['a_tool', 'b_tool'],
    };
    const text = nameIndex(globals);
    expect(text.length).toBeLessThanOrEqual(NAME_INDEX_CHARS);
    expect(text.length).toBeGreaterThan(NAME_INDEX_CHARS - 100);
    expect(text).toMatch(/^Tool names by server \(\d+ of 1002, as many as fit in 9,000 characters; find the others with search_tools\):\n/);
    expect(text).toContain('\nsmall: a_tool, b_tool');
    const shown = Number(/\((\d+) of/.exec(text)![1]);
    const more = Number(/… \+(\d+) more/.exec(text)![1]);
    expect(shown + more).toBe(1002);
    // Every listed name is real, and whole.
    const bigLine = text.split('\n').find((l) => l.startsWith('big: '))!;
    const names = bigLine.slice(5).split(', ').filter((n) => !n.startsWith('…'));
    expect(names).toEqual(globals.big.slice(0, names.length));
  });

  it('counts the servers that do not fit at all', () => {
    const globals = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`server_${i}`, ['t']]));
    const text = nameIndex(globals);
    expect(text.length).toBeLessThanOrEqual(NAME_INDEX_CHARS);
    expect(text).toMatch(/\n… and \d+ more servers$/);
  });

  it('names server globals within their own budget', () => {
    expect(globalsList(['a', 'b'])).toBe('`a`, `b`');
    const many = globalsList(Array.from({ length: 500 }, (_, i) => `server_${i}`));
    expect(many.length).toBeLessThanOrEqual(600);
    expect(many).toMatch(/… and \d+ more$/);
  });
});
