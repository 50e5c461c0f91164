// The one matcher of the globs config.json holds over names: a profile's `tools`, `prompts` and
// `resources` allow/deny, a client's subset (`clients.ID.tools`) and `approvals.approve` /
// `never` on `server.tool`. A name is any string a server chose, so nothing in it is a
// separator: `*` matches any run of characters (none included), `/` and `.` as well; `**` is
// the same as `*`; `?` matches one character; `[abc]`, `[a-z]`, `[!a]` one character of (or
// not of) a set; `{a,b}` either alternative (not for URIs, whose templates use braces); `\`
// makes the next character plain. Everything else, `.`, `/`, `-`, spaces, `!`, `(`, is itself.
// Names are compared as Unicode NFC and by code point (`?` is one emoji), case-sensitive.
// Matching takes at most (pattern length × name length) steps, whatever the pattern. Pure.

export type NameMatcher = (name: string) => boolean;

export interface GlobOptions {
  /** `{a,b}` alternatives (on for names; off for URIs, where `{id}` and `{a,b}` are template text). */
  braces?: boolean;
}

/** Alternatives one pattern's braces may expand to; past it all its braces are plain text. */
export const MAX_BRACE_ALTERNATIVES = 256;

type Token = { k: 'char'; c: string } | { k: 'one' } | { k: 'star' } | { k: 'set'; not: boolean; ranges: [number, number][] };

/** Whether any of `patterns` matches (false for none). */
export function globMatcher(patterns: readonly string[], opts: GlobOptions = {}): NameMatcher {
  const compiled = patterns.flatMap((p) => expandBraces(p.normalize('NFC'), opts.braces ?? true)).map(tokenize);
  if (compiled.length === 0) return () => false;
  return (name) => {
    const chars = Array.from(typeof name === 'string' ? name.normalize('NFC') : '');
    return compiled.some((tokens) => matchTokens(tokens, chars));
  };
}

/** Whether one pattern matches one name. */
export function globMatches(pattern: string, name: string, opts: GlobOptions = {}): boolean {
  return globMatcher([pattern], opts)(name);
}

/** A glob that matches exactly this name and nothing else. */
export function literalGlob(name: string): string {
  return name.replace(/[\\*?[\]{}]/g, (c) => `\\${c}`);
}

/** Whether a pattern matches every name (`*`, `**`, …): a filter that denies it switches a server off. */
export function matchesEverything(pattern: string): boolean {
  return pattern.length > 0 && /^\*+$/.test(pattern);
}

/**
 * What is wrong with a pattern written for another glob dialect, as a sentence; undefined when
 * it is fine. A leading `!` (negation elsewhere) and extglobs such as `@(a|b)` are plain text
 * here, so they would quietly match nothing the writer meant.
 */
