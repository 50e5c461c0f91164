// How tool search reads words (search.ts): text split into words and stemmed, the words that say
// nothing, the phrases of the concept map (search-concepts.ts) found in a text, and the query read
// with the two readings of English the map cannot make: "open" as an adjective ("the open PRs")
// filters a list, and things named in the plural with nothing to do to them are to be listed.
import { CONCEPT_GROUPS } from './search-concepts.ts';
import { stem } from './stem.ts';

// Words that say nothing about which tool is meant; left in, they rank long descriptions up.
// Phrases are matched before these are dropped, so "who am I" still means the current user.
export const STOP_WORDS = new Set([
  'a', 'am', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'has', 'have',
  'how', 'i', 'in', 'into', 'is', 'it', 'its', 'my', 'of', 'on', 'or', 'our', 'please', 'so', 'some',
  'that', 'the', 'their', 'them', 'there', 'these', 'this', 'those', 'to', 'us', 'was', 'we', 'what',
  'when', 'where', 'which', 'who', 'why', 'will', 'with', 'would', 'you', 'your',
  // Degree and time words: "add more replicas" wants no get_more_search_results.
  'again', 'also', 'just', 'less', 'more', 'most', 'now', 'only', 'other', 'really', 'than', 'then', 'very',
].map(stem));

// A web address in a query ("go to example.com", "https://…") is a URL whatever the words around it say.
export const WEB_ADDRESS = /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|org|net|io|dev|app|ai|co|edu|gov)\b/i;
export const URL_STEM = stem('url');

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

export const stemmed = (text: string): string[] => searchTerms(text).map((t) => stem(t.toLowerCase()));

// Concept ids start with a character no word has, so they never meet words in the shared index.
const CONCEPT_MARK = '~';

/** First stem of a phrase → the phrases (as stems) starting with it and their concept. */
export const PHRASES = new Map<string, { stems: string[]; concept: string }[]>();
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
export function concepts(stems: string[]): { concepts: string[]; spent: Set<number> } {
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

export const words = (stems: string[]): string[] => stems.filter((s) => !STOP_WORDS.has(s));

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
const STATE_CONCEPT = `${CONCEPT_MARK}state`;

/** The query as stems and concepts, with the two readings of English the map alone misses. */
export function readQuery(query: string): { stems: string[]; lower: string[]; said: { concepts: string[]; spent: Set<number> } } {
  const lower = searchTerms(query).map((t) => t.toLowerCase());
  const filters = new Set<number>();
  lower.forEach((_, i) => adjectivalOpen(lower, i) && filters.add(i));
  // An adjectival "open" is dropped from the words and stands for listing.
  const kept = lower.filter((_, i) => !filters.has(i));
  const stems = kept.map(stem);
  const said = concepts(stems);
  // "open a pull request" makes one: the verb says nothing of a state (open or closed).
  for (let i = 0; i < kept.length; i++) {
    if (kept[i] !== 'open' || !DETERMINERS.has(kept[i + 1] ?? '')) continue;
    const at = said.concepts.indexOf(STATE_CONCEPT);
    if (at >= 0) said.concepts.splice(at, 1);
  }
  // Only a plural the map knows as a thing counts ("snippets", "threads"; not "two values").
  const plural = kept.some((w) => w.length > 3 && PLURAL.test(w) && PHRASES.has(stem(w)));
  const listing = filters.size > 0 || (plural && !said.concepts.some((c) => ACTIONS.has(c)));
  if (listing && !said.concepts.includes(LIST_CONCEPT)) said.concepts.push(LIST_CONCEPT);
  return { stems, lower: kept.filter((w) => !STOP_WORDS.has(stem(w))), said };
}
export const lowerWords = (text: string): string[] => searchTerms(text).map((t) => t.toLowerCase()).filter((t) => !STOP_WORDS.has(stem(t)));
