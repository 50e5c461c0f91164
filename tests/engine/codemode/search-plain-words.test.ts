// search_tools and catalog.search find tools asked for in plain words, through a real client,
// the real shim and engine, and real servers: the reference filesystem and memory servers and
// the 117 GitHub tools served by the catalog fixture. Titles come from the servers' tools/list.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, fixtureServer, makeHome, referenceServer, shimClient, waitFor } from '../../helpers/home.ts';

const GITHUB = path.resolve(__dirname, '../../fixtures/catalogs/github.json');

afterAll(cleanupHomes);

let client: Client;

beforeAll(async () => {
  const home = makeHome();
  const files = path.join(home, 'files');
  mkdirSync(files);
  const config = {
    servers: {
      github: fixtureServer('catalog.mjs', { env: { CATALOG_FILE: GITHUB } }),
      filesystem: referenceServer('filesystem', [files]),
      memory: { ...referenceServer('memory'), env: { MEMORY_FILE_PATH: path.join(home, 'memory.jsonl') } },
    },
    profiles: { work: { servers: ['github', 'filesystem', 'memory'], surface: 'code' } },
  };
  writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
  client = await shimClient(home, 'work');
  // Wait until all three servers' tools are in the catalog.
  await waitFor(async () => {
    const names = await searchTools('directory memory graph pull request', 50);
    return ['github.', 'filesystem.', 'memory.'].every((p) => names.some((n) => n.startsWith(p))) || undefined;
  }, 30_000);
}, 60_000);

afterAll(async () => client?.close());

async function searchTools(query: string, limit = 5): Promise<string[]> {
  const r = (await client.callTool({ name: 'search_tools', arguments: { query, limit } })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  if (r.isError) return [];
  return (JSON.parse(text) as { name: string }[]).map((h) => h.name);
}

describe('search in plain words through the shim', () => {
  it('search_tools puts the meant tool first for words the tool does not use', async () => {
    expect((await searchTools('open a pull request'))[0]).toBe('github.create_pull_request');
    expect((await searchTools('make a new folder'))[0]).toBe('filesystem.create_directory');
    expect((await searchTools('who am I logged in as'))[0]).toBe('github.get_me');
  });

  it('catalog.search inside the sandbox understands the same words', async () => {
    const r = (await client.callTool(
      { name: 'execute', arguments: { code: 'async () => (await catalog.search("forget a fact", 3)).map((h) => h.name)' } },
      undefined,
      { timeout: 60_000 },
    )) as CallToolResult;
    const text = (r.content[0] as { text: string }).text;
    expect(r.isError, text).toBeFalsy();
    const names = JSON.parse(text.slice(text.indexOf('Result:\n') + 'Result:\n'.length)) as string[];
    expect(names[0]).toBe('memory.delete_observations');
  });
});
