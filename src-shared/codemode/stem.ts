// A light English stemmer for tool search, written here rather than taken from npm: none is
// installed, and tool vocabulary wants only the common inflections folded (plurals, -ed, -ing,
// -ation/-ion, a final e) so that "created", "creating", "creation" and "create" meet. Porter's
// further steps (-er, -ness, -ive, …) merge words that tools keep apart ("user" and "use").
// Both the index and the query go through the same function, so a stem need not be a word. Pure.

const VOWEL = /[aeiouy]/;

/** The stem of one lowercase word; words of three letters or fewer, and words with digits, are kept. */
export function stem(word: string): string {
  if (word.length <= 3 || /[^a-z]/.test(word)) return word;
  let w = plural(word);
  w = inflection(w);
  w = nominal(w);
  // A final e comes and goes with inflection (create/creat-ing), so it is dropped, except where
  // the rest would be another word (Porter's rule: state is no stat, move no mov, file no fil).
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) {
    const rest = w.slice(0, -1);
    if (measure(rest) > 1 || !endsShortSyllable(rest)) w = rest;
  }
  return w;
}

const isConsonant = (w: string, i: number): boolean =>
  !/[aeiou]/.test(w[i]!) && (w[i] !== 'y' || i === 0 || !isConsonant(w, i - 1));

/** Porter's measure: how many vowel-consonant sequences the word has (tr-ee 0, st-at 1, cr-eat 1, del-et 2). */
function measure(w: string): number {
  let m = 0;
  for (let i = 1; i < w.length; i++) if (isConsonant(w, i) && !isConsonant(w, i - 1)) m++;
  return m;
}

/** Ends consonant-vowel-consonant, the last not w, x or y ("stat", "mov", "fil"; not "creat"). */
function endsShortSyllable(w: string): boolean {
  const n = w.length;
  return n >= 3 && isConsonant(w, n - 1) && !isConsonant(w, n - 2) && isConsonant(w, n - 3) && !/[wxy]/.test(w[n - 1]!);
}

function plural(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(?:ch|sh|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !/(?:ss|us|is|ys)$/.test(w)) return w.slice(0, -1);
  return w;
}

// Nouns in -ing that name a thing rather than the act of their verb: a code quality finding is
// no search, settings are no update, a build is no building.
const ING_NOUNS = new Set(['finding', 'setting', 'building', 'meeting', 'heading', 'wedding', 'ceiling']);

function inflection(w: string): string {
  if (ING_NOUNS.has(w)) return w;
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length);
    // "string", "need", "bed": without a vowel, or too short, the ending is part of the word.
    if (base.length < 3 || !VOWEL.test(base)) return w;
    // "starred" → "star", "logging" → "log" (but "pass", "fill", "buzz" keep their double).
    if (/([b-df-hj-np-rtv-xz])\1$/.test(base) && !/(?:ll|ss|zz)$/.test(base)) return base.slice(0, -1);
    // "stated" → "state" and "filed" → "file", as the final-e rule keeps them (Porter's step 1b).
    if (/(?:at|bl|iz)$/.test(base) || (measure(base) === 1 && endsShortSyllable(base))) return `${base}e`;
    return base;
  }
  return w;
}

function nominal(w: string): string {
  if (w.endsWith('ization')) return w.slice(0, -5);
  if (w.endsWith('ation') && w.length > 7) return w.slice(0, -3);
  // "deletion" → "delet", "permission" → "permiss" (the verb's stem after the e is dropped).
  // Not "production" → "product", "instruction" → "instruct": there the noun is another thing.
  if (/[st]ion$/.test(w) && w.length > 6 && !w.endsWith('uction')) return w.slice(0, -3);
  return w;
}