export function globProblem(pattern: string): string | undefined {
  if (pattern.startsWith('!')) {
    return `"${pattern}" starts with "!", which does not mean "not" here (it would match only names starting with "!"): list what to keep in allow and what to hide in deny, or write \\! for a name that starts with "!".`;
  }
  const ext = /(?<!\\)(?:\\\\)*[@+!*?]\(/.exec(pattern);
  if (ext) {
    return `"${pattern}" uses "${ext[0].slice(-2)}…)", which is not a pattern here: write one pattern per alternative (or {a,b}), or put \\ before "(" for a name that has one.`;
  }
  return undefined;
}

function expandBraces(pattern: string, braces: boolean): string[] {
  if (!braces) return [pattern];
  const out: string[] = [];
  const pending = [pattern];
  while (pending.length > 0) {
    const p = pending.pop()!;
    const group = firstGroup(p);
    if (!group) {
      out.push(p);
      continue;
    }
    if (out.length + pending.length + group.alternatives.length > MAX_BRACE_ALTERNATIVES) return [escapeBraces(pattern)];
    for (let i = group.alternatives.length - 1; i >= 0; i--) pending.push(p.slice(0, group.start) + group.alternatives[i] + p.slice(group.end + 1));
  }
  return out;
}

/** The first `{…}` with a top-level comma (a `{id}` without one is plain text). */
function firstGroup(p: string): { start: number; end: number; alternatives: string[] } | undefined {
  for (let start = 0; start < p.length; start++) {
    if (p[start] === '\\') {
      start++;
      continue;
    }
    if (p[start] !== '{') continue;
    let depth = 0;
    let from = start + 1;
    const alternatives: string[] = [];
    for (let i = start + 1; i < p.length; i++) {
      const c = p[i];
      if (c === '\\') i++;
      else if (c === '{') depth++;
      else if (c === '}' && depth > 0) depth--;
      else if (c === ',' && depth === 0) {
        alternatives.push(p.slice(from, i));
        from = i + 1;
      } else if (c === '}') {
        if (alternatives.length === 0) break;
        alternatives.push(p.slice(from, i));
        return { start, end: i, alternatives };
      }
    }
  }
  return undefined;
}

/** Over the expansion limit, braces are matched as the characters they are. */
function escapeBraces(p: string): string {
  let out = '';
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') out += p.slice(i, ++i + 1);
    else out += p[i] === '{' || p[i] === '}' ? `\\${p[i]}` : p[i];
  }
  return out;
}

function tokenize(pattern: string): Token[] {
  const chars = Array.from(pattern);
  const out: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) out.push({ k: 'char', c: chars[++i]! });
    else if (c === '*') {
      if (out.at(-1)?.k !== 'star') out.push({ k: 'star' });
    } else if (c === '?') out.push({ k: 'one' });
    else if (c === '[') {
      const set = readSet(chars, i);
      if (set) {
        out.push(set.token);
        i = set.end;
      } else out.push({ k: 'char', c });
    } else out.push({ k: 'char', c });
  }
  return out;
}

/** `[…]` from `chars[at]`; undefined when it never closes (then `[` is plain). */
function readSet(chars: string[], at: number): { token: Token; end: number } | undefined {
  let i = at + 1;
  const not = chars[i] === '!' || chars[i] === '^';
  if (not) i++;
  const ranges: [number, number][] = [];
  let first = true;
  for (; i < chars.length; i++) {
    let c = chars[i]!;
    if (c === ']' && !first) return { token: { k: 'set', not, ranges }, end: i };
    first = false;
    if (c === '\\' && i + 1 < chars.length) c = chars[++i]!;
    const lo = c.codePointAt(0)!;
    if (chars[i + 1] === '-' && i + 2 < chars.length && chars[i + 2] !== ']') {
      let hiChar = chars[i + 2]!;
      i += 2;
      if (hiChar === '\\' && i + 1 < chars.length) hiChar = chars[++i]!;
      ranges.push([lo, hiChar.codePointAt(0)!]);
    } else ranges.push([lo, lo]);
  }
  return undefined;
}

function one(t: Token, c: string): boolean {
  if (t.k === 'char') return t.c === c;
  if (t.k === 'one') return true;
  if (t.k === 'set') {
    const cp = c.codePointAt(0)!;
    return t.ranges.some(([lo, hi]) => cp >= lo && cp <= hi) !== t.not;
  }
  return false;
}

/** Stars take as little as they can and give back one character at a time: no exponential case. */
function matchTokens(tokens: Token[], chars: string[]): boolean {
  let ti = 0;
  let ci = 0;
  let starAt = -1;
  let starFrom = 0;
  while (ci < chars.length) {
    const t = tokens[ti];
    if (t?.k === 'star') {
      starAt = ti++;
      starFrom = ci;
    } else if (t && one(t, chars[ci]!)) {
      ti++;
      ci++;
    } else if (starAt >= 0) {
      ti = starAt + 1;
      ci = ++starFrom;
    } else return false;
  }
  while (tokens[ti]?.k === 'star') ti++;
  return ti === tokens.length;
}
