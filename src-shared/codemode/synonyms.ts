// WordNet's synonyms (synonyms.generated.ts, built by scripts/build-synonyms.mjs) as stems, for
// tool search: a query word that no tool uses can still meet a tool through a word that means
// the same ("bill a customer" → invoice, "how much it costs" → price). The table is parsed on
// first use (a split of 0.3 MB, once per engine), not when the engine starts. Pure.
import { SYNONYM_STEMS } from './synonyms.generated.ts';

let table: Map<string, string[]> | undefined;

/** The stems that WordNet gives as synonyms of a word's stem, in its order of senses (none for most tool words). */
export function synonymStems(wordStem: string): readonly string[] {
  table ??= parse();
  return table.get(wordStem) ?? [];
}

function parse(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of SYNONYM_STEMS.split('\n')) {
    const [key, ...synonyms] = line.split(' ');
    map.set(key!, synonyms);
  }
  return map;
}
