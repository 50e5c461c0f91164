// Names a profile shows to clients: `<server>__<tool>` on the tools surface, and server globals
// with tool methods on the code surface (docs/protocol.md). Both are pure functions of their input, so
// the same catalog always yields the same names.

export interface ToolRef {
  server: string;
  tool: string;
}

/** Key of one upstream tool in the maps below: server and tool joined by U+0000, which no name contains in practice. */
export function toolKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

// ---------------------------------------------------------------------------------------------
// Tools surface

/** Longest tool name MCP clients accept reliably (several cap at 64). */
export const MAX_TOOL_NAME_LENGTH = 64;

export interface ExposedToolTable {
  /** toolKey(server, tool) → exposed name. */
  names: Map<string, string>;
  /** Exposed name → the upstream tool it stands for. */
  byName: Map<string, ToolRef>;
  nameOf(server: string, tool: string): string | undefined;
  lookup(exposed: string): ToolRef | undefined;
}

/**
 * Exposed names for the tools surface, keyed by `toolKey(server, tool)`.
 * See {@link exposedToolTable} for the rules and the reverse lookup.
 */
export function exposedToolNames(entries: ToolRef[], opts: ExposedNameOptions): Map<string, string> {
  return exposedToolTable(entries, opts).names;
}

export interface ExposedNameOptions {
  namespace: boolean;
  /**
   * Longest name to give (default {@link MAX_TOOL_NAME_LENGTH}): a client that puts a prefix of
   * its own on our names gets its cap minus that prefix (client-limits.ts nameBudget).
   */
  maxLength?: number;
}

/** Shortest budget a name is cut to: below it a name would be little more than its hash. */
const MIN_SHORT_NAME = 16;

/**
 * Names are `<server>__<tool>` (the bare tool when `namespace` is false) with every character
 * outside [A-Za-z0-9_-] replaced by `_`. A name longer than `maxLength` (64) keeps its start (55
 * characters at 64, without a trailing `_` or `-`) and gets `_` plus a hash of the full original
 * name, so a shortened name reads like the tool and is the same every time.
 *
 * A name a client has seen must keep meaning the same tool, so collisions are
 * settled in this order: first every name that needed no change is its tool's own (a literal
 * name is never taken by a changed one, so no tool can forge a shortened or cleaned name by
 * naming itself like it); then the changed names, in the order the entries come (config order:
 * the profile's servers as listed, each server's tools as it lists them), each keeping its
 * candidate when free, else getting another hash suffix. Two servers can no longer meet here:
 * config validation refuses servers whose names would share tool names ({@link serverNameClash}),
 * so what remains are one server's own tools. Hashes rather than counters keep a tool's name
 * stable when other tools come and go, since clients remember names.
 */
export function exposedToolTable(entries: ToolRef[], opts: ExposedNameOptions): ExposedToolTable {
  const max = Math.max(MIN_SHORT_NAME, opts.maxLength ?? MAX_TOOL_NAME_LENGTH);
  const withSuffix = (base: string, suffix: string): string => base.slice(0, Math.max(0, max - suffix.length)).replace(/[_-]+$/u, '') + suffix;
  interface Pending {
    key: string;
    ref: ToolRef;
    raw: string;
    candidate: string;
  }
  const pending = new Map<string, Pending>();
  for (const ref of entries) {
    const key = toolKey(ref.server, ref.tool);
    if (pending.has(key)) continue;
    const raw = opts.namespace ? `${ref.server}__${ref.tool}` : ref.tool;
    const sanitized = raw.replace(/[^A-Za-z0-9_-]/gu, '_') || '_';
    const candidate =
      sanitized.length > max ? withSuffix(sanitized, `_${hashHex(key, 8)}`) : sanitized;
    pending.set(key, { key, ref: { server: ref.server, tool: ref.tool }, raw, candidate });
  }

  const names = new Map<string, string>();
  const byName = new Map<string, ToolRef>();
  const assign = (p: Pending, name: string): void => {
    names.set(p.key, name);
    byName.set(name, p.ref);
  };

  const changed: Pending[] = [];
  for (const p of pending.values()) {
    if (p.raw === p.candidate && !byName.has(p.candidate)) assign(p, p.candidate);
    else changed.push(p);
  }
  for (const p of changed) {
    if (!byName.has(p.candidate)) {
      assign(p, p.candidate);
      continue;
    }
    const hash = hashHex(p.key, 6);
    let name = withSuffix(p.candidate, `_${hash}`);
    for (let n = 2; byName.has(name); n++) name = withSuffix(p.candidate, `_${hash}_${n}`);
    assign(p, name);
  }

  return {
    names,
    byName,
    nameOf: (server, tool) => names.get(toolKey(server, tool)),
    lookup: (exposed) => byName.get(exposed),
  };
}

// FNV-1a: tiny, stable across runs and platforms, and enough to tell a handful of colliding names apart.
function hashHex(text: string, digits: number): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0').slice(0, digits);
}

// Code-unit order, so names never depend on the machine's locale.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether two servers' tools would be shown under the same names: one's `<server>__` prefix, once
 * cleaned, begins the other's ("files.v2" and "files_v2" both give `files_v2__…`; "gh" and "gh__x"
 * share `gh__x__…`), or in code both servers become the same global ("my-server", "my_server").
 * Config validation refuses such a pair: whichever came second would take names clients already
 * know for the first one's tools. Undefined when the names are apart; else the name they share.
 */
