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
  // A final e comes and goes with inflection (create/creat-ing); drop it everywhere.
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
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
    return base;
  }
  return w;
}

function nominal(w: string): string {
  if (w.endsWith('ization')) return w.slice(0, -5);
  if (w.endsWith('ation') && w.length > 7) return w.slice(0, -3);
  // "deletion" → "delet", "permission" → "permiss" (the verb's stem after the e is dropped).
  if (/[st]ion$/.test(w) && w.length > 6) return w.slice(0, -3);
  return w;
}
