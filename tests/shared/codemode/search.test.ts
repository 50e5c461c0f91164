import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { buildCodeCatalog } from '../../../src-shared/codemode/catalog.ts';
import { compoundParts, createToolSearch, searchTerms, type SearchEntry } from '../../../src-shared/codemode/search.ts';
import { evalCatalog } from '../../fixtures/search-eval/evaluate.ts';

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

describe('search in other words than the tools\' (concepts, stems, titles)', () => {
  const four = evalCatalog();
  const first = (query: string) => four.search(query, 1)[0]?.name;

  it('finds a tool asked for in words it does not use', () => {
    expect(first('open a pull request')).toBe('github.create_pull_request');
    expect(first('make a new folder')).toBe('filesystem.create_directory');
    expect(first('who am I logged in as')).toBe('github.get_me');
    expect(first('forget a fact')).toBe('memory.delete_observations');
  });

  it('reads a phrase as one meaning: "file a bug report" files no file', () => {
    expect(first('file a bug report')).toBe('github.create_issue');
  });

  it('indexes titles, from the tool and from its annotations', () => {
    const s = createToolSearch([
      { name: 'a.env', titles: ['Print Environment'], description: 'Returns variables' },
      { name: 'b.other', description: 'Returns something' },
    ]);
    expect(s.search('print environment').map((h) => h.name)).toEqual(['a.env']);
    const catalog = buildCodeCatalog([
      {
        server: 'keys',
        tools: [
          { name: 't1', annotations: { title: 'Rotate credentials' }, description: 'Does a thing', inputSchema: { type: 'object' } },
          { name: 't2', title: 'Quarantine host', description: 'Does another thing', inputSchema: { type: 'object' } },
          // A server may send anything as a title; it is left out, not thrown on.
          { name: 't3', title: 42 as unknown as string, annotations: { title: {} as unknown as string }, description: 'Third', inputSchema: { type: 'object' } },
        ],
      },
    ]);
    expect(catalog.search('rotate', 3).map((h) => h.name)).toEqual(['keys.t1']);
    expect(catalog.search('quarantine', 3).map((h) => h.name)).toEqual(['keys.t2']);
    expect(catalog.search('third', 3).map((h) => h.name)).toEqual(['keys.t3']);
  });

  it('matches a word some tool has exactly, and widens only unknown words by typo and prefix', () => {
    const s = createToolSearch([
      { name: 'x.list_cats', description: 'Lists cats' },
      { name: 'x.list_cars', description: 'Lists cars' },
      { name: 'x.kubernetes_deploy', description: 'Deploys to a cluster' },
    ]);
    // "cats" is a word here: "cars", one letter away, is another word, not a typo of it.
    expect(s.search('cats').map((h) => h.name)).toEqual(['x.list_cats']);
    expect(s.search('kube').map((h) => h.name)).toEqual(['x.kubernetes_deploy']);
    expect(s.search('kubernets').map((h) => h.name)).toEqual(['x.kubernetes_deploy']);
  });
});

describe('search reads English the concept map alone would not', () => {
  const s = createToolSearch([
    { name: 'x.create_ticket', description: 'Creates a ticket' },
    { name: 'x.list_tickets', description: 'Lists tickets, filtered by state' },
    { name: 'x.open_drawer', description: 'Opens the drawer' },
  ]);
  const names = (query: string) => s.search(query, 3).map((h) => h.name);

  it('reads "open" before a determiner as a verb and before a plural or after a determiner as a filter', () => {
    expect(names('open a ticket').slice(0, 2).sort()).toEqual(['x.create_ticket', 'x.open_drawer']);
    expect(names('open tickets')[0]).toBe('x.list_tickets');
    expect(names('show the open ticket')[0]).toBe('x.list_tickets');
    // The adjective is no word of the query: it does not pull open_drawer up.
    expect(names('open tickets')).not.toContain('x.open_drawer');
  });

  it('reads things named in the plural, with nothing to do with them, as a list', () => {
    expect(names('my tickets')[0]).toBe('x.list_tickets');
    expect(names('my ticket')[0]).not.toBe('x.list_tickets');
  });

  it('indexes the operations of a tool that does several things, from its operation parameter', () => {
    const catalog = buildCodeCatalog([
      {
        server: 'gh',
        tools: [
          { name: 'pr_read', description: 'Reads a pull request', inputSchema: { type: 'object', properties: { method: { type: 'string', enum: ['get', 'get_diff', 'get_check_runs'] } } } },
          { name: 'pr_get', description: 'Gets a pull request', inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: ['diff'] } } } },
          // A schema may send anything: values that are no strings are left out.
          { name: 'odd', description: 'Odd', inputSchema: { type: 'object', properties: { method: { enum: [1, null, {}] } } } },
        ],
      },
    ]);
    // Only an operation parameter counts: another enum's values are no operations.
    expect(catalog.search('diff of a pull request', 3).map((h) => h.name)[0]).toBe('gh.pr_read');
    expect(catalog.search('check runs', 3).map((h) => h.name)).toEqual(['gh.pr_read']);
  });
});

