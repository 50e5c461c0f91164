// The compact name index: when a profile's declarations are too large for the
// execute description, its tool names still help a model pick without a search. They are listed
// per server within a fixed budget, each server getting names in turn so that none is left out
// because an earlier one is large. Pure.
import { groupDigits } from '../digits.ts';

/** Characters the name index may take in the execute description. */
export const NAME_INDEX_CHARS = 9_000;
/** Characters the sentence naming the server globals may take (a profile may have many servers). */
export const MAX_GLOBALS_LIST_CHARS = 600;

/**
 * `header` then one line per server, `global: a, b, c` (`… +N more` when cut), within `budget`
 * characters; servers that do not fit at all are counted on a last line.
 */
export function nameIndex(globals: Record<string, string[]>, budget: number = NAME_INDEX_CHARS): string {
  const servers = Object.entries(globals).filter(([, methods]) => methods.length > 0);
  const total = servers.reduce((n, [, m]) => n + m.length, 0);
  if (total === 0) return '';
  const shown = servers.map(() => 0);
  // A line's length kept up to date as names are added, without rebuilding it.
  const namesLen = servers.map(() => 0);
  const lineLen = (i: number): number => {
    const [g, methods] = servers[i]!;
    const n = shown[i]!;
    const rest = methods.length - n;
    return g.length + 2 + namesLen[i]! + Math.max(0, n - 1) * 2 + (rest > 0 ? (n > 0 ? 2 : 0) + `… +${rest} more`.length : 0);
  };
  const lineOf = (i: number): string => {
    const [g, methods] = servers[i]!;
    const n = shown[i]!;
    const rest = methods.length - n;
    return `${g}: ${methods.slice(0, n).join(', ')}${rest > 0 ? `${n > 0 ? ', ' : ''}… +${rest} more` : ''}`;
  };
  const header = (count: number): string =>
    count === total
      ? `Tool names by server (all ${total}):`
      : `Tool names by server (${count} of ${total}, as many as fit in ${groupDigits(budget)} characters; find the others with search_tools):`;
  // Room for the longest header and the "servers left out" line, so the text never goes over.
  let size = header(Math.max(0, total - 1)).length + 1 + `… and ${servers.length} more servers`.length + 1;
  let lines = servers.length;
  for (let i = 0; i < servers.length; i++) {
    const len = lineLen(i) + 1;
    if (size + len > budget) {
      lines = i;
      break;
    }
    size += len;
  }
  // Names in turns: one more name per listed server per round, while the text fits.
  let grew = true;
  while (grew) {
    grew = false;
    for (let i = 0; i < lines; i++) {
      const methods = servers[i]![1];
      if (shown[i]! >= methods.length) continue;
      const before = lineLen(i);
      shown[i] = shown[i]! + 1;
      namesLen[i] = namesLen[i]! + methods[shown[i]! - 1]!.length;
      const after = lineLen(i);
      if (size + after - before > budget) {
        shown[i] = shown[i]! - 1;
        namesLen[i] = namesLen[i]! - methods[shown[i]!]!.length;
        continue;
      }
      size += after - before;
      grew = true;
    }
  }
  const count = shown.reduce((n, k) => n + k, 0);
  const out = [header(count), ...servers.slice(0, lines).map((_, i) => lineOf(i))];
  if (lines < servers.length) out.push(`… and ${servers.length - lines} more servers`);
  return out.join('\n');
}

/** `a`, `b`, … as one sentence part, within MAX_GLOBALS_LIST_CHARS. */
export function globalsList(globals: string[], budget: number = MAX_GLOBALS_LIST_CHARS): string {
  const parts: string[] = [];
  let size = 0;
  for (const g of globals) {
    const part = `\`${g}\``;
    const tail = ` … and ${globals.length - parts.length - 1} more`.length;
    if (size + part.length + 2 + tail > budget && parts.length < globals.length - 1) {
      return `${parts.join(', ')} … and ${globals.length - parts.length} more`;
    }
    parts.push(part);
    size += part.length + 2;
  }
  return parts.join(', ');
}
