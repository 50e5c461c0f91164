// Hints for failed runs (SPEC §5): the server globals for an unknown name, the closest methods
// for an unknown method. Hand-written: a 20-line edit distance is not worth a dependency.

const SANDBOX_OWN = ['catalog', 'console'];

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** Up to `count` candidates nearest to `name`, case differences counting for little. */
export function closest(name: string, candidates: readonly string[], count = 3): string[] {
  const lower = name.toLowerCase();
  return candidates
    .map((c) => ({ c, d: editDistance(lower, c.toLowerCase()) + (c.toLowerCase().includes(lower) ? -1 : 0) }))
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, count)
    .map((x) => x.c);
}

function list(names: readonly string[]): string {
  return names.join(', ');
}

export function unknownNameHint(name: string, globals: Record<string, string[]>): string {
  const servers = Object.keys(globals);
  if (servers.length === 0) return 'This profile has no servers; only catalog and console exist.';
  const near = closest(name, servers, 1)[0];
  const guess = near !== undefined && editDistance(name.toLowerCase(), near.toLowerCase()) <= 2 ? `Did you mean ${near}? ` : '';
  return `${guess}The server globals are: ${list(servers)} (and ${list(SANDBOX_OWN)}).`;
}

export function unknownMethodHint(global: string, method: string, globals: Record<string, string[]>): string | undefined {
  if (global === 'catalog') return 'catalog has search(query, limit) and describe(names).';
  const methods = globals[global];
  if (!methods || methods.includes(method)) return undefined;
  if (methods.length === 0) return `${global} has no tools in this profile.`;
  return `${global} has no method "${method}"; the closest are: ${list(closest(method, methods))}. Use await catalog.describe(["${global}.${closest(method, methods, 1)[0]}"]) for its signature.`;
}

/**
 * The `a.b` just before a failed call at (line, column) of `source`, which QuickJS's bare
 * "not a function" leaves out.
 */
export function calleeAt(source: string, line: number, column: number): { object: string; property: string } | undefined {
  const text = source.split('\n')[line - 1];
  if (text === undefined) return undefined;
  const m = /([A-Za-z_$][\w$]*)\s*(?:\?\.|\.)\s*([A-Za-z_$][\w$]*)\s*(?:\?\.)?\s*$/.exec(text.slice(0, Math.max(0, column - 1)));
  return m ? { object: m[1]!, property: m[2]! } : undefined;
}
