// The catalog that works offline: the servers shipped with the app (shipped-servers.ts), read by
// the same server.json parser as registry answers, searched by words, and merged with the live
// registry's hits (shipped first; a registry entry for the same server is left out).
import type { CatalogInput } from '../../../src-shared/api.ts';
import { wordsMatch } from '../../../src-shared/catalog-words.ts';
import { parseServerResponse, type RegistryEntry } from './server-json.ts';
import { SHIPPED_SERVERS } from './shipped-servers.ts';

interface Shipped {
  entry: RegistryEntry;
  key: string;
  labels: Record<string, string>;
}
let parsed: Shipped[] | undefined;

function all(): Shipped[] {
  parsed ??= SHIPPED_SERVERS.map((s) => {
    const entry = parseServerResponse({ server: s.server });
    if (!entry) throw new Error(`shipped-servers.ts: ${String(s.server.name)} is not valid server.json`);
    return { entry, key: s.key, labels: s.labels ?? {} };
  });
  return parsed;
}

/** The config.json name a shipped entry is added under (before making it unique). */
export function shippedKey(name: string): string | undefined {
  return all().find((s) => s.entry.name === name)?.key;
}

/** Every shipped entry, in the list's order. */
export function shippedEntries(): RegistryEntry[] {
  return all().map((s) => s.entry);
}

/** The shipped entry of a name, if any. */
export function findShipped(name: string): RegistryEntry | undefined {
  return all().find((s) => s.entry.name === name)?.entry;
}

/** Shipped entries whose name, title or description hold every word of `text` (all of them for empty text). */
export function searchShipped(text: string): RegistryEntry[] {
  return shippedEntries().filter((e) => wordsMatch(text, `${e.name} ${e.title ?? ''} ${e.description} ${e.packages.map((p) => p.identifier).join(' ')}`));
}

/** What makes two entries the same server: a package identifier or a remote URL. */
function keys(e: RegistryEntry): string[] {
  return [...e.packages.map((p) => `${p.registryType}:${p.identifier}`), ...e.remotes.map((r) => `url:${r.url.replace(/\/+$/, '')}`)];
}

/** Shipped entries first, then the registry's, without a second entry for a shipped server. */
export function mergeCatalogs(shipped: RegistryEntry[], live: RegistryEntry[]): RegistryEntry[] {
  const names = new Set(shippedEntries().map((e) => e.name));
  const known = new Set(shippedEntries().flatMap(keys));
  return [...shipped, ...live.filter((e) => !names.has(e.name) && !keys(e).some((k) => known.has(k)))];
}

/**
 * The asked values of a shipped entry under the names a person knows them by ("Brave Search API
 * key" rather than "env BRAVE_API_KEY"). The plan's labels end in the env variable, header or
 * argument name, or a {variable} in parentheses.
 */
export function plainLabels(name: string, inputs: CatalogInput[]): CatalogInput[] {
  const labels = all().find((s) => s.entry.name === name)?.labels;
  if (!labels) return inputs;
  return inputs.map((i) => {
    const m = /^(?:env|header|argument) (\S+)(?: \(([^)]+)\))?$/.exec(i.label);
    const label = m ? (labels[m[2] ?? ''] ?? labels[m[1]!.replace(/^<|>$/g, '')]) : undefined;
    return label ? { ...i, label } : i;
  });
}
