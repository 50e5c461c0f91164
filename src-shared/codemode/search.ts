// Tool search for search_tools and catalog.search: relevance over names, titles, descriptions,
// parameter names and what the input schema says (docs/search.md). MiniSearch ranks with BM25 over
// stemmed words, and a second set of fields holds each tool's concepts (search-concepts.ts), so a
// query in other words than the tool's ("make a new folder") still meets it (create_directory).
// A query word no tool uses is bridged by its WordNet synonyms (synonyms.ts: "bill" → invoice), or
// read as two words some tool uses ("chargeback" → charge back, "localhost" → local host); a tool's
// name is indexed with its words' WordNet broader terms too, as users ask in general words.
// A profile holds many servers, so the server counts too: a query that names one ("… in gitlab")
// lifts its tools, and so, less, does the server whose tools together speak most of the query's
// words ("add more replicas" is a Kubernetes question, though GitHub has more add_* tools); verbs
// every server has ("add", "get", "run") weigh less than the words that say what is meant.
// Two readings of English the map cannot make are made on the query (search-words.ts); a web
// address is a URL. A tool that folds several into one (`method: "get_diff" | …`)
// is indexed by its operations too. Fuzzy and prefix matching are kept for words no tool uses
// (typos, halves of words): expanding every word that way costs more than the 2 ms a search may
// take at 1,000 tools.
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
import { stem } from './stem.ts';
import { broaderStems, synonymStems } from './synonyms.ts';
import { concepts, lowerWords, PHRASES, readQuery, searchTerms, stemmed, STOP_WORDS, URL_STEM, WEB_ADDRESS, words } from './search-words.ts';

export { searchTerms } from './search-words.ts';

