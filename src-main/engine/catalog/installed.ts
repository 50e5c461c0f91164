// Which config.json servers came from a registry, at which version: kept beside config.json (its
// schema has no place for it) so that search and install can offer updates. Losing the file only
// loses that hint; config.json stays the truth about what runs.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogHit } from '../../../src-shared/api.ts';
import { AtomicTextFile } from '../config/atomic-file.ts';
import { compareVersions, type RegistryEntry } from './server-json.ts';

export interface InstalledRecord {
  /** Registry base URL it came from. */
  registry: string;
  /** Registry name, e.g. io.github.user/weather. */
  name: string;
  version: string;
  /** The key under "servers" in config.json. */
  serverName: string;
  installedAt: string;
}

export function installedFile(home: string): string {
  return path.join(home, 'catalog', 'installed.json');
}

export async function readInstalled(home: string): Promise<Record<string, InstalledRecord>> {
  try {
    const text = await new AtomicTextFile(installedFile(home)).read();
    const v = text ? (JSON.parse(text) as unknown) : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, InstalledRecord>) : {};
  } catch {
    // A damaged record only costs the update hints.
    return {};
  }
}

export async function recordInstalled(home: string, rec: InstalledRecord): Promise<void> {
  const all = await readInstalled(home);
  all[rec.serverName] = rec;
  await mkdir(path.dirname(installedFile(home)), { recursive: true, mode: 0o700 });
  await new AtomicTextFile(installedFile(home)).write(JSON.stringify(all, null, 2) + '\n');
}

/** The record of a registry name, if one of config.json's servers was installed from it. */
export function findInstalled(all: Record<string, InstalledRecord>, registryName: string): InstalledRecord | undefined {
  return Object.values(all).find((r) => r.name === registryName);
}

/** Registry entries as search hits, marked when installed from the registry (and whether newer). */
export function toHits(entries: RegistryEntry[], installed: Record<string, InstalledRecord>): CatalogHit[] {
  return entries.map((e) => {
    const rec = findInstalled(installed, e.name);
    return {
      name: e.name,
      version: e.version,
      ...(e.title ? { title: e.title } : {}),
      description: e.description,
      status: e.status,
      kinds: [...new Set([...e.packages.map((x) => x.registryType), ...(e.remotes.length ? ['remote'] : [])])],
      ...(rec ? { installed: { serverName: rec.serverName, version: rec.version, update: compareVersions(e.version, rec.version) > 0 } } : {}),
    };
  });
}
