import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { codeNames } from '../../../src-shared/names.ts';
import {
  CATALOG_DECLARATION,
  declarationsFor,
  declarationsForTools,
  type DeclarationServer,
} from '../../../src-shared/codemode/declarations.ts';

interface FixtureTool {
  name: string;
  description?: string;
  inputSchema: object;
  outputSchema?: object;
}

function loadTools(path: string): FixtureTool[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { tools: FixtureTool[] }).tools;
}

const githubTools = loadTools(fileURLToPath(new URL('../../fixtures/catalogs/github.json', import.meta.url)));
const everythingTools = loadTools(fileURLToPath(new URL('../../fixtures/catalogs/everything.json', import.meta.url)));

function serversFrom(catalog: { server: string; tools: FixtureTool[] }[]): DeclarationServer[] {
  const names = codeNames(catalog.map((c) => ({ server: c.server, tools: c.tools.map((t) => t.name) })));
  return catalog.map((c) => ({
    global: names.globals.get(c.server)!,
    tools: c.tools.map((t) => ({ ...t, method: names.methods.get(c.server)!.get(t.name)! })),
  }));
}

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
};
const libCache = new Map<string, ts.SourceFile>();

/** Type errors of `source` compiled on its own with the real TypeScript compiler, as readable lines. */
function typeErrors(source: string): string[] {
  const host = ts.createCompilerHost(compilerOptions);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (fileName === 'input.ts') return ts.createSourceFile(fileName, source, languageVersion, true);
    let file = libCache.get(fileName);
    if (!file) {
      file = getSourceFile(fileName, languageVersion, ...rest);
      if (file) libCache.set(fileName, file);
    }
    return file;
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => f === 'input.ts' || fileExists(f);
  const program = ts.createProgram(['input.ts'], compilerOptions, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const line = where ? source.split('\n')[where.line] : '';
    return `${where ? where.line + 1 : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')} | ${line?.trim()}`;
  });
}

const tricky: FixtureTool[] = [
  {
    name: 'tree',
    description: 'Walks a tree. Ends a comment early? */ not here.',
    inputSchema: {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' }, legacy: { $ref: '#/definitions/Legacy' } },
      required: ['root'],
      $defs: {
        node: {
          type: 'object',
          description: 'A node with children',
          properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['value'],
        },
      },
      definitions: { Legacy: { anyOf: [{ $ref: '#/definitions/Legacy' }, { type: 'integer' }] } },
    },
  },
  {
    name: 'weird-names',
    inputSchema: {
      type: 'object',
      properties: {
        'with-dash': { type: 'string' },
        'has space': { type: 'number' },
        '"quoted"': { type: 'boolean' },
        '2fast': { type: 'null' },
        'new': { type: 'string' },
        '__proto__': { type: 'string' },
        'emoji🎉': { type: 'string' },
      },
    },
  },
  {
    name: 'enums',
    inputSchema: {
      type: 'object',
      properties: {
        quote: { enum: ["it's", 'say "hi"', 'back\\slash', 'line\nbreak', 3, true, null] },
        fixed: { const: 'only' },
        objectConst: { const: { a: [1, 'two'] } },
        empty: { enum: [] },
      },
      required: ['quote'],
    },
  },
  {
    name: 'shapes',
    description: 'Every shape at once',
    inputSchema: {
      type: 'object',
      properties: {
        maybe: { type: ['string', 'null'] },
        openapi: { type: 'integer', nullable: true },
        union: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'number' } }] },
        both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'number' } } }] },
        tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], minItems: 1 },
        oldTuple: { type: 'array', items: [{ type: 'boolean' }, { anyOf: [{ type: 'string' }, { type: 'number' }] }], additionalItems: { type: 'string' } },
        unionArray: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
        dict: { type: 'object', additionalProperties: { type: 'number' } },
        mixed: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: { type: 'number' } },
        open: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: true },
        patterned: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
        closed: { type: 'object', additionalProperties: false },
        when: { type: 'string', format: 'date-time', default: '2024-01-01T00:00:00Z', examples: ['2024-05-01T10:00:00Z'] },
        anything: {},
        nothing: false,
        remote: { $ref: 'https://example.com/schema.json' },
        missing: { $ref: '#/$defs/nope' },
        nested: { type: 'object', properties: { deeper: { type: 'object', properties: { deepest: { type: 'string', description: 'Way down' } } } } },
      },
      required: ['maybe', 'union'],
    },
    outputSchema: {
      type: 'object',
      properties: { ok: { type: 'boolean' }, items: { type: 'array', items: { $ref: '#/$defs/item' } } },
      required: ['ok'],
      $defs: { item: { type: 'object', properties: { id: { type: 'integer' } } } },
    },
  },
  { name: 'no-args', description: 'Takes nothing', inputSchema: { type: 'object', properties: {} } },
  { name: 'self-ref-root', inputSchema: { type: 'object', properties: { next: { $ref: '#' } } } },
];