describe('search over many servers', () => {
  const tool = (name: string, description: string, properties: Record<string, { type: string; description?: string }> = {}) => ({
    name,
    description,
    inputSchema: { type: 'object', properties },
  });
  const names = (catalog: ReturnType<typeof buildCodeCatalog>, query: string, limit = 3) => catalog.search(query, limit).map((h) => h.name);

  it('ranks first the tools of a server the query names, though another server has the same tool', () => {
    const catalog = buildCodeCatalog([
      { server: 'github', tools: [tool('get_file_contents', 'Get the contents of a file or directory from a GitHub repository'), tool('create_branch', 'Create a new branch in a GitHub repository')] },
      { server: 'gitlab', tools: [tool('get_file_contents', 'Get the contents of a file or directory from a project'), tool('create_branch', 'Create a new branch in a project')] },
    ]);
    expect(names(catalog, 'read a file from a gitlab repo')[0]).toBe('gitlab.get_file_contents');
    expect(names(catalog, 'new branch on gitlab')[0]).toBe('gitlab.create_branch');
    expect(names(catalog, 'new branch on github')[0]).toBe('github.create_branch');
  });

  it('lets the server whose tools speak of the query lift them over a larger server with generic verbs in its names', () => {
    const catalog = buildCodeCatalog([
      {
        server: 'gh',
        tools: ['comment', 'label', 'reaction', 'sub_issue', 'assignee', 'reviewer'].map((x) => tool(`add_${x}`, `Add a ${x.replace('_', ' ')} to an issue`)),
      },
      {
        server: 'kube',
        tools: [
          tool('scale', 'Scale a deployment', { replicas: { type: 'number', description: 'Number of replicas' } }),
          tool('get', 'Get or list resources', { resourceType: { type: 'string', description: 'Type of resource, e.g. pods, replicasets' } }),
          tool('apply', 'Apply a manifest', { manifest: { type: 'string', description: 'YAML of a deployment with its replicas' } }),
        ],
      },
    ]);
    expect(names(catalog, 'add more replicas')[0]).toBe('kube.scale');
    // The schema's descriptions are searched: "pods" is only there.
    expect(names(catalog, 'list the pods')[0]).toBe('kube.get');
  });

  it('reads a web address as a URL', () => {
    const catalog = buildCodeCatalog([
      { server: 'browser', tools: [tool('navigate', 'Navigate to a URL'), tool('navigate_back', 'Go back to the previous page in the history')] },
    ]);
    expect(names(catalog, 'go to example.com')[0]).toBe('browser.navigate');
    expect(names(catalog, 'go to https://example.org/docs')[0]).toBe('browser.navigate');
  });

  it('meets a tool through a WordNet synonym of a word no tool uses', () => {
    const catalog = buildCodeCatalog([
      { server: 'pay', tools: [tool('list_customers', 'List customers'), tool('list_invoices', 'List invoices'), tool('list_prices', 'List prices')] },
    ]);
    expect(names(catalog, 'show my bills')[0]).toBe('pay.list_invoices');
    expect(names(catalog, 'what does it cost')[0]).toBe('pay.list_prices');
  });

  it('reads a word no tool uses as two words some tool does', () => {
    const catalog = buildCodeCatalog([
      {
        server: 'pay',
        tools: [
          tool('list_customers', 'List customers'),
          tool('create_refund', 'Refund a charge'),
          tool('list_disputes', 'List disputes: a customer contests a charge with their bank'),
        ],
      },
      { server: 'files', tools: [tool('list_directory', 'List the entries of a directory'), tool('list_allowed_directories', 'List the directories this server may read')] },
      { server: 'net', tools: [tool('forward_port', 'Forward a local port to a port on a remote host'), tool('navigate_back', 'Go back to the previous page')] },
    ]);
    expect(names(catalog, 'show chargebacks')[0]).toBe('pay.list_disputes');
    expect(names(catalog, 'reach the database on localhost')[0]).toBe('net.forward_port');
    expect(compoundParts('chargeback', new Set(['charg', 'back', 'list']))).toEqual(['charg', 'back']);
    // A plural "s" or a single letter is no word of its own.
    expect(compoundParts('disputes', new Set(['disput', 's', 'dispute']))).toEqual([]);
  });

  it('weighs the concepts of a generic verb as little as the verb when the query has other words', () => {
    // "show" says read and list to the concept map; tools that only list or read must not outrank
    // the one tool that speaks of what is to be shown.
    const catalog = buildCodeCatalog([
      { server: 'files', tools: [tool('list_directory', 'List the entries of a directory'), tool('read_file', 'Read a file'), tool('list_sessions', 'List the open sessions')] },
      { server: 'pay', tools: [tool('retrieve_balance', 'Retrieve the balance of the account'), tool('create_payout', 'Send money to a bank account'), tool('create_refund', 'Refund a charge')] },
    ]);
    const ranked = names(catalog, 'show the bank', 6);
    expect(ranked.indexOf('pay.create_payout')).toBeLessThan(Math.min(...ranked.filter((n) => n.startsWith('files.')).map((n) => ranked.indexOf(n))));
  });

  it('finds a tool by a broader word for its name (WordNet hypernyms)', () => {
    const catalog = buildCodeCatalog([
      { server: 'pay', tools: [tool('list_subscriptions', 'List all subscriptions'), tool('list_customers', 'List customers'), tool('list_products', 'List products')] },
    ]);
    // WordNet: a subscription is a payment; no tool says "payments".
    expect(names(catalog, 'recurring payments')[0]).toBe('pay.list_subscriptions');
  });
});

describe('searchTerms', () => {
  it('keeps a plural acronym one word', () => {
    expect(searchTerms('show the open PRs')).toEqual(['show', 'the', 'open', 'PRS']);
    expect(searchTerms('getPRs and URLs')).toEqual(['get', 'PRS', 'and', 'URLS']);
  });

  it('splits names on _ . - and camelCase', () => {
    expect(searchTerms('github.listPullRequests')).toEqual(['github', 'list', 'Pull', 'Requests']);
    expect(searchTerms('get-HTTPResponse_code')).toEqual(['get', 'HTTP', 'Response', 'code']);
  });
});
