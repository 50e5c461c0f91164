// Which config.json servers came from a registry, at which version: kept beside config.json (its
// schema has no place for it) so that search and install can offer updates. Losing the file only
// loses that hint; config.json stays the truth about what runs.
import path from 'node:path';
import { z } from 'zod';
import type { CatalogHit } from '../../../src-shared/api.ts';
import { jsonDocument, readDocument, updateDocument } from '../config/json-document.ts';
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

const InstalledRecords = z.record(
  z.string(),
  z.looseObject({ registry: z.string(), name: z.string(), version: z.string(), serverName: z.string(), installedAt: z.string() }),
) satisfies z.ZodType<Record<string, InstalledRecord>>;

const none = (): Record<string, InstalledRecord> => ({});
/** A damaged file only costs the update hints: read as empty, and replaced by the next install. */
const damagedAsNone = none;

function installedDocument(home: string) {
  return jsonDocument(installedFile(home), InstalledRecords, none);
}

export function readInstalled(home: string): Promise<Record<string, InstalledRecord>> {
  return readDocument(installedDocument(home), none, damagedAsNone);
}

/** Adds (or replaces) the record of one server, keeping every other: two installs at once both count. */
export async function recordInstalled(home: string, rec: InstalledRecord): Promise<void> {
  await updateDocument(installedDocument(home), none, (all) => ({ ...all, [rec.serverName]: rec }), damagedAsNone);
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
