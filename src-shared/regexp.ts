// Text put inside a regular expression as itself. Pure.

/** `s` with every character that means something in a RegExp escaped. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
