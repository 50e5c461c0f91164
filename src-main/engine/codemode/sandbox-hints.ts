// Hints for failed runs (docs/protocol.md): the server globals for an unknown name, the closest methods
// for an unknown method, and the profile's servers that are not serving this run (still
// starting, failed, withheld tools) with why. Hand-written: a 20-line edit distance is not worth
// a dependency.
import { toIdentifier } from '../../../src-shared/names.ts';
import type { ServerReadiness } from '../gateway/gateway.ts';

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
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0))
    .slice(0, count)
    .map((x) => x.c);
}

function list(names: readonly string[]): string {
  return names.join(', ');
}

/** Why one server of the profile does not (fully) serve this run, as a clause. */
function readinessClause(r: ServerReadiness): string {
  // lastError is a sentence of its own; here it continues a clause.
  const error = r.lastError ? `: ${r.lastError.trim().replace(/[.\s]+$/, '')}` : '';
  switch (r.state) {
    case 'starting':
      return `${r.server} is still starting`;
    case 'restarting':
      return r.lastError ? `${r.server} is restarting after an error${error}` : `${r.server} is restarting`;
    case 'failed':
      return `${r.server} failed to start${error || ' (its log says why)'}`;
    case 'disabled':
      return `${r.server} is disabled in config.json`;
    case 'needs-approval':
      return `${r.server} was proposed from outside and waits for your approval (review it in the app or run \`switchboard approve ${r.server}\`)`;
    case 'needs-sign-in':
      return `${r.server} needs you to sign in again (switchboard login ${r.server})`;
    case 'missing':
      return `${r.server} is named by the profile but is not in config.json's servers`;
    case 'ready':
      return `${r.server} has tools withheld because their definitions changed since they were approved (${list(r.withheld ?? [])}; run \`switchboard approve ${r.server}\` to trust them)`;
  }
}

/** A sentence naming every server of the profile that is not fully serving this run, or undefined when all are. */
export function readinessNote(unready: readonly ServerReadiness[]): string | undefined {
  if (unready.length === 0) return undefined;
  return `Not available to this run: ${unready.map(readinessClause).join('; ')}.`;
}

/** Whether `name`, written in code, is the global a server would have. */
function isGlobalOf(name: string, server: string): boolean {
  return name === server || toIdentifier(server, () => false) === name;
}

export function unknownNameHint(name: string, globals: Record<string, string[]>, unready: readonly ServerReadiness[] = []): string {
  const servers = Object.keys(globals);
  const notReady = unready.filter((r) => r.state !== 'ready');
  const own = notReady.find((r) => isGlobalOf(name, r.server));
  if (own) {
    const others = readinessNote(unready.filter((r) => r !== own));
    const ready = servers.length ? ` The server globals ready now are: ${list(servers)}.` : '';
    const coming = own.state === 'starting' || own.state === 'restarting' ? ' Try again in a moment (switchboard status shows when it is ready).' : '';
    return `${name} is not available: ${readinessClause(own)}.${coming}${ready}${others ? ` ${others}` : ''}`;
  }
  const note = readinessNote(unready);
  if (servers.length === 0) {
    // Never "no servers" when the profile has servers that are not ready: say which and why.
    return note ?? 'This profile has no servers; only catalog and console exist.';
  }
  const near = closest(name, servers, 1)[0];
  const guess = near !== undefined && editDistance(name.toLowerCase(), near.toLowerCase()) <= 2 ? `Did you mean ${near}? ` : '';
  return `${guess}The server globals are: ${list(servers)} (and ${list(SANDBOX_OWN)}).${note ? ` ${note}` : ''}`;
}

export function unknownMethodHint(
  global: string,
  method: string,
  globals: Record<string, string[]>,
  unready: readonly ServerReadiness[] = [],
): string | undefined {
  if (global === 'catalog') return 'catalog has search(query, limit) and describe(names).';
  const methods = Object.hasOwn(globals, global) ? globals[global] : undefined;
  if (!methods || methods.includes(method)) return undefined;
  const withheld = unready.find((r) => isGlobalOf(global, r.server) && r.withheld?.some((t) => t === method || toIdentifier(t, () => false) === method));
  if (withheld) {
    return `${global}.${method} is withheld: its definition changed since it was approved. Review it in the app or run \`switchboard approve ${withheld.server}\`.`;
  }
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