export function serverNameClash(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  const clean = (s: string) => `${s.replace(/[^A-Za-z0-9_-]/gu, '_')}__`;
  const [pa, pb] = [clean(a), clean(b)];
  if (pa.startsWith(pb) || pb.startsWith(pa)) return `${(pa.length <= pb.length ? pa : pb)}…`;
  const taboo = (n: string) => RESERVED_WORDS.has(n) || INHERITED_NAMES.has(n) || SANDBOX_GLOBALS.has(n);
  const ga = toIdentifier(a, taboo);
  return ga === toIdentifier(b, taboo) ? ga : undefined;
}

// ---------------------------------------------------------------------------------------------
// Code surface

/** Words JavaScript reserves (always, in strict mode, or inside the async function the code runs in), plus global values that cannot be rebound. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete',
  'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import',
  'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'typeof', 'var', 'void', 'while', 'with', 'yield',
  'implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static',
  'undefined', 'NaN', 'Infinity', 'eval', 'arguments',
]);

/** Names every object inherits; a method or global with one of these names would shadow or, for `__proto__`, replace them. */
export const INHERITED_NAMES: ReadonlySet<string> = new Set([
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
  'toString', 'toLocaleString', 'valueOf', '__defineGetter__', '__defineSetter__', '__lookupGetter__',
  '__lookupSetter__',
]);

/** Globals the sandbox itself provides: our own (`catalog`, `console`) and the standard built-ins. */
export const SANDBOX_GLOBALS: ReadonlySet<string> = new Set([
  'catalog', 'console', 'globalThis',
  'Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'BigInt', 'Date', 'RegExp',
  'Promise', 'Proxy', 'Reflect', 'JSON', 'Math', 'Atomics', 'Intl', 'Iterator',
  'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError',
  'URIError', 'InternalError', 'SuppressedError',
  'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray',
  'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array',
  'Float64Array', 'BigInt64Array', 'BigUint64Array',
  'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'encodeURI', 'encodeURIComponent', 'decodeURI',
  'decodeURIComponent', 'escape', 'unescape', 'queueMicrotask', 'structuredClone',
  // Absent from the sandbox on purpose; a server global with these names would read as if they were there.
  'fetch', 'require', 'process', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'module', 'exports',
]);

export interface CodeNames {
  /** Server → its global in code. */
  globals: Map<string, string>;
  /** Server → (tool → its method on that global). */
  methods: Map<string, Map<string, string>>;
}

/**
 * Globals and methods for the code surface (docs/protocol.md): every character not valid in a JavaScript
 * identifier becomes `_`, a name that cannot start an identifier (a digit) gets a `_` prefix,
 * and names that would clash with the language get a `_` suffix. For globals that means reserved
 * words, inherited Object names and the sandbox's own globals ({@link SANDBOX_GLOBALS}, plus
 * `extraGlobals`). Methods follow the same rule minus the sandbox globals: reserved words are
 * legal property names, but one rule for both keeps the names predictable, and inherited names
 * (`__proto__`, `constructor`, …) must never become own methods. Remaining collisions get `_2`,
 * `_3`, …: a name that needed no change keeps it, the others follow in code-unit order of their
 * original names.
 */
export function codeNames(
  servers: { server: string; tools: string[] }[],
  opts: { extraGlobals?: Iterable<string> } = {},
): CodeNames {
  const globalTaboo = new Set([...SANDBOX_GLOBALS, ...(opts.extraGlobals ?? [])]);
  const globals = uniqueNames(
    servers.map((s) => s.server),
    (name) => RESERVED_WORDS.has(name) || INHERITED_NAMES.has(name) || globalTaboo.has(name),
  );
  const methods = new Map<string, Map<string, string>>();
  for (const { server, tools } of servers) {
    if (methods.has(server)) continue;
    methods.set(server, uniqueNames(tools, (name) => RESERVED_WORDS.has(name) || INHERITED_NAMES.has(name)));
  }
  return { globals, methods };
}

/** Turns any string into a JavaScript identifier by the rules of {@link codeNames}, collisions aside. */
export function toIdentifier(name: string, taboo: (name: string) => boolean): string {
  let out = '';
  for (const ch of name) out += ID_CONTINUE.test(ch) ? ch : '_';
  if (out === '' || !ID_START.test(String.fromCodePoint(out.codePointAt(0)!))) out = `_${out}`;
  return taboo(out) ? `${out}_` : out;
}

const ID_START = /^[\p{ID_Start}$_]$/u;
const ID_CONTINUE = /^[\p{ID_Continue}$\u200C\u200D]$/u;

function uniqueNames(originals: string[], taboo: (name: string) => boolean): Map<string, string> {
  const distinct = [...new Set(originals)].sort(compare);
  const candidates = new Map(distinct.map((o) => [o, toIdentifier(o, taboo)]));
  const result = new Map<string, string>();
  const taken = new Set<string>();
  for (const o of distinct) {
    const c = candidates.get(o)!;
    if (c === o) {
      result.set(o, c);
      taken.add(c);
    }
  }
  for (const o of distinct) {
    if (result.has(o)) continue;
    const base = candidates.get(o)!;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    result.set(o, name);
    taken.add(name);
  }
  // Callers iterate in their own order; give the map back in the order the servers/tools came.
  return new Map([...new Set(originals)].map((o) => [o, result.get(o)!]));
}
