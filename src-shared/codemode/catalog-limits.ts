// Bounds on what one catalog lookup (search_tools, get_schema, catalog.search, catalog.describe)
// may ask of the engine, with the sentences that refuse more. Kept apart from search.ts and
// catalog.ts so that the sandbox worker can check a lookup before it crosses to the engine
// without loading the search index. Pure.
import { groupDigits } from '../digits.ts';

/** A query longer than this is refused: a search is a few words, and fuzzy matching costs per character. */
export const MAX_QUERY_CHARS = 1000;
/** Words per query at most: each word is a separate (fuzzy) lookup in the index. */
export const MAX_QUERY_TERMS = 32;
/** A query word longer than this is refused (no tool vocabulary has such words). */
export const MAX_TERM_CHARS = 64;
/** Names per describe / get_schema at most. */
export const MAX_DESCRIBE_NAMES = 100;
/** Unknown names that get closest-name suggestions; the others are only named. */
export const MAX_SUGGESTED_NAMES = 3;

const chars = groupDigits;

export function queryTooLongMessage(length: number): string {
  return `The search query is ${chars(length)} characters; search with a few words (at most ${chars(MAX_QUERY_CHARS)} characters), e.g. "create issue".`;
}

export function tooManyTermsMessage(count: number): string {
  return `The search query has ${chars(count)} words; use at most ${MAX_QUERY_TERMS} words that describe the tool, e.g. "create issue".`;
}

export function termTooLongMessage(length: number): string {
  return `A word of the search query is ${chars(length)} characters long; use words of at most ${MAX_TERM_CHARS} characters, e.g. "create issue".`;
}

export function tooManyNamesMessage(count: number): string {
  return `Asked for ${chars(count)} tool names at once; ask for at most ${MAX_DESCRIBE_NAMES} at a time, only the tools you mean to call (find them with search_tools or catalog.search).`;
}
