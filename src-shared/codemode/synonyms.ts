// WordNet's synonyms and broader terms (synonyms.generated.ts, built by scripts/build-synonyms.mjs)
// as stems, for tool search: a query word that no tool uses can still meet a tool through a word
// that means the same ("bill a customer" → invoice, "how much it costs" → price), and a tool can be
// found by the more general word a user asks in ("money" for a balance). The table is parsed on
// first use (one pass over 0.5 MB, once per engine; a line's words are split when first asked
// for), not when the engine starts. Pure.
import { SYNONYM_STEMS } from './synonyms.generated.ts';

interface Related {
  same: string[];
  broader: string[];
}

/** Stem → the rest of its line, split when first asked for: most lines never are. */
let lines: Map<string, string | Related> | undefined;
const NONE: Related = { same: [], broader: [] };

function related(wordStem: string): Related {
  lines ??= index();
  const line = lines.get(wordStem);
  if (line === undefined || typeof line !== 'string') return line ?? NONE;
  const words = line.split(' ');
  const bar = words.indexOf('|');
  const split = bar < 0 ? { same: words, broader: [] } : { same: words.slice(0, bar), broader: words.slice(bar + 1) };
  lines.set(wordStem, split);
  return split;
}

/** The stems that WordNet gives as synonyms of a word's stem, in its order of senses (none for most tool words). */
export function synonymStems(wordStem: string): readonly string[] {
  return related(wordStem).same;
}

/** The stems of a word's broader terms (hypernyms) in its most used sense: "invoic" → bill, account, statement. */
export function broaderStems(wordStem: string): readonly string[] {
  return related(wordStem).broader;
}

function index(): Map<string, string | Related> {
  const map = new Map<string, string | Related>();
  let at = 0;
  while (at < SYNONYM_STEMS.length) {
    const end = SYNONYM_STEMS.indexOf('\n', at);
    const stop = end < 0 ? SYNONYM_STEMS.length : end;
    const space = SYNONYM_STEMS.indexOf(' ', at);
    map.set(SYNONYM_STEMS.slice(at, space), SYNONYM_STEMS.slice(space + 1, stop));
    at = stop + 1;
  }
  return map;
}
