// The one matcher of config.json's globs over names: `*` spans every character, `/` and `.`
// included, and names of any shape (slashes, dots, dashes, spaces, unicode) match as written.
import { describe, expect, it } from 'vitest';
import { globMatcher, globMatches, globProblem, literalGlob, matchesEverything, MAX_BRACE_ALTERNATIVES } from '../../src-shared/glob.ts';

const NAMES = ['wipe', 'admin/wipe', 'a.b.c', 'get-sum', 'read file', 'café', 'ツール/削除', '🚀launch', '.hidden', 'x/y.z-w v', ''];

describe('globMatches', () => {
  it('`*` and `**` match every name, slashes, dots, spaces and unicode included', () => {
    for (const n of NAMES) expect([n, globMatches('*', n), globMatches('**', n)]).toEqual([n, true, true]);
  });

  it('`*` spans `/` and `.` in the middle of a pattern (`evil.*` is every tool of evil)', () => {
    expect(globMatches('evil.*', 'evil.admin/wipe')).toBe(true);
    expect(globMatches('evil.*', 'evil.wipe')).toBe(true);
    expect(globMatches('evil.*', 'evilx.wipe')).toBe(false);
    expect(globMatches('admin/*', 'admin/users/delete')).toBe(true);
    expect(globMatches('*/wipe', 'a/b/wipe')).toBe(true);
    expect(globMatches('*wipe', 'admin/wipe')).toBe(true);
    expect(globMatches('a*', 'a/b')).toBe(true);
  });

  it('`.`, `/`, `-`, spaces, `(`, `!` and unicode are themselves', () => {
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('a.b', 'a.b')).toBe(true);
    expect(globMatches('read file', 'read file')).toBe(true);
    expect(globMatches('read file', 'read_file')).toBe(false);
    expect(globMatches('get-*', 'get-sum')).toBe(true);
    expect(globMatches('ツール/*', 'ツール/削除')).toBe(true);
    expect(globMatches('caf?', 'café')).toBe(true);
    expect(globMatches('?launch', '🚀launch')).toBe(true);
    expect(globMatches('x(1)', 'x(1)')).toBe(true);
    expect(globMatches('a!b', 'a!b')).toBe(true);
  });

  it('compares names as NFC: a decomposed é is the same name', () => {
    expect(globMatches('café', 'cafe\u0301')).toBe(true);
    expect(globMatches('cafe\u0301*', 'café au lait')).toBe(true);
  });

  it('is case-sensitive and anchored at both ends', () => {
    expect(globMatches('Wipe', 'wipe')).toBe(false);
    expect(globMatches('wipe', 'wipe2')).toBe(false);
    expect(globMatches('wipe', 'xwipe')).toBe(false);
  });

  it('`?` is one character, `[…]` one of a set, `\\` makes the next plain', () => {
    expect(['ab', 'a/', 'a', 'abc'].map((n) => globMatches('a?', n))).toEqual([true, true, false, false]);
    expect(['v1', 'v5', 'v9', 'vx'].map((n) => globMatches('v[1-5]', n))).toEqual([true, true, false, false]);
    expect(['v1', 'vx'].map((n) => globMatches('v[!1-5]', n))).toEqual([false, true]);
    expect(globMatches('a\\*b', 'a*b')).toBe(true);
    expect(globMatches('a\\*b', 'axb')).toBe(false);
    expect(globMatches('[', '[')).toBe(true);
  });

  it('braces are alternatives for names, plain text for URIs; `{id}` is plain either way', () => {
    expect(['get_issue', 'list_issue', 'put_issue'].map(globMatcher(['{get,list}_issue']))).toEqual([true, true, false]);
    expect(globMatches('{a,{b,c}}x', 'cx')).toBe(true);
    expect(globMatches('test://r/{id}', 'test://r/{id}')).toBe(true);
    expect(globMatches('test://r/{a,b}', 'test://r/{a,b}', { braces: false })).toBe(true);
    expect(globMatches('test://r/{a,b}', 'test://r/a', { braces: false })).toBe(false);
  });

  it('a pattern with braces past the limit matches them as text instead of growing without end', () => {
    const many = '{a,b}'.repeat(12); // 4,096 alternatives
    expect(2 ** 12).toBeGreaterThan(MAX_BRACE_ALTERNATIVES);
    expect(globMatches(many, 'ab'.repeat(6))).toBe(false);
    expect(globMatches(many, many)).toBe(true);
  });

  it('takes no more than pattern × name steps on a hostile pattern and name', () => {
    const name = 'a'.repeat(20_000);
    const started = performance.now();
    expect(globMatches('*a*a*a*a*a*a*a*a*b', name)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('escapes a name into a pattern that matches only it', () => {
    for (const n of [...NAMES, 'get_{a,b}*?', 'x[1]\\y']) {
      const g = literalGlob(n);
      expect(globMatches(g, n)).toBe(true);
      expect(globMatches(g, n + 'x')).toBe(false);
    }
    expect(literalGlob('get_{a,b}*?')).toBe('get_\\{a,b\\}\\*\\?');
  });
});

describe('globMatcher', () => {
  it('matches when any pattern does, and nothing for no patterns', () => {
    const m = globMatcher(['read_*', 'admin/*']);
    expect(['read_x', 'admin/wipe', 'wipe'].map(m)).toEqual([true, true, false]);
    expect(globMatcher([])('x')).toBe(false);
  });
});

describe('matchesEverything and globProblem', () => {
  it('knows the patterns that switch a server off', () => {
    expect(['*', '**', '***'].map(matchesEverything)).toEqual([true, true, true]);
    expect(['', '*a', '\\*'].map(matchesEverything)).toEqual([false, false, false]);
  });

  it('refuses other dialects with a sentence, and takes escaped or ordinary text', () => {
    expect(globProblem('!read_*')).toMatch(/starts with "!", which does not mean "not" here/);
    expect(globProblem('@(a|b)')).toMatch(/uses "@\(…\)", which is not a pattern here/);
    expect(globProblem('get*(x)')).toMatch(/not a pattern here/);
    for (const ok of ['a!b', '\\!x', 'x(1)', 'get_\\*(1)', 'evil.*', 'file:///docs/*']) expect([ok, globProblem(ok)]).toEqual([ok, undefined]);
  });
});
