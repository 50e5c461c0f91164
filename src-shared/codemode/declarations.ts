// TypeScript declarations of a code profile's tools, generated from their JSON Schemas (docs/protocol.md).
//
// Written by hand on purpose: the JSON-Schema-to-TypeScript libraries took about 0.3 s for 200 tools
// here, and the declarations are rebuilt whenever a catalog changes (the engine caches them per
// catalog). This one aims at readable declarations for a model, not at a perfect schema round trip:
// anything it cannot express becomes `unknown`, never an error.

export interface DeclarationTool {
  /** The method name in code (from codeNames). */
  method: string;
  /** The upstream tool name. */
  name: string;
  description?: string;
  inputSchema: object;
  outputSchema?: object;
  /** For a tool without outputSchema: the type its recent results had (learned-types.ts). */
  observedReturn?: ObservedReturn;
}

/** A return type seen in a tool's recent results; shown as observed, never as guaranteed. */
export interface ObservedReturn {
  /** One line of TypeScript. */
  type: string;
  samples: number;
}

export interface DeclarationServer {
  /** The global name in code (from codeNames). */
  global: string;
  description?: string;
  tools: DeclarationTool[];
}

/** The `catalog` global every code profile has. */
export const CATALOG_DECLARATION = `/** Finds the tools of this profile. Names are written as in code, e.g. "github.create_issue". */
declare const catalog: {
  /** Tools matching a query such as "create issue", best first. limit defaults to 10, at most 50. */
  search(query: string, limit?: number): Promise<{ name: string; description: string }[]>;
  /** TypeScript declarations of the named tools. */
  describe(names: string[]): Promise<string>;
};
`;

/** The `results` global of a profile that keeps results past maxResultChars (docs/code-mode.md). */
export const RESULTS_DECLARATION = `/** Results of earlier runs that were cut at maxResultChars; the cut note names the handle. Kept for a day, in this profile only. */
declare const results: {
  /** The whole kept value. */
  get(handle: string): Promise<unknown>;
  /** One page: array items, string characters or object entries from offset (default 0); limit defaults to 100 items or 10000 characters. next is the offset of the next page, null after the last. */
  get(handle: string, page: { offset?: number; limit?: number }): Promise<
    | { kind: "array"; total: number; offset: number; next: number | null; items: unknown[] }
    | { kind: "string"; total: number; offset: number; next: number | null; text: string }
    | { kind: "object"; total: number; offset: number; next: number | null; entries: Record<string, unknown> }
  >;
  /** The part a path names: "items[0].title", "items.*.id" (every element), or a JSON Pointer "/items/0/title". */
  query(handle: string, path: string): Promise<unknown>;
};
`;

/** The catalog declaration followed by every server's declaration. */
export function declarationsFor(servers: DeclarationServer[]): string {
  return `${CATALOG_DECLARATION}\n${declarationsForTools(servers)}`;
}

/** Declarations of the given servers and tools only (for get_schema and catalog.describe). */
export function declarationsForTools(servers: DeclarationServer[]): string {
  return servers.map((s) => serverDeclaration(s)).join('\n');
}

/**
 * One `declare const <global>: { … };` block. `methods` lets a caller reuse method texts it has
 * already built with {@link methodDeclaration}.
 */
export function serverDeclaration(server: DeclarationServer, methods?: string[]): string {
  const body = methods ?? server.tools.map((t) => methodDeclaration(t));
  return `${jsdoc(docText(server.description), '')}declare const ${server.global}: {\n${body.join('')}};\n`;
}

/** One method line (with its JSDoc) of a server block, indented by two spaces. */
export function methodDeclaration(tool: DeclarationTool): string {
  const indent = '  ';
  const input = typeOf(tool.inputSchema, newContext(tool.inputSchema), indent);
  const observed = tool.outputSchema ? undefined : tool.observedReturn;
  const output = tool.outputSchema ? typeOf(tool.outputSchema, newContext(tool.outputSchema), indent).s : (observed?.type ?? 'unknown');
  const takesNothing = input.s === EMPTY_OBJECT || input.s === ANY_OBJECT;
  const param = takesNothing ? 'args?: {}' : `args${argsOptional(tool.inputSchema) ? '?' : ''}: ${input.s}`;
  const doc = [docText(tool.description), observed ? observedTag(observed.samples) : ''].filter(Boolean).join('\n');
  return `${jsdoc(doc, indent)}${indent}${tool.method}(${param}): Promise<${output}>;\n`;
}

/** The JSDoc tag of a learned return type: it says where the type comes from and that it may be wrong. */
export function observedTag(samples: number): string {
  return `@returns observed from ${samples} recent result${samples === 1 ? '' : 's'}, not guaranteed (the tool declares no output schema)`;
}

// ---------------------------------------------------------------------------------------------

type Schema = Record<string, unknown>;

/** A type's text and how tightly it binds: 0 union, 1 intersection, 2 atom (safe before `[]`). */
interface Ty {
  s: string;
  prec: 0 | 1 | 2;
}

