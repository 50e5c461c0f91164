// WordNet's synonyms and broader terms (synonyms.generated.ts, built by scripts/build-synonyms.mjs)
// as stems, for tool search: a query word that no tool uses can still meet a tool through a word
// that means the same ("bill a customer" → invoice, "how much it costs" → price), and a tool can be
// found by the more general word a user asks in ("money" for a balance). The table is parsed on
// first use (a split of 0.5 MB, once per engine), not when the engine starts. Pure.
import { SYNONYM_STEMS } from './synonyms.generated.ts';

interface Related {
  same: string[];
  broader: string[];
}

let table: Map<string, Related> | undefined;
const NONE: Related = { same: [], broader: [] };
const related = (wordStem: string): Related => (table ??= parse()).get(wordStem) ?? NONE;

/** The stems that WordNet gives as synonyms of a word's stem, in its order of senses (none for most tool words). */
export function synonymStems(wordStem: string): readonly string[] {
  return related(wordStem).same;
}

/** The stems of a word's broader terms (hypernyms) in its most used sense: "invoic" → bill, account, statement. */
export function broaderStems(wordStem: string): readonly string[] {
  return related(wordStem).broader;
}

function parse(): Map<string, Related> {
  const map = new Map<string, Related>();
  for (const line of SYNONYM_STEMS.split('\n')) {
    const [key, ...rest] = line.split(' ');
    const bar = rest.indexOf('|');
    map.set(key!, bar < 0 ? { same: rest, broader: [] } : { same: rest.slice(0, bar), broader: rest.slice(bar + 1) });
  }
  return map;
}
