// The one list of clients (src-shared/client-catalog.ts), as connect, records and limits read it.
import { describe, expect, it } from 'vitest';
import { CLIENT_CATALOG, catalogEntry, composeToolName } from '../../src-shared/client-catalog.ts';
import { CLIENT_LIMITS, CONNECTOR_ID_RE, LIMITED_CLIENT_IDS } from '../../src-shared/client-limits.ts';
import { clientIdFromInfo } from '../../src-shared/client-names.ts';

describe('the client catalog', () => {
  it('names each client once, with an id a shim may pass as --client', () => {
    const ids = CLIENT_CATALOG.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id, id).toMatch(CONNECTOR_ID_RE);
  });

  it('gives every client with limits to the limits table, under its own name', () => {
    const withLimits = CLIENT_CATALOG.filter((c) => 'limits' in c).map((c) => c.id);
    expect([...LIMITED_CLIENT_IDS].sort()).toEqual([...withLimits].sort());
    for (const id of LIMITED_CLIENT_IDS) expect(CLIENT_LIMITS[id].name).toBe(catalogEntry(id)!.name);
  });

  it('has a file or copy-paste steps for every client but those known only from their clientInfo', () => {
    const neither = CLIENT_CATALOG.filter((c) => !('file' in c) && !('copyPaste' in c)).map((c) => c.id);
    expect(neither).toEqual(['qoder', 'xcode']);
    for (const id of neither) expect(clientIdFromInfo(id)).toBe(id);
  });

  it('composes tool names as each client does, whatever the names hold', () => {
    expect(composeToolName('mcp__{entry}__{tool}', 'switchboard-p', 'search')).toBe('mcp__switchboard-p__search');
    expect(composeToolName('{tool}', 'switchboard-p', 'search')).toBe('search');
    // A name that looks like a placeholder stays as it is.
    expect(composeToolName('{entry}_{tool}', '{tool}', '{entry}')).toBe('{tool}_{entry}');
  });
});