interface Context {
  root: unknown;
  /** $refs being expanded, to cut cycles. */
  refs: string[];
  depth: number;
  /** Schema nodes left to visit; bounds output for schemas that reuse definitions heavily. */
  budget: number;
}

const MAX_DEPTH = 24;
const MAX_REF_REPEATS = 2;
const NODE_BUDGET = 2000;
const EMPTY_OBJECT = '{}';
const ANY_OBJECT = 'Record<string, unknown>';
const UNKNOWN: Ty = { s: 'unknown', prec: 2 };
const TYPE_KEYWORDS = [
  'type', 'properties', 'additionalProperties', 'patternProperties', 'items', 'prefixItems',
  'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'nullable',
];

function newContext(root: unknown): Context {
  return { root, refs: [], depth: 0, budget: NODE_BUDGET };
}

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function atom(s: string): Ty {
  return { s, prec: 2 };
}

function typeOf(schema: unknown, ctx: Context, indent: string): Ty {
  if (schema === false) return atom('never');
  if (!isSchema(schema)) return UNKNOWN;
  if (ctx.depth >= MAX_DEPTH || ctx.budget <= 0) return UNKNOWN;
  ctx.budget--;
  ctx.depth++;
  try {
    return typeOfSchema(schema, ctx, indent);
  } finally {
    ctx.depth--;
  }
}

function typeOfSchema(schema: Schema, ctx: Context, indent: string): Ty {
  if (typeof schema.$ref === 'string') return typeOfRef(schema.$ref, ctx, indent);

  const parts: Ty[] = [];
  if ('const' in schema) parts.push(literal(schema.const));
  else if (Array.isArray(schema.enum)) parts.push(union(schema.enum.map(literal)));
  else {
    const own = typeFromTypeKeyword(schema, ctx, indent);
    if (own) parts.push(own);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schemaList(schema[key]);
    if (members.length > 0) parts.push(union(members.map((m) => typeOf(m, ctx, indent))));
  }
  for (const m of schemaList(schema.allOf)) parts.push(typeOf(m, ctx, indent));
  // `{ type: "object", oneOf: [...] }`: the variants say more than the bare object does.
  if (parts.length > 1 && parts[0]!.s === ANY_OBJECT) parts.shift();

  let ty = intersection(parts.filter((p) => p.s !== 'unknown'));
  if (schema.nullable === true) ty = union([ty, atom('null')]);
  return ty;
}

/** anyOf/oneOf/allOf members that say something about the type; `{ required: [...] }` alone does not. */
function schemaList(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter((m) => m === false || (isSchema(m) && TYPE_KEYWORDS.some((k) => k in m)));
}

function typeOfRef(ref: string, ctx: Context, indent: string): Ty {
  // A recursive definition is spelled out twice, enough to show its shape, then left open.
  if (ctx.refs.filter((r) => r === ref).length >= MAX_REF_REPEATS) return UNKNOWN;
  const target = resolvePointer(ctx.root, ref);
  if (target === undefined) return UNKNOWN;
  ctx.refs.push(ref);
  try {
    return typeOf(target, ctx, indent);
  } finally {
    ctx.refs.pop();
  }
}

/** Local references only (`#`, `#/$defs/X`, `#/definitions/X`, any JSON Pointer); others are unknown. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function typeFromTypeKeyword(schema: Schema, ctx: Context, indent: string): Ty | undefined {
  let types: unknown[];
  if (typeof schema.type === 'string') types = [schema.type];
  else if (Array.isArray(schema.type)) types = schema.type;
  else if ('properties' in schema || 'additionalProperties' in schema || 'patternProperties' in schema) types = ['object'];
  else if ('items' in schema || 'prefixItems' in schema) types = ['array'];
  else return undefined;
  return union(
    types.map((t): Ty => {
      switch (t) {
        case 'string':
          return atom('string');
        case 'number':
        case 'integer':
          return atom('number');
        case 'boolean':
          return atom('boolean');
        case 'null':
          return atom('null');
        case 'object':
          return objectType(schema, ctx, indent);
        case 'array':
          return arrayType(schema, ctx, indent);
        default:
          return UNKNOWN;
      }
    }),
  );
}

function objectType(schema: Schema, ctx: Context, indent: string): Ty {
  const inner = `${indent}  `;
  const props = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);

  const extras: Ty[] = [];
  const additional = schema.additionalProperties;
  if (additional === true) extras.push(UNKNOWN);
  else if (isSchema(additional)) extras.push(typeOf(additional, ctx, inner));
  if (isSchema(schema.patternProperties)) {
    for (const p of Object.values(schema.patternProperties)) extras.push(typeOf(p, ctx, inner));
  }
  const extra = extras.length > 0 ? union(extras) : undefined;

  const keys = Object.keys(props);
  if (keys.length === 0) {
    if (extra) return atom(`Record<string, ${extra.s}>`);
    return atom(additional === false ? EMPTY_OBJECT : ANY_OBJECT);
  }

  const members: { doc: string; line: string }[] = [];
  let documented = false;
  for (const key of keys) {
    const propSchema = props[key];
    const doc = docText(...propertyDocs(propSchema, ctx));
    if (doc) documented = true;
    const optional = required.has(key) ? '' : '?';
    members.push({ doc, line: `${propertyName(key)}${optional}: ${typeOf(propSchema, ctx, inner).s};` });
  }
  const indexInline = extra?.s === 'unknown';
  if (indexInline) members.push({ doc: '', line: '[key: string]: unknown;' });

  let text: string;
  const flat = `{ ${members.map((m) => m.line).join(' ').slice(0, -1)} }`;
  if (!documented && flat.length <= 100 && !flat.includes('\n')) text = flat;
  else text = `{\n${members.map((m) => `${jsdoc(m.doc, inner)}${inner}${m.line}\n`).join('')}${indent}}`;

  if (extra && !indexInline) return { s: `${text} & Record<string, ${extra.s}>`, prec: 1 };
  return atom(text);
}

/** A property's own description, or that of the definition it refers to. */
function propertyDocs(propSchema: unknown, ctx: Context): [string | undefined, Schema | undefined] {
  if (!isSchema(propSchema)) return [undefined, undefined];
  if (typeof propSchema.description !== 'string' && typeof propSchema.$ref === 'string') {
    const target = resolvePointer(ctx.root, propSchema.$ref);
    if (isSchema(target)) return [strOrUndef(target.description), { ...target, ...propSchema }];
  }
  return [strOrUndef(propSchema.description), propSchema];
}