export interface SearchEntry {
  /** The name as written in code, e.g. `github.create_issue`. */
  name: string;
  /** The server's name as configured (`google-maps`); the name's global when left out. */
  server?: string;
  /** The tool's display titles (`title`, `annotations.title`), when it has them. */
  titles?: string[];
  description?: string;
  /** Top-level parameter names of the tool. */
  params?: string[];
  /** What the input schema says besides names: its properties' descriptions (the author's words for what goes in). */
  schemaText?: string;
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


// Weights chosen on the tune catalogs of tests/fixtures/search-eval/by-catalog.json (docs/search.md).
const WEIGHTS = {
  /** A generic verb ("add", "get", "run") when the query has other words, against 1 for a word. */
  genericVerb: 0.35,
  /** A WordNet synonym of a query word that no tool uses, or a part of such a word ("charge" of "chargeback"). */
  synonym: 0.3,
  /** A concept said only by generic verbs ("show" → read, list) when the query has other words. */
  genericConcept: 0.2,
  /** The WordNet broader terms of the words of a tool's name and titles, as a field. */
  broader: 0.4,
  /** How much the server whose tools speak most of the query lifts them: score × (1 + serverLift × its share of the best server's). */
  serverLift: 0.8,
  /** Score factor of the tools of a server the query names ("… in gitlab"). */
  named: 2.5,
  /** The input schema's descriptions, as a field. */
  schema: 1,
};

// Verbs that say little about which tool is meant in a profile of many servers: every server has
// something to add, get or run. Kept (they still break ties between create_x and list_x), at less weight.
const GENERIC_VERBS = new Set(['add', 'get', 'run', 'list', 'make', 'show', 'set', 'create', 'use', 'do', 'go', 'need', 'want', 'see', 'give', 'take', 'put', 'check', 'open', 'tell', 'help', 'let', 'start'].map(stem));

interface IndexedEntry {
  id: number;
  name: string;
  nameTerms: string;
  /** The name's words as written: "alerts" is nearer list_dependabot_alerts than get_dependabot_alert. */
  nameWords: string;
  titles: string;
  description: string;
  params: string;
  schema: string;
  operations: string;
  /** The WordNet broader terms of the name's and titles' words ("balance" → equilibrium; "subscription" → payment). */
  broader: string;
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

const TEXT_FIELDS = ['nameTerms', 'titles', 'description', 'params', 'schema', 'operations', 'broader'];
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
  const servers = new Servers();
  const serverOf: number[] = [];
  const docs: IndexedEntry[] = entries.map((e, id) => {
    const nameStems = stemmed(e.name);
    const titleStems = (e.titles ?? []).flatMap(stemmed);
    // A server may send anything as a description; what is no text is not searched.
    const text = asText(e.description);
    const descStems = stemmed(text);
    const paramStems = (e.params ?? []).flatMap(stemmed);
    const schemaStems = stemmed(asText(e.schemaText));
    const opStems = (e.operations ?? []).map(stemmed);
    for (const s of [...nameStems, ...titleStems, ...descStems, ...paramStems]) vocabulary.add(s);
    serverOf[id] = servers.add(e.server ?? e.name.slice(0, Math.max(0, e.name.indexOf('.'))), e.name, words([...nameStems, ...titleStems, ...descStems, ...paramStems, ...schemaStems]));
    return {
      id,
      name: e.name,
      nameTerms: words(nameStems).join(' '),
      nameWords: lowerWords(e.name).join(' '),
      titles: words(titleStems).join(' '),
      description: words(descStems).join(' '),
      params: words(paramStems).join(' '),
      schema: words(schemaStems).join(' '),
      operations: words(opStems.flat()).join(' '),
      broader: words([...new Set([...nameStems, ...titleStems].flatMap(broaderStems))]).join(' '),
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
      boost: { nameTerms: 2, nameWords: 0.5, titles: 1.5, params: 1.5, description: 1, schema: WEIGHTS.schema, operations: 1, broader: WEIGHTS.broader, nameConcepts: 3, titleConcepts: 1.5, descConcepts: 1, opConcepts: 1.5 },
      combineWith: 'OR',
      maxFuzzy: 2,
      // Length normalisation stronger than MiniSearch's 0.7: a description that lists every
      // parameter in prose should not outweigh a short tool that is about the word
      // (tune recall@5 0.822 → 0.844, today's eval unchanged).
      bm25: { k: 1.2, b: 0.9, d: 0.5 },
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
      if (WEB_ADDRESS.test(query) && !plain.includes(URL_STEM)) plain.push(URL_STEM);
      const named = servers.named(plain);
      const specific = plain.some((w) => !GENERIC_VERBS.has(w) && !named.words.has(w));
      const weight = (w: string): number => (specific && GENERIC_VERBS.has(w) ? WEIGHTS.genericVerb : 1);
      // WordNet's synonyms of the words that say what is meant, where some tool uses the synonym.
      const synonyms = new Map<string, number>();
      for (const w of plain) {
        if (GENERIC_VERBS.has(w) || named.words.has(w)) continue;
        // A word some tool uses is meant as it is; WordNet bridges only the words no tool has.
        if (vocabulary.has(w)) continue;
        const raw = lower.find((x) => stem(x) === w) ?? w;
        for (const s of [...synonymStems(w), ...compoundParts(raw, vocabulary)]) {
          if (vocabulary.has(s) && !plain.includes(s) && !STOP_WORDS.has(s)) synonyms.set(s, WEIGHTS.synonym);
        }
      }
      // A concept said by several words of the query ("leaked passwords or tokens") counts as often;
      // one said by a generic verb alone ("show" → read, list) weighs as the verb does.
      const times = new Map<string, number>();
      for (const c of said.concepts) times.set(c, (times.get(c) ?? 0) + 1);
      if (specific) {
        for (const [c, n] of verbConcepts(stems)) {
          const had = times.get(c);
          if (had !== undefined) times.set(c, had - Math.min(n, had) * (1 - WEIGHTS.genericConcept));
        }
      }
      const asked: Query = {
        combineWith: 'OR',
        queries: [
          {
            queries: [plain.join(' ')],
            fields: TEXT_FIELDS,
            ...ready,
            boostTerm: weight,
            // Short words match too much when fuzzy; a typo in a long word is what fuzzy is for.
            fuzzy: (term) => (term.length > 3 && unknown(term) ? 0.2 : false),
            prefix: (term) => term.length > 2 && unknown(term),
          },
          {
            queries: [[...synonyms.keys()].join(' ')],
            fields: TEXT_FIELDS,
            ...ready,
            boostTerm: (term) => synonyms.get(term) ?? 0,
            fuzzy: false,
            prefix: false,
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
      // A server whose tools, together, speak of what is asked lifts them all: "add more replicas"
      // is a Kubernetes question, though GitHub has more tools named add_*.
      const lift = servers.relevance([...plain, ...synonyms.keys()], (t) => synonyms.get(t) ?? weight(t));
      for (const h of hits) {
        const s = serverOf[h.id as number]!;
        h.score *= (1 + WEIGHTS.serverLift * (lift[s] ?? 0)) * (named.servers.has(s) ? WEIGHTS.named : 1);
      }
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
 * A word no tool uses read as two that some tool does ("chargeback" → charg, back; "localhost" →
 * local, host), as stems. The first part has three letters at least and the second two, so that
 * no plural "s" or single letter makes one.
 */
export function compoundParts(word: string, vocabulary: ReadonlySet<string>): string[] {
  const parts: string[] = [];
  for (let i = 3; i <= word.length - 2; i++) {
    const [a, b] = [stem(word.slice(0, i)), stem(word.slice(i))];
    if (!vocabulary.has(a) || !vocabulary.has(b) || STOP_WORDS.has(a) || STOP_WORDS.has(b)) continue;
    for (const p of [a, b]) if (!parts.includes(p)) parts.push(p);
  }
  return parts;
}

/** The concepts that generic verbs of the query say on their own ("show" → read, list), with how often. */
function verbConcepts(stems: string[]): Map<string, number> {
  const said = new Map<string, number>();
  for (const w of stems) {
    if (!GENERIC_VERBS.has(w)) continue;
    for (const p of PHRASES.get(w) ?? []) if (p.stems.length === 1) said.set(p.concept, (said.get(p.concept) ?? 0) + 1);
  }
  return said;
}

/**
 * The servers of a catalog as documents of their own: their names, for a query that names one,
 * and all their tools' words, for how much each speaks of what is asked (BM25 over servers, so a
 * word every server has counts for nothing and a server with many tools is not favoured for its size).
 */
class Servers {
  readonly #ids = new Map<string, number>();
  readonly #terms: Map<string, number>[] = [];
  readonly #length: number[] = [];
  /** Stem of a word of a server's name → the servers so named. */
  readonly #byName = new Map<string, Set<number>>();

  add(server: string, toolName: string, stems: string[]): number {
    let id = this.#ids.get(server);
    if (id === undefined) {
      id = this.#terms.length;
      this.#ids.set(server, id);
      this.#terms.push(new Map());
      this.#length.push(0);
      const global = toolName.slice(0, Math.max(0, toolName.indexOf('.')));
      for (const w of new Set([...stemmed(server), ...stemmed(global)])) {
        if (w.length < 3 || STOP_WORDS.has(w)) continue;
        const set = this.#byName.get(w) ?? new Set();
        set.add(id);
        this.#byName.set(w, set);
      }
    }
    const terms = this.#terms[id]!;
    for (const s of stems) terms.set(s, (terms.get(s) ?? 0) + 1);
    this.#length[id]! += stems.length;
    return id;
  }

  /** The servers a query names, and the query's words that name them. */
  named(stems: string[]): { servers: Set<number>; words: Set<string> } {
    const servers = new Set<number>();
    const words = new Set<string>();
    for (const w of stems) {
      const named = this.#byName.get(w);
      // A word that names most servers names none ("mcp", "server").
      if (!named || named.size * 2 > this.#terms.length) continue;
      words.add(w);
      for (const s of named) servers.add(s);
    }
    return { servers, words };
  }

  /** Each server's BM25 score for the words, as a share of the best one's (0 to 1). */
  relevance(stems: string[], weight: (stem: string) => number): number[] {
    const n = this.#terms.length;
    const scores = new Array<number>(n).fill(0);
    if (n < 2) return scores;
    const avg = this.#length.reduce((a, b) => a + b, 0) / n || 1;
    for (const t of new Set(stems)) {
      let df = 0;
      for (const terms of this.#terms) if (terms.has(t)) df++;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let s = 0; s < n; s++) {
        const tf = this.#terms[s]!.get(t) ?? 0;
        if (tf === 0) continue;
        scores[s]! += weight(t) * idf * ((tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * this.#length[s]!) / avg)));
      }
    }
    const best = Math.max(...scores);
    return best > 0 ? scores.map((x) => x / best) : scores;
  }
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
