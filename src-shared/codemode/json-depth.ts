// How deep a JSON text nests, read from the text itself. Every value leaving the sandbox crosses
// as JSON text, and engine code (JSON.parse's callers, redaction, the SDK's validation) walks
// values recursively: a value thousands of levels deep overflowed the engine's stack and lost
// the run's record. Checking the text is linear and needs no parse. Pure.

/** Nesting allowed for a value leaving the sandbox (a result, tool-call arguments). */
export const MAX_VALUE_DEPTH = 128;

/** Whether `json` nests arrays and objects more than `max` levels deep. */
export function jsonDeeperThan(json: string, max: number = MAX_VALUE_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skip the string: only an unescaped quote ends it.
      for (i++; i < json.length; i++) {
        const s = json.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

export function tooDeepMessage(what: string, max: number = MAX_VALUE_DEPTH): string {
  return `${what} nested more than ${max} levels deep, which the engine does not accept; send flatter data (for example, a list of items instead of a chain)`;
}

/**
 * Whether a value already parsed nests arrays and objects more than `max` levels deep: walked
 * with a list, not recursion, and stopping at the first level past `max`, so a hostile value
 * cannot overflow the stack here either.
 */
export function valueDeeperThan(value: unknown, max: number = MAX_VALUE_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
