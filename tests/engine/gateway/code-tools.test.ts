// The code surface's tools/list stays small for any catalog size.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeSurfaceTools } from '../../../src-main/engine/gateway/code-tools.ts';
import { buildCodeCatalog, type CatalogServer } from '../../../src-shared/codemode/catalog.ts';
import { CODE_MODE_DEFAULTS, DEFAULT_BUDGETS } from '../../../src-shared/config/schema.ts';

const GITHUB = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/catalogs/github.json'), 'utf8')) as { tools: CatalogServer['tools'] };
const MAX_TOOLS_LIST_CHARS = 14_000;

function synthetic(servers: number, toolsEach: number): CatalogServer[] {
  return Array.from({ length: servers }, (_, s) => ({
    server: `server-number-${s}`,
    tools: Array.from({ length: toolsEach }, (_, t) => ({
      name: `a_fairly_descriptive_tool_name_${t}`,
      description: `Tool ${t} of server ${s}.`,
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    })),
  }));
}

const listChars = (servers: CatalogServer[], features = CODE_MODE_DEFAULTS) =>
  JSON.stringify({ tools: codeSurfaceTools(buildCodeCatalog(servers), { ...DEFAULT_BUDGETS }, features) }).length;

describe('the code surface tools/list', () => {
  it(`stays within ${MAX_TOOLS_LIST_CHARS.toLocaleString('en-US')} characters for any catalog size, with the name index`, () => {
    for (const [servers, each] of [[1, 1000], [1000, 1], [50, 200], [3000, 3]] as const) {
      expect(listChars(synthetic(servers, each)), `${servers} × ${each}`).toBeLessThanOrEqual(MAX_TOOLS_LIST_CHARS);
    }
    expect(listChars([{ server: 'github', tools: GITHUB.tools }])).toBeLessThanOrEqual(MAX_TOOLS_LIST_CHARS);
  });

  it('lists every GitHub tool name when the declarations are left out, and none with nameIndex off', () => {
    const catalog = buildCodeCatalog([{ server: 'github', tools: GITHUB.tools }]);
    expect(catalog.inline).toBe(false);
    const d = codeSurfaceTools(catalog, { ...DEFAULT_BUDGETS })[0]!.description!;
    expect(d).toContain(`Tool names by server (all ${GITHUB.tools.length}):\ngithub: `);
    for (const t of GITHUB.tools) expect(d).toContain(t.name);
    const off = codeSurfaceTools(catalog, { ...DEFAULT_BUDGETS }, { ...CODE_MODE_DEFAULTS, nameIndex: false })[0]!.description!;
    expect(off).not.toContain('Tool names by server');
  });

  it('leaves the index out when the declarations are inline', () => {
    const d = codeSurfaceTools(buildCodeCatalog(synthetic(1, 3)), { ...DEFAULT_BUDGETS })[0]!.description!;
    expect(d).toContain('declare const server_number_0');
    expect(d).not.toContain('Tool names by server');
  });
});
