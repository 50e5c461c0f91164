// Profile filters (SPEC §3 and issue 11): tool and prompt names match as file names do,
// resource URIs with `*` spanning `/`; a server whose tools are all denied hides everything.
import { describe, expect, it } from 'vitest';
import { compileServerFilters, deniesEverything } from '../../../src-main/engine/gateway/tool-filter.ts';

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