describe('declarationsFor', () => {
  it('declares a typed method per tool that the TypeScript compiler accepts and checks', () => {
    const text = declarationsFor(serversFrom([{ server: 'github', tools: githubTools }]));
    expect(text.startsWith(CATALOG_DECLARATION)).toBe(true);
    expect(text).toContain('declare const github: {');
    expect(text).toMatch(/\n {2}create_pull_request\(args: \{\n/);
    const usage = `
async function ok() {
  const hits = await catalog.search('create issue', 5);
  hits[0]?.name.toUpperCase();
  await github.issue_write({ method: 'create', owner: 'acme', repo: 'web', title: 'Hi' });
  await github.get_me();
}
async function bad() {
  // @ts-expect-error: owner and repo are required
  await github.issue_write({ method: 'create' });
  // @ts-expect-error: method only takes its enum values
  await github.issue_write({ method: 'explode', owner: 'a', repo: 'b' });
}
void ok; void bad;
`;
    expect(typeErrors(text + usage)).toEqual([]);
  });

  it('typechecks the reference everything server, whose tool names have dashes', () => {
    const text = declarationsFor(serversFrom([{ server: 'everything', tools: everythingTools }]));
    expect(text).toContain('get_sum(args: {');
    expect(typeErrors(text)).toEqual([]);
  });

  it('returns the output schema type when the tool has one', () => {
    const structured = everythingTools.find((t) => t.outputSchema);
    expect(structured).toBeDefined();
    const text = declarationsForTools(serversFrom([{ server: 'everything', tools: [structured!] }]));
    expect(text).not.toContain('Promise<unknown>');
    expect(typeErrors(text)).toEqual([]);
  });

  it('copes with recursive refs, odd property names, quoted enums and every schema shape', () => {
    const text = declarationsFor(serversFrom([{ server: 'tricky-1', tools: tricky }]));
    expect(typeErrors(text)).toEqual([]);
    expect(text).toContain('declare const tricky_1: {');
    expect(text).toContain('*\\/ not here');
    expect(text).toContain('"with-dash"?: string;');
    expect(text).toContain('"\\"quoted\\""?: boolean;');
    expect(text).toContain('"it\'s" | "say \\"hi\\"" | "back\\\\slash" | "line\\nbreak" | 3 | true | null');
    expect(text).toContain('maybe: string | null;');
    expect(text).toContain('openapi?: number | null;');
    expect(text).toContain('tuple?: [string, number?];');
    expect(text).toContain('oldTuple?: [boolean, string | number, ...string[]];');
    expect(text).toContain('unionArray?: (string | number)[];');
    expect(text).toContain('dict?: Record<string, number>;');
    expect(text).toContain('mixed?: { id?: string } & Record<string, number>;');
    expect(text).toContain('open?: { id?: string; [key: string]: unknown };');
    expect(text).toContain('patterned?: Record<string, string>;');
    expect(text).toContain('@format date-time');
    expect(text).toContain('@default "2024-01-01T00:00:00Z"');
    expect(text).toContain('Promise<{ ok: boolean; items?: { id?: number }[] }>');
    expect(text).toContain('no_args(args?: {}): Promise<unknown>;');
    expect(text).toContain('/** A node with children */');

    const usage = `
async function use() {
  await tricky_1.tree({ root: { value: 'a', children: [{ value: 'b', children: [] }] } });
  // @ts-expect-error: a child needs a value
  await tricky_1.tree({ root: { value: 'a', children: [{}] } });
  const out = await tricky_1.shapes({ maybe: null, union: [1, 2] });
  out.ok.valueOf();
  await tricky_1.no_args();
}
void use;
`;
    expect(typeErrors(text + usage)).toEqual([]);
  });

  it('stays small for schemas that reuse definitions exponentially, and survives malformed ones', () => {
    const defs: Record<string, object> = {};
    for (let i = 0; i < 40; i++) defs[`d${i}`] = { type: 'object', properties: { l: { $ref: `#/$defs/d${i + 1}` }, r: { $ref: `#/$defs/d${i + 1}` } } };
    const tools = [
      { name: 'dag', inputSchema: { $ref: '#/$defs/d0', $defs: defs } },
      { name: 'null-schema', inputSchema: null as unknown as object },
      { name: 'array-schema', inputSchema: [] as unknown as object, outputSchema: { type: 'nonsense' } },
    ];
    const text = declarationsFor(serversFrom([{ server: 's', tools }]));
    expect(text.length).toBeLessThan(200_000);
    expect(text).toContain('null_schema(args?: unknown): Promise<unknown>;');
    expect(typeErrors(text)).toEqual([]);
  });

  it('keeps declarations of a subset to the tools asked for, without the catalog', () => {
    const [server] = serversFrom([{ server: 'github', tools: githubTools }]);
    const subset = declarationsForTools([{ ...server!, tools: server!.tools.filter((t) => t.name === 'get_me') }]);
    expect(subset).not.toContain('declare const catalog');
    expect(subset.match(/\n {2}\w+\(/g)).toEqual(['\n  get_me(']);
  });

  it('gives the same text for the same catalog', () => {
    const a = declarationsFor(serversFrom([{ server: 'github', tools: githubTools }]));
    const b = declarationsFor(serversFrom([{ server: 'github', tools: structuredClone(githubTools) }]));
    expect(a).toBe(b);
  });
});
