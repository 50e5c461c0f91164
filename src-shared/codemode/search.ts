// Tool search for search_tools and catalog.search: relevance over names, titles, descriptions
// and parameter names (SPEC §5). MiniSearch ranks with BM25 over stemmed words, and a second
// pair of fields holds each tool's concepts (search-concepts.ts), so a query in other words than
// the tool's ("make a new folder") still meets it (create_directory). Two readings of English
// the map cannot make are made on the query: "open" as an adjective ("the open PRs") filters a
// list, and things named in the plural with nothing to do to them are to be listed. A tool that
// folds several into one (`method: "get_diff" | …`) is indexed by its operations too. Fuzzy and prefix matching
// are kept for words no tool uses (typos, halves of words): expanding every word that way costs
// more than the 2 ms a search may take at 1,000 tools.
import MiniSearch, { type Query } from 'minisearch';
import { SwitchboardError } from '../errors.ts';
import {
  MAX_QUERY_CHARS,
  MAX_QUERY_TERMS,
  MAX_TERM_CHARS,
  queryTooLongMessage,
  termTooLongMessage,
  tooManyTermsMessage,
} from './catalog-limits.ts';
import { CONCEPT_GROUPS } from './search-concepts.ts';
import { stem } from './stem.ts';

export interface SearchEntry {
  /** The name as written in code, e.g. `github.create_issue`. */
  name: string;
  /** The tool's display titles (`title`, `annotations.title`), when it has them. */
  titles?: string[];
  description?: string;
  /** Top-level parameter names of the tool. */
  params?: string[];
  /**
   * What a tool that does several things can do: the values of its operation parameter
   * (`method: "get_diff" | "get_review_comments" | …`), as servers that fold many tools into one list them.
   */
  operations?: string[];
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
// Phrases are matched before these are dropped, so "who am I" still means the current user.
const STOP_WORDS = new Set([
  'a', 'am', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'has', 'have',
  'how', 'i', 'in', 'into', 'is', 'it', 'its', 'my', 'of', 'on', 'or', 'our', 'please', 'so', 'some',
  'that', 'the', 'their', 'them', 'there', 'these', 'this', 'those', 'to', 'us', 'was', 'we', 'what',
  'when', 'where', 'which', 'who', 'why', 'will', 'with', 'would', 'you', 'your',
].map(stem));

/** Splits `listPullRequests`, `list_pull_requests`, `github.list-pulls` and prose alike into words. */
export function searchTerms(text: string): string[] {
  return text
    // A plural acronym is one word ("PRs", "URLs"), not "P" and "Rs".
    .replace(/(?<!\p{Lu})(\p{Lu}{2,})s(?!\p{L})/gu, '$1S')
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

const stemmed = (text: string): string[] => searchTerms(text).map((t) => stem(t.toLowerCase()));

// Concept ids start with a character no word has, so they never meet words in the shared index.
const CONCEPT_MARK = '~';

/** First stem of a phrase → the phrases (as stems) starting with it and their concept. */
const PHRASES = new Map<string, { stems: string[]; concept: string }[]>();
for (const [concept, phrases] of Object.entries(CONCEPT_GROUPS)) {
  for (const phrase of phrases) {
    const stems = stemmed(phrase);
    if (stems.length === 0) continue;
    const list = PHRASES.get(stems[0]!) ?? [];
    list.push({ stems, concept: CONCEPT_MARK + concept });
    PHRASES.set(stems[0]!, list);
  }
}

/**
 * The concepts a text speaks of, once per word or phrase that says it. At each word the longest
 * phrase of the map wins and its words say nothing more: "pull request" is not also a request,
 * and "file a bug" files no file.
 */
function concepts(stems: string[]): { concepts: string[]; spent: Set<number> } {
  const found: string[] = [];
  const spent = new Set<number>();
  for (let i = 0; i < stems.length; ) {
    let longest = 0;
    let said: string[] = [];
    for (const p of PHRASES.get(stems[i]!) ?? []) {
      if (p.stems.length < longest || !p.stems.every((s, k) => stems[i + k] === s)) continue;
      if (p.stems.length > longest) [longest, said] = [p.stems.length, []];
      said.push(p.concept);
    }
    found.push(...said);
    if (longest > 1) for (let k = 0; k < longest; k++) spent.add(i + k);
    i += Math.max(1, longest);
  }
  return { concepts: found, spent };
}

const words = (stems: string[]): string[] => stems.filter((s) => !STOP_WORDS.has(s));

// Words before a noun that say which one, not what to do with it.
const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'their', 'its', 'some', 'any', 'each', 'every', 'all', 'new', 'one']);
const PLURAL = /[^s]s$/;

