import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { createToolSearch, searchTerms, type SearchEntry } from '../../../src-shared/codemode/search.ts';

const { tools } = JSON.parse(readFileSync(new URL('../../fixtures/catalogs/github.json', import.meta.url), 'utf8')) as {
  tools: { name: string; description: string; inputSchema: { properties?: Record<string, unknown> } }[];
};
const entries: SearchEntry[] = tools.map((t) => ({
  name: `github.${t.name}`,
  description: t.description,
  params: Object.keys(t.inputSchema.properties ?? {}),
}));
const search = createToolSearch(entries);
const top = (query: string, limit?: number) => search.search(query, limit).map((h) => h.name);

describe('createToolSearch', () => {
  it('ranks github.create_issue first for "create issue"', () => {
    expect(top('create issue')[0]).toBe('github.create_issue');
  });

  it('finds list_pull_requests in the top 3 for "list pull requests"', () => {
    expect(top('list pull requests', 3)).toContain('github.list_pull_requests');
  });

  it('matches words split from names, camelCase and plurals', () => {
    expect(top('merge pull request', 3)).toContain('github.merge_pull_request');
    expect(top('dependabot alerts', 2)).toEqual(['github.list_dependabot_alerts', 'github.get_dependabot_alert']);
    expect(top('star repository')[0]).toBe('github.star_repository');
  });

  it('forgives a typo', () => {
    expect(top('delete repositry', 3)).toContain('github.delete_repository');
  });

  it('finds a tool by a parameter name', () => {
    const params = createToolSearch([
      { name: 'a.run', description: 'Runs things', params: ['workflowId'] },
      { name: 'b.fetch', description: 'Fetches things', params: ['url'] },
    ]);
    expect(params.search('workflow').map((h) => h.name)).toEqual(['a.run']);
  });

  it('ranks by relevance, not by substring', () => {
    const s = createToolSearch([
      { name: 'x.reissue_token', description: 'Rotates an API token' },
      { name: 'x.open_ticket', description: 'Opens an issue in the tracker' },
    ]);
    expect(s.search('issue').map((h) => h.name)).toEqual(['x.open_ticket']);
  });

  it('returns 10 hits by default and never more than 50', () => {
    expect(search.search('github').length).toBe(10);
    expect(search.search('github', 500).length).toBe(50);
    expect(search.search('github', 3).length).toBe(3);
  });

  it('returns short descriptions with each name', () => {
    const [hit] = search.search('get me', 1);
    expect(hit).toEqual({ name: 'github.get_me', description: expect.any(String) });
    for (const h of search.search('pull request', 50)) expect(h.description.length).toBeLessThanOrEqual(300);
  });

  it('refuses an empty query with a sentence showing an example', () => {
    expect(() => search.search('  ')).toThrow(SwitchboardError);
    expect(() => search.search('')).toThrow('search_tools needs a non-empty "query", e.g. "create issue"');
    try {
      search.search('');
    } catch (err) {
      expect((err as SwitchboardError).code).toBe('bad-request');
    }
  });

  it('refuses a limit that is not a whole number from 1', () => {
    expect(() => search.search('issue', 0)).toThrow(/limit/);
    expect(() => search.search('issue', 2.5)).toThrow(/limit/);
  });

  it('finds nothing for words no tool uses', () => {
    expect(search.search('zebra quasar')).toEqual([]);
  });
});

describe('searchTerms', () => {
  it('splits names on _ . - and camelCase', () => {
    expect(searchTerms('github.listPullRequests')).toEqual(['github', 'list', 'Pull', 'Requests']);
    expect(searchTerms('get-HTTPResponse_code')).toEqual(['get', 'HTTP', 'Response', 'code']);
  });
});
