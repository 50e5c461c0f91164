// WordNet's synonyms (synonyms.generated.ts, built by scripts/build-synonyms.mjs) as stems, for
// tool search: a query word that no tool uses can still meet a tool through a word that means
// the same ("bill a customer" → invoice, "how much it costs" → price). The table is parsed on
// first use (tens of ms, once per engine), not when the engine starts. Pure.
import { stem } from './stem.ts';
import { SYNONYM_SETS } from './synonyms.generated.ts';

let table: Map<string, string[]> | undefined;

/** The stems that WordNet gives as synonyms of a word's stem, in its order of senses (none for most tool words). */
export function synonymStems(wordStem: string): readonly string[] {
  table ??= parse();
  return table.get(wordStem) ?? [];
}

function parse(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of SYNONYM_SETS.split('\n')) {
    const [word, ...synonyms] = line.split(' ');
    const key = stem(word!);
    const list = map.get(key) ?? [];
    for (const s of synonyms.map(stem)) if (s !== key && !list.includes(s)) list.push(s);
    map.set(key, list);
  }
  return map;
}
