// Tool search for search_tools and catalog.search: relevance over names, descriptions and
// parameter names (SPEC §5), using MiniSearch's BM25 ranking with fuzzy and prefix matching.
import MiniSearch from 'minisearch';
import { SwitchboardError } from '../errors.ts';
import {
  MAX_QUERY_CHARS,
  MAX_QUERY_TERMS,
  MAX_TERM_CHARS,
  queryTooLongMessage,
  termTooLongMessage,
  tooManyTermsMessage,
} from './catalog-limits.ts';

export interface SearchEntry {
  /** The name as written in code, e.g. `github.create_issue`. */
  name: string;
  description?: string;
  /** Top-level parameter names of the tool. */
  params?: string[];
}

export interface SearchHit {
  name: string;
  description: string;
}

export interface ToolSearch {
  /** Best matches first. `limit` defaults to 10 and is capped at 50. */
  search(query: string, limit?: number): SearchHit[];
}

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;
/** Hits are for choosing a tool; describe gives the whole text. */
const MAX_HIT_DESCRIPTION_CHARS = 300;

// Words that say nothing about which tool is meant; left in, they rank long descriptions up.
const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'its',
  'of', 'on', 'or', 'that', 'the', 'this', 'to', 'with',
]);

/** Splits `listPullRequests`, `list_pull_requests`, `github.list-pulls` and prose alike into words. */
export function searchTerms(text: string): string[] {
  return text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}

interface IndexedEntry {
  id: number;
  name: string;
  nameTerms: string;
  description: string;
  params: string;
}

export function createToolSearch(entries: SearchEntry[]): ToolSearch {
  const docs: IndexedEntry[] = entries.map((e, id) => ({
    id,
    name: e.name,
    nameTerms: searchTerms(e.name).join(' '),
    description: e.description ?? '',
    params: (e.params ?? []).flatMap(searchTerms).join(' '),
  }));
  const index = new MiniSearch<IndexedEntry>({
    fields: ['nameTerms', 'description', 'params'],
    tokenize: searchTerms,
    processTerm,
    searchOptions: {
      boost: { nameTerms: 4, params: 1.5, description: 1 },
      // Short words match too much when fuzzy; a typo in a long word is what fuzzy is for.
      fuzzy: (term) => (term.length > 3 ? 0.2 : false),
      prefix: (term) => term.length > 1,
      combineWith: 'OR',
      maxFuzzy: 2,
    },
  });
  index.addAll(docs);

  return {
    search(query, limit) {
      if (typeof query !== 'string' || query.trim() === '') {
        throw new SwitchboardError('bad-request', 'search_tools needs a non-empty "query", e.g. "create issue"');
      }
      const max = searchLimit(limit);
      checkQuerySize(query);
      const hits = index.search(query);
      // MiniSearch leaves ties in index order; sort them by name so results never depend on it.
      hits.sort((a, b) => b.score - a.score || (docs[a.id]!.name < docs[b.id]!.name ? -1 : 1));
      return hits.slice(0, max).map((h) => {
        const doc = docs[h.id as number]!;
        return { name: doc.name, description: shortDescription(doc.description) };
      });
    },
  };
}

/**
 * Refuses queries whose cost would be unbounded: MiniSearch's fuzzy matcher builds a table of
 * (word length)² per word (60,000 characters took 3.4 GB and seconds of the engine's thread).
 */
function checkQuerySize(query: string): void {
  if (query.length > MAX_QUERY_CHARS) throw new SwitchboardError('bad-request', queryTooLongMessage(query.length));
  const terms = searchTerms(query);
  if (terms.length > MAX_QUERY_TERMS) throw new SwitchboardError('bad-request', tooManyTermsMessage(terms.length));
  const longest = terms.reduce((n, t) => Math.max(n, t.length), 0);
  if (longest > MAX_TERM_CHARS) throw new SwitchboardError('bad-request', termTooLongMessage(longest));
}

function searchLimit(limit: number | undefined): number {
  if (limit === undefined || limit === null) return DEFAULT_SEARCH_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new SwitchboardError('bad-request', `"limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}; leave it out for ${DEFAULT_SEARCH_LIMIT}.`);
  }
  return Math.min(limit, MAX_SEARCH_LIMIT);
}

function shortDescription(text: string): string {
  const firstParagraph = text.trim().split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ');
  return firstParagraph.length > MAX_HIT_DESCRIPTION_CHARS
    ? `${firstParagraph.slice(0, MAX_HIT_DESCRIPTION_CHARS - 1)}…`
    : firstParagraph;
}
