import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { buildCodeCatalog, INLINE_DECLARATION_LIMIT, type CatalogTool } from '../../../src-shared/codemode/catalog.ts';
import { CATALOG_DECLARATION, declarationsFor } from '../../../src-shared/codemode/declarations.ts';
import { MAX_DESCRIBE_NAMES, MAX_QUERY_CHARS, MAX_SUGGESTED_NAMES } from '../../../src-shared/codemode/catalog-limits.ts';

const load = (path: string): CatalogTool[] => (JSON.parse(readFileSync(path, 'utf8')) as { tools: CatalogTool[] }).tools;
const github = load(fileURLToPath(new URL('../../fixtures/catalogs/github.json', import.meta.url)));
const everything = load(fileURLToPath(new URL('../../fixtures/catalogs/everything.json', import.meta.url)));

function caught(fn: () => unknown): SwitchboardError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SwitchboardError) return err;
    throw err;
  }
  throw new Error('expected a SwitchboardError');
}

describe('buildCodeCatalog', () => {
  const big = buildCodeCatalog([
    { server: 'github', tools: github },
    { server: 'everything', tools: everything },
  ]);
  const small = buildCodeCatalog([{ server: 'beta-2', description: 'The demo server', tools: everything }]);

  it('lists globals with their methods and resolves them back to upstream names', () => {
    expect(Object.keys(small.globals)).toEqual(['beta_2']);
    expect(small.globals.beta_2).toContain('get_sum');
    expect(small.resolve('beta_2', 'get_sum')).toEqual({ server: 'beta-2', tool: 'get-sum' });
    expect(small.resolve('beta_2', 'get-sum')).toBeUndefined();
    expect(small.resolve('beta-2', 'get_sum')).toBeUndefined();
    expect(small.entries.find((e) => e.tool === 'get-sum')?.name).toBe('beta_2.get_sum');
  });

  it('inlines declarations of at most 12,000 characters and counts them', () => {
    expect(small.declarationChars).toBe(small.declarations.length);
    expect(small.declarationChars).toBeLessThanOrEqual(INLINE_DECLARATION_LIMIT);
    expect(small.inline).toBe(true);
    expect(small.declarations.startsWith(CATALOG_DECLARATION)).toBe(true);
    expect(small.declarations).toContain('/** The demo server */\ndeclare const beta_2: {');
    expect(big.declarationChars).toBeGreaterThan(INLINE_DECLARATION_LIMIT);
    expect(big.inline).toBe(false);
  });

  it('builds the same declarations as declarationsFor', () => {
    const servers = [{ global: 'beta_2', description: 'The demo server', tools: everything.map((t) => ({ ...t, method: t.name.replace(/-/g, '_') })) }];
    expect(small.declarations).toBe(declarationsFor(servers));
  });

  it('describes only the tools asked for, by code name or upstream name', () => {
    const text = big.describe(['github.get_me', 'everything.get-sum']);
    expect(text).toContain('declare const github: {');
    expect(text).toContain('get_me(args?: {}): Promise<unknown>;');
    expect(text).toContain('declare const everything: {');
    expect(text).toContain('get_sum(args: {');
    expect(text).not.toContain('create_issue');
    expect(text).not.toContain('declare const catalog');
  });

  it('names unknown tools with the closest real names', () => {
    const err = caught(() => big.describe(['github.crete_issue', 'github.get_me']));
    expect(err.code).toBe('unknown-tool');
    expect(err.message).toContain('"github.crete_issue" (closest: github.create_issue');
    expect(err.message).toContain('github, everything');
    expect(err.message).not.toContain('"github.get_me"');
  });

  it('suggests by meaning when no name is close in spelling', () => {
    expect(big.suggest('github.open_new_ticket_for_bug')).not.toEqual([]);
    expect(big.suggest('github.list_pull_request')[0]).toBe('github.list_pull_requests');
  });

  it('refuses an empty list of names', () => {
    expect(caught(() => big.describe([])).code).toBe('bad-request');
  });

  it('searches with code names', () => {
    expect(big.search('create issue', 3)[0]?.name).toBe('github.create_issue');
    expect(small.search('sum two numbers')[0]?.name).toBe('beta_2.get_sum');
  });

  it('leaves out nothing and invents nothing for an empty profile', () => {
    const empty = buildCodeCatalog([]);
    expect(empty.globals).toEqual({});
    expect(empty.inline).toBe(true);
    expect(empty.search('anything')).toEqual([]);
    expect(caught(() => empty.describe(['x.y'])).message).toContain('This profile has no tools.');
  });

  it('keeps a server global even when sanitising and reserved names make it collide', () => {
    const c = buildCodeCatalog([
      { server: 'console', tools: [{ name: 'log', inputSchema: { type: 'object' } }] },
      { server: 'console_', tools: [{ name: 'log', inputSchema: { type: 'object' } }] },
    ]);
    expect(Object.keys(c.globals).sort()).toEqual(['console_', 'console__2']);
    expect(c.resolve('console_', 'log')).toEqual({ server: 'console_', tool: 'log' });
    expect(c.resolve('console__2', 'log')).toEqual({ server: 'console', tool: 'log' });
  });
});

describe('catalog lookups are bounded', () => {
  const catalog = buildCodeCatalog([{ server: 'github', tools: github }]);

  it('refuses a query over the character cap, saying what to send', () => {
    const err = caught(() => catalog.search('a'.repeat(60_000)));
    expect(err.code).toBe('bad-request');
    expect(err.message).toBe('The search query is 60,000 characters; search with a few words (at most 1,000 characters), e.g. "create issue".');
    expect(caught(() => catalog.search('x'.repeat(45_000))).message).toMatch(/at most 1,000 characters/);
  });

  it('refuses a query of too many words or with an overlong word', () => {
    expect(caught(() => catalog.search(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).message).toMatch(/has 100 words; use at most 32/);
    expect(caught(() => catalog.search('issue ' + 'q'.repeat(200))).message).toMatch(/200 characters long; use words of at most 64/);
  });

  it('still searches at the caps', () => {
    const q = Array.from({ length: 32 }, (_, i) => (i === 0 ? 'issue' : `zz${i}`)).join(' ');
    expect(q.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(catalog.search(q, 50).map((h) => h.name)).toContain('github.create_issue');
  });

  it('refuses describing more names than the cap', () => {
    const err = caught(() => catalog.describe(Array.from({ length: 100_000 }, (_, i) => `github.nope_${i}`)));
    expect(err.code).toBe('bad-request');
    expect(err.message).toMatch(/^Asked for 100,000 tool names at once; ask for at most 100 at a time/);
  });

  it('suggests names for the first few unknown names only, and counts the rest', () => {
    const names = Array.from({ length: MAX_DESCRIBE_NAMES }, (_, i) => `github.crete_issue${i}`);
    const err = caught(() => catalog.describe(names));
    expect(err.code).toBe('unknown-tool');
    expect(err.message.match(/\(closest: /g)).toHaveLength(MAX_SUGGESTED_NAMES);
    expect(err.message).toContain('"github.crete_issue0" (closest: github.create_issue');
    expect(err.message).toContain('and 90 more');
    expect(err.message.length).toBeLessThan(2000);
  });

  it('cuts a very long unknown name in the message and still answers', () => {
    const err = caught(() => catalog.describe(['github.' + 'q'.repeat(100_000)]));
    expect(err.code).toBe('unknown-tool');
    expect(err.message.length).toBeLessThan(1000);
  });
});