/**
 * "open" is a verb before a determiner ("open a pull request": create, "open the file": read)
 * and an adjective after one or before a plural ("the open PRs", "open issues"): a filter on
 * what is listed, which says nothing about creating or reading. The query's words as written.
 */
function adjectivalOpen(lower: string[], i: number): boolean {
  if (lower[i] !== 'open') return false;
  const next = lower[i + 1];
  if (next === undefined || DETERMINERS.has(next)) return false;
  const prev = lower[i - 1];
  if (prev !== undefined && DETERMINERS.has(prev)) return true;
  return lower.slice(i + 1, i + 3).some((w) => PLURAL.test(w));
}

// Concepts that say what to do; a query without one that names things in the plural asks to list them.
const ACTIONS = new Set(
  ['create', 'delete', 'update', 'read', 'list', 'search', 'merge', 'trigger', 'write', 'move', 'push', 'fork', 'star', 'assign', 'resolve', 'request', 'toggle', 'compress', 'echo', 'sum', 'review']
    .map((c) => CONCEPT_MARK + c),
);
const LIST_CONCEPT = `${CONCEPT_MARK}list`;

/** The query as stems and concepts, with the two readings of English the map alone misses. */
function readQuery(query: string): { stems: string[]; lower: string[]; said: { concepts: string[]; spent: Set<number> } } {
  const lower = searchTerms(query).map((t) => t.toLowerCase());
  const filters = new Set<number>();
  lower.forEach((_, i) => adjectivalOpen(lower, i) && filters.add(i));
  // An adjectival "open" is dropped from the words and stands for listing.
  const kept = lower.filter((_, i) => !filters.has(i));
  const stems = kept.map(stem);
  const said = concepts(stems);
  // Only a plural the map knows as a thing counts ("snippets", "threads"; not "two values").
  const plural = kept.some((w) => w.length > 3 && PLURAL.test(w) && PHRASES.has(stem(w)));
  const listing = filters.size > 0 || (plural && !said.concepts.some((c) => ACTIONS.has(c)));
  if (listing && !said.concepts.includes(LIST_CONCEPT)) said.concepts.push(LIST_CONCEPT);
  return { stems, lower: kept.filter((w) => !STOP_WORDS.has(stem(w))), said };
}
const lowerWords = (text: string): string[] => searchTerms(text).map((t) => t.toLowerCase()).filter((t) => !STOP_WORDS.has(stem(t)));

interface IndexedEntry {
  id: number;
  name: string;
  nameTerms: string;
  /** The name's words as written: "alerts" is nearer list_dependabot_alerts than get_dependabot_alert. */
  nameWords: string;
  titles: string;
  description: string;
  params: string;
  operations: string;
  /** The description as written, for the hit; not indexed. */
  text: string;
  /** Concepts of the name: what the tool is. */
  nameConcepts: string;
  /** Concepts of the titles, apart: a title's extra words ("Open new …") would dilute the name's. */
  titleConcepts: string;
  /** Concepts of the description: what the tool touches on. */
  descConcepts: string;
  /** Concepts of the operations: as much what the tool is as its name, but one of several. */
  opConcepts: string;
}

const TEXT_FIELDS = ['nameTerms', 'titles', 'description', 'params', 'operations'];
const WORD_FIELDS = ['nameWords'];
const CONCEPT_FIELDS = ['nameConcepts', 'titleConcepts', 'descConcepts', 'opConcepts'];
// Every field is stored ready (stems, words as written, concepts), so the index only splits.
const ready = {
  tokenize: (text: string): string[] => text.split(' '),
  processTerm: (term: string): string | null => term || null,
};
const asText = (value: unknown): string => (typeof value === 'string' ? value : '');

