// Everything the code surface knows about a profile's tools, built once per catalog: names in
// code, declarations, whether they fit in the execute description, describe and search.
import { SwitchboardError } from '../errors.ts';
import { codeNames, type ToolRef } from '../names.ts';
import {
  CATALOG_DECLARATION,
  methodDeclaration,
  serverDeclaration,
  type DeclarationServer,
  type DeclarationTool,
  type ObservedReturn,
} from './declarations.ts';
import { createToolSearch, type SearchHit, type ToolSearch } from './search.ts';
import { MAX_DESCRIBE_NAMES, MAX_QUERY_CHARS, MAX_SUGGESTED_NAMES, tooManyNamesMessage } from './catalog-limits.ts';

/** The parts of an MCP `Tool` the code surface uses. */
export interface CatalogTool {
  name: string;
  /** Display titles; search indexes them (MCP puts one on the tool and one in its annotations). */
  title?: string;
  annotations?: { title?: string };
  description?: string;
  inputSchema: object;
  outputSchema?: object;
  /** A return type learned from recent results, for a tool without outputSchema. */
  observedReturn?: ObservedReturn;
}

export interface CatalogServer {
  server: string;
  /** Shown as the JSDoc of the server's global, e.g. the server's instructions. */
  description?: string;
  tools: CatalogTool[];
}

export interface CodeCatalogEntry extends ToolRef {
  /** As written in code: `github.create_issue`. */
  name: string;
  global: string;
  method: string;
}

export interface CodeCatalog {
  /** Global → its method names, in the servers' own order. */
  globals: Record<string, string[]>;
  entries: CodeCatalogEntry[];
  resolve(global: string, method: string): ToolRef | undefined;
  /** The catalog declaration and every server's declaration; built on first read for catalogs over the limit. */
  readonly declarations: string;
  readonly declarationChars: number;
  /** Whether the declarations go into the execute description (at most 12,000 characters). */
  inline: boolean;
  /** Declarations of the named tools; throws `unknown-tool` naming the closest real names. */
  describe(names: string[]): string;
  search(query: string, limit?: number): SearchHit[];
  /** Up to `count` real names closest to one that does not exist, for error hints. */
  suggest(name: string, count?: number): string[];
}

/** The server key of the `skills` group in catalog entries: never a real server name (SERVER_NAME_RE). */
export const SKILLS_SERVER = ' skills';
export const SKILLS_GLOBAL = 'skills';

/** Saved runs offered as the `skills` global (docs/code-mode.md): callable ones, and names of unavailable ones. */
export interface CatalogSkills {
  tools: CatalogTool[];
  /** Shown in the global's JSDoc: skills whose tools left the profile, with what they miss. */
  unavailable: string[];
}

/** Declarations up to this many characters are included in the execute description (the code-mode docs' rule). */
export const INLINE_DECLARATION_LIMIT = 12_000;

export interface CodeCatalogOptions {
  /** Sandbox globals besides `catalog` (e.g. `results`): servers named like them get a `_` suffix. */
  extraGlobals?: Iterable<string>;
  /** Their declarations, placed after the catalog's and counted in the 12,000 characters. */
  extraDeclarations?: string[];
  /** Saved skills, as the `skills` global (docs/code-mode.md). */
  skills?: CatalogSkills;
}

