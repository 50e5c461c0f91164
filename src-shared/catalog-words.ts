// How the Catalog matches what a person types against a server: every word must appear (in any
// order, any case) in its name, title or description. Shared so that the page can show the
// shipped servers that match at once, while the engine still asks the registry.

/** True when every word of `text` is in `hay` (true for empty text). */
export function wordsMatch(text: string, hay: string): boolean {
  const h = hay.toLowerCase();
  return text.toLowerCase().split(/\s+/).filter(Boolean).every((w) => h.includes(w));
}