export function createToolSearch(entries: SearchEntry[]): ToolSearch {
  const vocabulary = new Set<string>();
  const docs: IndexedEntry[] = entries.map((e, id) => {
    const nameStems = stemmed(e.name);
    const titleStems = (e.titles ?? []).flatMap(stemmed);
    // A server may send anything as a description; what is no text is not searched.
    const text = asText(e.description);
    const descStems = stemmed(text);
    const paramStems = (e.params ?? []).flatMap(stemmed);
    const opStems = (e.operations ?? []).map(stemmed);
    for (const s of [...nameStems, ...titleStems, ...descStems, ...paramStems]) vocabulary.add(s);
    return {
      id,
      name: e.name,
      nameTerms: words(nameStems).join(' '),
      nameWords: lowerWords(e.name).join(' '),
      titles: words(titleStems).join(' '),
      description: words(descStems).join(' '),
      params: words(paramStems).join(' '),
      operations: words(opStems.flat()).join(' '),
      text,
      nameConcepts: [...new Set(concepts(nameStems).concepts)].join(' '),
      titleConcepts: [...new Set(concepts(titleStems).concepts)].join(' '),
      descConcepts: [...new Set(concepts(descStems).concepts)].join(' '),
      // Each operation apart, so that one's last word and the next one's first make no phrase.
      opConcepts: [...new Set(opStems.flatMap((o) => concepts(o).concepts))].join(' '),
    };
  });
  const index = new MiniSearch<IndexedEntry>({
    fields: [...TEXT_FIELDS, ...WORD_FIELDS, ...CONCEPT_FIELDS],
    ...ready,
    searchOptions: {
      // Weights chosen on the tune half of tests/fixtures/search-eval (recall@5, then @1);
      // nameWords 0.5: both halves of tune, each tuned on the other, chose it (recall@1 +0.01–0.02).
      boost: { nameTerms: 2, nameWords: 0.5, titles: 1.5, params: 1.5, description: 1, operations: 1, nameConcepts: 3, titleConcepts: 1.5, descConcepts: 1, opConcepts: 1.5 },
      combineWith: 'OR',
      maxFuzzy: 2,
    },
  });
  index.addAll(docs);

  // A word some tool has is matched exactly; only the others are looked up fuzzily and by prefix.
  const unknown = (term: string): boolean => !vocabulary.has(term);

  return {
    search(query, limit) {
      if (typeof query !== 'string' || query.trim() === '') {
        throw new SwitchboardError('bad-request', 'search_tools needs a non-empty "query", e.g. "create issue"');
      }
      const max = searchLimit(limit);
      checkQuerySize(query);
      const { stems, lower, said } = readQuery(query);
      // Words inside a phrase of the map are matched through its concept only.
      const plain = words(stems.filter((_, i) => !said.spent.has(i)));
      // A concept said by several words of the query ("leaked passwords or tokens") counts as often.
      const times = new Map<string, number>();
      for (const c of said.concepts) times.set(c, (times.get(c) ?? 0) + 1);
      const asked: Query = {
        combineWith: 'OR',
        queries: [
          {
            queries: [plain.join(' ')],
            fields: TEXT_FIELDS,
            ...ready,
            // Short words match too much when fuzzy; a typo in a long word is what fuzzy is for.
            fuzzy: (term) => (term.length > 3 && unknown(term) ? 0.2 : false),
            prefix: (term) => term.length > 2 && unknown(term),
          },
          {
            queries: [lower.join(' ')],
            fields: WORD_FIELDS,
            ...ready,
            fuzzy: false,
            prefix: false,
          },
          {
            queries: [[...times.keys()].join(' ')],
            fields: CONCEPT_FIELDS,
            ...ready,
            boostTerm: (term) => times.get(term) ?? 1,
            fuzzy: false,
            prefix: false,
          },
        ],
      };
      const hits = index.search(asked);
      // MiniSearch leaves ties in index order; sort them by name so results never depend on it.
      hits.sort((a, b) => b.score - a.score || (docs[a.id]!.name < docs[b.id]!.name ? -1 : 1));
      return hits.slice(0, max).map((h) => {
        const doc = docs[h.id as number]!;
        return { name: doc.name, description: shortDescription(doc.text) };
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