function strOrUndef(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function arrayType(schema: Schema, ctx: Context, indent: string): Ty {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) {
    const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
    const min = typeof schema.minItems === 'number' ? schema.minItems : tuple.length;
    const elements = tuple.map((item, i) => {
      const t = typeOf(item, ctx, indent);
      return i >= min ? `${t.prec < 2 ? `(${t.s})` : t.s}?` : t.s;
    });
    if (rest === true || isSchema(rest)) elements.push(`...${arrayOf(typeOf(rest, ctx, indent))}`);
    return atom(`[${elements.join(', ')}]`);
  }
  return atom(arrayOf(typeOf(schema.items, ctx, indent)));
}

function arrayOf(t: Ty): string {
  return t.prec < 2 ? `(${t.s})[]` : `${t.s}[]`;
}

function literal(value: unknown): Ty {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return atom(JSON.stringify(value));
  if (typeof value === 'number') return atom(Number.isFinite(value) ? String(value) : 'number');
  if (Array.isArray(value)) return atom(`[${value.map((v) => literal(v).s).join(', ')}]`);
  if (isSchema(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${propertyName(k)}: ${literal(v).s}`);
    return atom(entries.length ? `{ ${entries.join('; ')} }` : EMPTY_OBJECT);
  }
  return UNKNOWN;
}

function union(types: Ty[]): Ty {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const t of types) {
    if (t.s === 'unknown') return UNKNOWN;
    if (t.s === 'never' || seen.has(t.s)) continue;
    seen.add(t.s);
    parts.push(t.s);
  }
  if (parts.length === 0) return atom('never');
  if (parts.length === 1) return types.find((t) => t.s === parts[0])!;
  return { s: parts.join(' | '), prec: 0 };
}

function intersection(types: Ty[]): Ty {
  if (types.length === 0) return UNKNOWN;
  if (types.length === 1) return types[0]!;
  return { s: types.map((t) => (t.prec < 1 ? `(${t.s})` : t.s)).join(' & '), prec: 1 };
}

function argsOptional(schema: unknown): boolean {
  return !isSchema(schema) || !Array.isArray(schema.required) || schema.required.length === 0;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyName(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

// ---------------------------------------------------------------------------------------------
// JSDoc

const MAX_EXAMPLE_CHARS = 80;

/** Description, then format, default, example and deprecation as short tags. */
function docText(description?: string, schema?: Schema): string {
  const lines: string[] = [];
  if (description?.trim()) lines.push(description.trim());
  if (schema) {
    if (typeof schema.format === 'string') lines.push(`@format ${schema.format}`);
    if ('default' in schema) lines.push(`@default ${brief(schema.default)}`);
    const example = Array.isArray(schema.examples) ? schema.examples[0] : schema.example;
    if (example !== undefined) lines.push(`@example ${brief(example)}`);
    if (schema.deprecated === true) lines.push('@deprecated');
  }
  return lines.join('\n');
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_EXAMPLE_CHARS ? `${text.slice(0, MAX_EXAMPLE_CHARS - 1)}…` : text;
}

function jsdoc(text: string, indent: string): string {
  if (!text) return '';
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l, i, all) => l !== '' || (i > 0 && all[i - 1] !== ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l ? `${indent} * ${l}\n` : `${indent} *\n`)).join('')}${indent} */\n`;
}
