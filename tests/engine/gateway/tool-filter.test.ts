// Profile filters (docs/configuration.md and issue 11): tool and prompt names match as file names do,
// resource URIs with `*` spanning `/`; a server whose tools are all denied hides everything.
import { describe, expect, it } from 'vitest';
import { compileServerFilters, compileToolFilter, deniesEverything } from '../../../src-main/engine/gateway/tool-filter.ts';

describe('profile filters', () => {
  it('matches resource URIs with * across slashes, deny winning', () => {
    const f = compileServerFilters({ resources: { allow: ['file:///docs/*'], deny: ['*.key'] } });
    expect(f.resources('file:///docs/a/b.md')).toBe(true);
    expect(f.resources('file:///docs/a/id.key')).toBe(false);
    expect(f.resources('file:///etc/passwd')).toBe(false);
    // Template URIs match literally (no brace expansion).
    expect(compileServerFilters({ resources: { allow: ['test://static/resource/{id}'] } }).resources('test://static/resource/{id}')).toBe(true);
  });

  it('hides the resources and prompts of a server whose tools are all denied, unless listed', () => {
    for (const tools of [{ deny: ['*'] }, { deny: ['**'] }, { allow: [] }]) {
      expect(deniesEverything(tools)).toBe(true);
      const off = compileServerFilters({ tools });
      expect([off.tools('x'), off.resources('fixture://readme'), off.prompts('greet')]).toEqual([false, false, false]);
    }
    const some = compileServerFilters({ tools: { deny: ['*'] }, prompts: { allow: ['greet'] } });
    expect([some.prompts('greet'), some.prompts('other'), some.resources('fixture://readme')]).toEqual([true, false, false]);
    const partly = compileServerFilters({ tools: { deny: ['delete_*'] } });
    expect([partly.tools('delete_all'), partly.tools('read'), partly.resources('fixture://readme'), partly.prompts('greet')]).toEqual([false, true, true, true]);
  });
});

describe('compileToolFilter', () => {
  it('lets everything through without an entry, or with an entry that lists nothing', () => {
    for (const f of [undefined, {}, { deny: [] }]) expect([compileToolFilter(f)('anything'), compileToolFilter(f)('.hidden')]).toEqual([true, true]);
  });

  it('matches names whatever their characters: * spans / and ., dot names match, deny wins over allow', () => {
    const f = compileToolFilter({ allow: ['read_*', 'list'], deny: ['read_secret*'] });
    expect(['read_file', 'read_secret_key', 'list', 'list_all', 'write'].map(f)).toEqual([true, false, true, false, false]);
    expect(compileToolFilter({ allow: ['*'] })('.dotted')).toBe(true);
    expect(compileToolFilter({ allow: ['a*'] })('a/b')).toBe(true);
    expect(compileToolFilter({ deny: ['admin*'] })('admin/wipe')).toBe(false);
    expect(compileToolFilter({ deny: ['get_*'] })('get_me')).toBe(false);
    expect(compileToolFilter({ deny: ['get_*'] })('set_me')).toBe(true);
  });

  it('treats braces and extglobs in names as globs (names are not URIs)', () => {
    const f = compileToolFilter({ allow: ['{get,list}_issue'] });
    expect(['get_issue', 'list_issue', 'put_issue'].map(f)).toEqual([true, true, false]);
  });

  it('says a filter denies everything only for deny *, deny ** or an empty allow', () => {
    expect([undefined, {}, { allow: ['*'] }, { deny: ['*_x'] }].map(deniesEverything)).toEqual([false, false, false, false]);
    expect([{ deny: ['a', '*'] }, { allow: [], deny: [] }].map(deniesEverything)).toEqual([true, true]);
  });
});