export function buildCodeCatalog(servers: CatalogServer[], opts: CodeCatalogOptions = {}): CodeCatalog {
  const seen = new Set<string>();
  const unique = servers.filter((s) => !seen.has(s.server) && seen.add(s.server));
  const names = codeNames(
    unique.map((s) => ({ server: s.server, tools: s.tools.map((t) => t.name) })),
    { extraGlobals: opts.skills ? [...(opts.extraGlobals ?? []), SKILLS_GLOBAL] : opts.extraGlobals },
  );
  const groups = unique.map((s) => ({ s, global: names.globals.get(s.server)!, methods: names.methods.get(s.server)! }));
  if (opts.skills) {
    // Skill names are checked to be plain identifiers when saved, so they are their own methods.
    const { tools, unavailable } = opts.skills;
    const description = `Saved runs (skills): each runs its code as a run of its own with \`input\` bound to the argument.${unavailable.length ? ` Unavailable here: ${unavailable.join('; ')}.` : ''}`;
    groups.push({ s: { server: SKILLS_SERVER, description, tools }, global: SKILLS_GLOBAL, methods: new Map(tools.map((t) => [t.name, t.name])) });
  }

  const entries: CodeCatalogEntry[] = [];
  const byName = new Map<string, { entry: CodeCatalogEntry; tool: DeclarationTool; source: CatalogTool }>();
  const byOriginal = new Map<string, CodeCatalogEntry>();
  const byMethod = new Map<string, CodeCatalogEntry[]>();
  // Null prototype: globals come from server names, and `globals[name]` must never find `constructor`.
  const globals = Object.create(null) as Record<string, string[]>;
  const declServers: DeclarationServer[] = [];
  const methodTexts = new Map<string, string>();

  for (const { s, global, methods } of groups) {
    const tools: DeclarationTool[] = [];
    globals[global] = [];
    for (const t of s.tools) {
      const method = methods.get(t.name)!;
      const name = `${global}.${method}`;
      if (byName.has(name)) continue;
      const entry: CodeCatalogEntry = { name, server: s.server, tool: t.name, global, method };
      const tool: DeclarationTool = { method, name: t.name, description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema, observedReturn: t.observedReturn };
      entries.push(entry);
      tools.push(tool);
      globals[global]!.push(method);
      byName.set(name, { entry, tool, source: t });
      byOriginal.set(`${s.server}.${t.name}`, entry);
      const sameMethod = byMethod.get(method);
      if (sameMethod) sameMethod.push(entry);
      else byMethod.set(method, [entry]);
    }
    declServers.push({ global, description: s.description, tools });
  }

  // Method texts are made on first need: a large catalog only needs enough of them to learn it
  // is over the limit, then the few that describe asks for.
  const methodText = (name: string): string => {
    let text = methodTexts.get(name);
    if (text === undefined) {
      text = methodDeclaration(byName.get(name)!.tool);
      if (byName.get(name)!.entry.server === SKILLS_SERVER) text = text.replace(/^(\s*[\w$]+\()args/m, '$1input');
      methodTexts.set(name, text);
    }
    return text;
  };

  // Same text as declarationsFor(declServers).
  const assemble = (wanted?: Set<string>): string =>
    declServers
      .map((d) => {
        const names = d.tools.map((t) => `${d.global}.${t.method}`).filter((n) => !wanted || wanted.has(n));
        return !wanted || names.length > 0 ? serverDeclaration(d, names.map(methodText)) : '';
      })
      .filter((block) => block !== '')
      .join('\n');
  let full: string | undefined;
  const preamble = [CATALOG_DECLARATION, ...(opts.extraDeclarations ?? [])].join('\n');
  const fullText = (): string => (full ??= `${preamble}\n${assemble()}`);

  // The method texts alone are a lower bound of the full length, so stop adding once past the limit.
  let lowerBound = preamble.length;
  const overLimit = entries.some((e) => (lowerBound += methodText(e.name).length) > INLINE_DECLARATION_LIMIT);
  const inline = !overLimit && fullText().length <= INLINE_DECLARATION_LIMIT;

  let index: ToolSearch | undefined;
  const searchIndex = (): ToolSearch =>
    (index ??= createToolSearch(
      entries.map((e) => {
        const { tool, source } = byName.get(e.name)!;
        const props = (tool.inputSchema as { properties?: unknown } | null)?.properties;
        return {
          name: e.name,
          server: e.server,
          titles: toolTitles(source),
          description: tool.description,
          params: props && typeof props === 'object' ? Object.keys(props) : [],
          schemaText: schemaText(tool.inputSchema),
          operations: toolOperations(props),
        };
      }),
    ));

  const find = (name: string): CodeCatalogEntry | undefined => {
    const direct = byName.get(name)?.entry ?? byOriginal.get(name);
    if (direct) return direct;
    const bare = byMethod.get(name);
    return bare?.length === 1 ? bare[0] : undefined;
  };

  const suggest = (name: string, count = 3): string[] => {
    const dot = name.indexOf('.');
    const global = dot >= 0 ? name.slice(0, dot) : undefined;
    const pool = global !== undefined && Object.hasOwn(globals, global) ? entries.filter((e) => e.global === global) : entries;
    const max = Math.max(2, Math.floor(name.length / 3));
    const close = pool
      .map((e) => ({ name: e.name, d: boundedDistance(name, e.name, max) }))
      .filter((c) => c.d <= max)
      .sort((a, b) => a.d - b.d || (a.name < b.name ? -1 : 1))
      .slice(0, count)
      .map((c) => c.name);
    if (close.length > 0 || name.trim() === '' || name.length > MAX_QUERY_CHARS) return close;
    try {
      return searchIndex().search(name, count).map((h) => h.name);
    } catch {
      // A name that is no search query (too many words) simply has no suggestion.
      return [];
    }
  };

  return {
    globals,
    entries,
    resolve: (global, method) => {
      const entry = byName.get(`${global}.${method}`)?.entry;
      return entry ? { server: entry.server, tool: entry.tool } : undefined;
    },
    get declarations() {
      return fullText();
    },
    get declarationChars() {
      return fullText().length;
    },
    inline,
    describe(requested) {
      if (!Array.isArray(requested) || requested.length === 0 || requested.some((n) => typeof n !== 'string')) {
        throw new SwitchboardError('bad-request', 'get_schema needs "names", a list of tool names such as ["github.create_issue"].');
      }
      if (requested.length > MAX_DESCRIBE_NAMES) throw new SwitchboardError('bad-request', tooManyNamesMessage(requested.length));
      const wanted = new Set<string>();
      const unknown: string[] = [];
      for (const n of requested) {
        const entry = find(n.trim());
        if (entry) wanted.add(entry.name);
        else unknown.push(n);
      }
      if (unknown.length > 0) throw unknownTools(unknown, suggest, Object.keys(globals));
      return assemble(wanted);
    },
    search: (query, limit) => searchIndex().search(query, limit),
    suggest,
  };
}

/** A tool's titles that are strings (a server may send anything), each once. */
function toolTitles(tool: CatalogTool): string[] {
  const titles = [tool.title, tool.annotations?.title].filter((t): t is string => typeof t === 'string' && t !== '');
  return [...new Set(titles)];
}

/** Enough of a schema's own words to search by; a hostile schema's megabytes are not indexed. */
const MAX_SCHEMA_TEXT_CHARS = 4000;

/**
 * The descriptions and titles of an input schema's properties, nested ones too, in order, bounded.
 * Enum values are left out: they are what may be passed ("open", "closed"), not what the tool does.
 */
function schemaText(schema: unknown): string {
  const parts: string[] = [];
  let chars = 0;
  const walk = (node: unknown, depth: number): void => {
    if (chars > MAX_SCHEMA_TEXT_CHARS || depth > 6 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    for (const key of ['title', 'description']) {
      const v = o[key];
      if (typeof v === 'string') (parts.push(v), (chars += v.length));
    }
    for (const key of ['properties', 'items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
      const v = o[key];
      if (key === 'properties' && v && typeof v === 'object') for (const child of Object.values(v)) walk(child, depth + 1);
      else walk(v, depth + 1);
    }
  };
  const props = (schema as { properties?: unknown } | null)?.properties;
  if (props && typeof props === 'object') for (const child of Object.values(props)) walk(child, 0);
  return parts.join(' ').slice(0, MAX_SCHEMA_TEXT_CHARS);
}

/** Parameter names under which a tool that does several things takes which one. */
const OPERATION_PARAMS = new Set(['method', 'action', 'operation', 'op']);
/** Enough for every operation of a real tool; a hostile schema's thousands are not indexed. */
const MAX_OPERATIONS = 32;

/** The string values of a tool's operation parameter, e.g. `method: { enum: ["get", "get_diff"] }`. */
function toolOperations(props: unknown): string[] {
  if (!props || typeof props !== 'object') return [];
  const found: string[] = [];
  for (const [key, schema] of Object.entries(props as Record<string, unknown>)) {
    if (!OPERATION_PARAMS.has(key) || !schema || typeof schema !== 'object') continue;
    const values = (schema as { enum?: unknown }).enum;
    if (!Array.isArray(values)) continue;
    for (const v of values) if (typeof v === 'string' && v.length <= 64 && found.length < MAX_OPERATIONS) found.push(v);
  }
  return found;
}

/** Unknown names quoted in the error at most; the rest are counted. */
const MAX_NAMED_UNKNOWN = 10;
/** A quoted unknown name is cut to this many characters. */
const MAX_QUOTED_NAME_CHARS = 80;

function unknownTools(unknown: string[], suggest: (name: string) => string[], globals: string[]): SwitchboardError {
  // Suggestions cost a pass over every tool: only the first few names get one.
  const parts = unknown.slice(0, MAX_NAMED_UNKNOWN).map((n, i) => {
    const quoted = JSON.stringify(n.length > MAX_QUOTED_NAME_CHARS ? `${n.slice(0, MAX_QUOTED_NAME_CHARS)}…` : n);
    const close = i < MAX_SUGGESTED_NAMES ? suggest(n) : [];
    return close.length > 0 ? `${quoted} (closest: ${close.join(', ')})` : quoted;
  });
  if (unknown.length > MAX_NAMED_UNKNOWN) parts.push(`and ${unknown.length - MAX_NAMED_UNKNOWN} more`);
  const noun = unknown.length === 1 ? 'No tool named' : 'No tools named';
  const where = globals.length > 0 ? ` The servers here are ${globals.join(', ')}.` : ' This profile has no tools.';
  return new SwitchboardError(
    'unknown-tool',
    `${noun} ${parts.join(', ')}. Write names as in code, e.g. "server.tool_name", or find them with search_tools.${where}`,
  );
}

/**
 * Levenshtein distance over code units, or `max + 1` as soon as it must exceed `max`: names can
 * be as long as the code likes, so the work is bounded by the band around the diagonal.
 */
function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return Math.min(prev[b.length]!, max + 1);
}
