// Sloppy upstream catalogs: a tool definition clients would refuse is mended (or, when it cannot
// be served, left out) instead of failing the whole server. The real shape of
// @modelcontextprotocol/server-gitlab 2025.4.25 comes first: every input schema `{ "$schema" }`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mendTool, mendToolList } from '../../../src-main/engine/upstream/lenient-catalog.ts';
import { cleanupHomes, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';
import { fixture, Scratch, until } from './helpers.ts';

const GITLAB = JSON.parse(readFileSync(new URL('../../fixtures/catalogs/gitlab-2025.4.25.json', import.meta.url), 'utf8')) as { tools: unknown[] };

describe('mending one tool definition', () => {
  it('gives a schema of only $schema the object type and says so', () => {
    const r = mendTool({ name: 'get_file', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' } });
    expect(r).toEqual({
      tool: { name: 'get_file', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } },
      fixes: ['its input schema had no "type" ("object" was set)'],
    });
  });

  it('keeps properties of a schema that only lacks its type', () => {
    const r = mendTool({ name: 'a', inputSchema: { properties: { q: { type: 'string' } }, required: ['q'] } });
    expect('tool' in r && r.tool.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
  });

  it('replaces a missing or non-object input schema, and drops invalid optional fields', () => {
    const r = mendTool({ name: 'a', description: 42, annotations: 'yes', inputSchema: { type: 'string' }, outputSchema: 7 });
    expect('tool' in r && r.tool).toEqual({ name: 'a', inputSchema: { type: 'object' } });
    expect('fixes' in r && r.fixes.join(' ')).toMatch(/"description".*|"annotations"/);
    const none = mendTool({ name: 'b' });
    expect('tool' in none && none.tool.inputSchema).toEqual({ type: 'object' });
  });

  it('serves a tool whose schema nests thousands of levels deep with an empty schema, walking it without recursion', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { a: deep } };
    const r = mendTool({ name: 'deep', inputSchema: deep, outputSchema: deep });
    expect('tool' in r && r.tool).toEqual({ name: 'deep', inputSchema: { type: 'object' } });
    expect('fixes' in r && r.fixes).toEqual([
      'its "inputSchema" nested more than 64 levels deep and was replaced by an empty object schema',
      'its "outputSchema" nested more than 64 levels deep and was left out',
    ]);
  });

  it('cannot serve a tool without a name', () => {
    expect(mendTool({ inputSchema: { type: 'object' } })).toEqual({ dropped: 'a tool without a name' });
    expect(mendTool('just a string')).toEqual({ dropped: 'an entry that is not a tool definition' });
  });

  it('leaves a valid list untouched and says nothing', () => {
    const tools = [{ name: 'a', inputSchema: { type: 'object' } }];
    expect(mendToolList(tools)).toEqual({ tools });
  });

  it('keeps the first of two tools with one name and names both kinds of change in one line', () => {
    const r = mendToolList([...GITLAB.tools, { name: 'create_issue', inputSchema: { type: 'object' } }, { description: 'nameless' }]);
    expect(r.tools).toHaveLength(GITLAB.tools.length);
    expect(r.note).toMatch(/^tools\/list: mended 9 of 11 tool definitions so clients accept them — create_or_update_file: its input schema had no "type"/);
    expect(r.note).toMatch(/and 4 more; left out 2 that cannot be served — create_issue: listed twice \(the first is kept\) \| a tool without a name$/);
    expect(r.note!.split('\n')).toHaveLength(1);
  });
});

describe('a server with the GitLab server\'s real catalog', () => {
  const scratch = new Scratch();
  afterAll(() => scratch.dispose());

  it('is ready with every tool, and its log has one line saying what was mended', async () => {
    const up = scratch.upstream('gitlab', fixture('sloppy-catalog.mjs'));
    await up.waitReady(15_000);
    expect(up.state).toBe('ready');
    expect(up.tools().map((t) => t.name)).toEqual((GITLAB.tools as { name: string }[]).map((t) => t.name));
    expect(up.tools().every((t) => t.inputSchema.type === 'object')).toBe(true);
    const logFile = path.join(scratch.logsDir, 'gitlab.log');
    const mended = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '').match(/tools\/list: mended 9 of 9 tool definitions/g);
    await until(() => mended() !== null, 5_000, 'the log line');
    expect(mended()).toHaveLength(1);
  });
});

describe('the tools surface over a sloppy server', () => {
  afterAll(cleanupHomes);

  it('lists the mended tools to a real client and calls them by their upstream names', async () => {
    const home = makeHome({ servers: { gitlab: fixtureServer('sloppy-catalog.mjs') }, profiles: { main: { servers: ['gitlab'] } } });
    const client = await shimClient(home, 'main');
    const { tools } = await waitFor(async () => {
      const r = await client.listTools();
      return r.tools.length > 0 ? r : undefined;
    }, 20_000, 'the gitlab fixture to be listed');
    expect(tools).toHaveLength(9);
    expect(tools.find((t) => t.name === 'gitlab__get_file_contents')?.inputSchema.type).toBe('object');
    const r = (await client.callTool({ name: 'gitlab__get_file_contents', arguments: { project_id: 'a/b', file_path: 'README.md' } })) as CallToolResult;
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual({ called: 'get_file_contents', arguments: { project_id: 'a/b', file_path: 'README.md' } });
    await client.close();
  });

  it('starts a server whose tool schema nests 3,000 levels deep (it overflowed the stack at every start)', async () => {
    // Written as text: JSON.stringify itself overflows on such a value.
    const deep = `${'{"type":"object","properties":{"a":'.repeat(3_000)}{"type":"string"}${'}}'.repeat(3_000)}`;
    const catalog = path.join(makeHome(), 'catalog.json');
    writeFileSync(catalog, `{"tools":[{"name":"deep","inputSchema":${deep}},{"name":"ok","inputSchema":{"type":"object"}}]}`);
    const home = makeHome({ servers: { s: fixtureServer('sloppy-catalog.mjs', { env: { FIXTURE_CATALOG: catalog } }) }, profiles: { main: { servers: ['s'] } } });
    const client = await shimClient(home, 'main');
    const { tools } = await waitFor(async () => {
      const r = await client.listTools();
      return r.tools.length > 0 ? r : undefined;
    }, 20_000, 'the deep fixture to be listed');
    expect(tools.map((t) => [t.name, t.inputSchema])).toEqual([['s__deep', { type: 'object' }], ['s__ok', { type: 'object' }]]);
    await client.close();
  });

  it('still serves the well-formed tools when one definition cannot be served', async () => {
    const catalog = path.join(makeHome(), 'catalog.json');
    writeFileSync(catalog, JSON.stringify({ tools: [{ name: 'ok', inputSchema: { type: 'object' } }, { description: 'no name' }] }));
    const home = makeHome({ servers: { s: fixtureServer('sloppy-catalog.mjs', { env: { FIXTURE_CATALOG: catalog } }) }, profiles: { main: { servers: ['s'] } } });
    const client = await shimClient(home, 'main');
    const { tools } = await waitFor(async () => {
      const r = await client.listTools();
      return r.tools.length > 0 ? r : undefined;
    }, 20_000, 'the fixture to be listed');
    expect(tools.map((t) => t.name)).toEqual(['s__ok']);
    await client.close();
  });
});
