// The layering of STYLE.md, as a rule table per folder: what code in each folder may import.
// Imports are read with TypeScript's own pre-processor (static, `export … from`, dynamic
// `import()` and `require()`), from .ts/.mjs files and the <script> blocks of .svelte files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCE_DIRS = ['src-shared', 'src-main', 'src-renderer'];
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

type Target =
  | { kind: 'file'; file: string } // a project file, relative to ROOT
  | { kind: 'package'; name: string; builtin: boolean };

interface Rule {
  /** Folder (relative to ROOT, with a trailing slash) the rule applies to; the longest match wins. */
  folder: string;
  /** Why, in the words of the violation message. */
  reason: string;
  /** Returns true when `from` may import `to`. */
  allows: (to: Target) => boolean;
}

const isElectron = (t: Target) => t.kind === 'package' && (t.name === 'electron' || t.name.startsWith('electron/'));
const isBuiltin = (t: Target) => t.kind === 'package' && t.builtin;
const inFolder = (t: Target, folder: string) => t.kind === 'file' && t.file.startsWith(folder);

export const RULES: Rule[] = [
  {
    folder: 'src-shared/',
    reason: 'src-shared is pure TypeScript: no Node, no Electron, nothing from src-main or src-renderer',
    allows: (t) => !isBuiltin(t) && !isElectron(t) && !inFolder(t, 'src-main/') && !inFolder(t, 'src-renderer/'),
  },
  {
    folder: 'src-main/',
    reason: 'only src-main/electron may import Electron, and src-main never imports the renderer',
    allows: (t) => !isElectron(t) && !inFolder(t, 'src-renderer/') && !inFolder(t, 'src-main/electron/'),
  },
  {
    folder: 'src-main/electron/',
    reason: 'the Electron shell talks to the renderer over IPC only',
    allows: (t) => !inFolder(t, 'src-renderer/'),
  },
  {
    folder: 'src-main/shim/',
    reason: 'the shim is plain JavaScript with no dependencies (Node built-ins, its own folder and package.json only)',
    allows: (t) => isBuiltin(t) || inFolder(t, 'src-main/shim/') || (t.kind === 'file' && t.file === 'package.json'),
  },
  {
    folder: 'src-renderer/',
    reason: 'the renderer runs in a browser and reaches the engine only through the API contract in src-shared',
    allows: (t) => !isBuiltin(t) && !isElectron(t) && !inFolder(t, 'src-main/'),
  },
];

/**
 * The engine's folders by rank, lowest first: a file may import from its own folder or from a
 * folder of lower rank, never from one of equal or higher rank, so the folders never form a loop.
 * '.' stands for the loose files of src-main/engine/ (the wiring at the top). docs/architecture.md
 * says what each folder holds.
 */
export const ENGINE_RANKS: Readonly<Record<string, number>> = {
  platform: 0, // where the app, its home and its shim live; processes; PATH search
  config: 1, // the config store, atomic files, the file lock
  records: 2, // audit log and run history, redaction
  secrets: 3, // the secret store
  trust: 4, // tool pins, proposals, why a server or tool is unavailable
  upstream: 5, // server connections, the supervisor, transports, oauth/
  clients: 6, // MCP clients' config files
  gateway: 7, // profile views, client sessions, the tool call path
  codemode: 8, // execute: the sandbox pool and the run of code through the gateway
  http: 9, // loopback HTTP: UI files, /api/, /mcp/<profile>
  catalog: 10, // the MCP registry, install plans, bundles
  api: 11, // the socket server and the control API's handlers
  handover: 12, // one engine handing its home to a newer one
  '.': 13, // engine.ts, entry.ts, status-report.ts, engine-files.ts
};

const ENGINE = 'src-main/engine/';

/** The ranked unit of an engine file: its first folder under src-main/engine/, or '.' for a loose file. */
export function engineUnit(file: string): string | undefined {
  if (!file.startsWith(ENGINE)) return undefined;
  const rest = file.slice(ENGINE.length).split('/');
  return rest.length > 1 ? rest[0] : '.';
}

/** Every rank violation in one engine file, naming both files and both ranks. */
export function rankViolations(file: string, text: string): string[] {
  const from = engineUnit(file);
  if (from === undefined) return [];
  const fromRank = ENGINE_RANKS[from];
  if (fromRank === undefined) return [`Bad rank: ${file} is in ${from}/, which has no rank in ENGINE_RANKS`];
  const out: string[] = [];
  for (const { spec } of importsOf(file, text)) {
    const target = resolve(file, spec);
    if (target.kind !== 'file') continue;
    const to = engineUnit(target.file);
    if (to === undefined || to === from) continue;
    const toRank = ENGINE_RANKS[to];
    if (toRank === undefined || toRank >= fromRank) {
      out.push(`Bad rank: ${file} (${from}, rank ${fromRank}) imports ${target.file} (${to}, rank ${toRank ?? 'none'}); a folder imports only from folders of lower rank`);
    }
  }
  return out;
}

function ruleFor(file: string): Rule | undefined {
  return RULES.filter((r) => file.startsWith(r.folder)).sort((a, b) => b.folder.length - a.folder.length)[0];
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...listSources(rel));
    else if (/\.(ts|mts|mjs|js|svelte)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

export interface ImportRef {
  spec: string;
  /** `import type …` / `export type … from`: erased at run time, so it cannot make a load-order cycle. */
  typeOnly: boolean;
}

/** The modules a source text imports (for .svelte, from its <script> blocks). */
export function importsOf(file: string, text: string): ImportRef[] {
  const code = file.endsWith('.svelte')
    ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')
    : text;
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ImportRef[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypes =
        !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly) && !clause?.name;
      found.push({ spec: node.moduleSpecifier.text, typeOnly: !!clause?.isTypeOnly || allNamedTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        found.push({ spec: node.arguments[0].text, typeOnly: false });
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ spec: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const EXTENSIONS = ['', '.ts', '.mts', '.mjs', '.js', '.svelte', '/index.ts'];

function resolve(from: string, spec: string): Target {
  if (spec.startsWith('.')) {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    for (const ext of EXTENSIONS) {
      const candidate = base + ext;
      try {
        if (statSync(path.join(ROOT, candidate)).isFile()) return { kind: 'file', file: candidate };
      } catch {
        // Try the next extension.
      }
    }
    // `./x.js` written for a `./x.ts` source (NodeNext style).
    const ts = base.replace(/\.js$/, '.ts');
    return { kind: 'file', file: ts };
  }
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  return { kind: 'package', name: spec.startsWith('node:') ? spec : name, builtin: NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(name) };
}

/** Every violation in one file, as "Bad layering: A imports B (rule)". */
export function violations(file: string, text: string): string[] {
  const rule = ruleFor(file);
  if (!rule) return [];
  return importsOf(file, text)
    .filter(({ spec }) => !rule.allows(resolve(file, spec)))
    .map(({ spec }) => `Bad layering: ${file} imports ${spec} (${rule.reason})`);
}

/** Project-file imports per file; `withTypes` adds the type-only ones. */
function graph(withTypes: boolean): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of SOURCE_DIRS.flatMap(listSources)) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const deps = importsOf(file, text)
      .filter((ref) => withTypes || !ref.typeOnly)
      .map(({ spec }) => resolve(file, spec))
      .flatMap((t) => (t.kind === 'file' ? [t.file] : []));
    edges.set(file, deps);
  }
  return edges;
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      // A file importing itself (a recursive Svelte component) is not a cycle between modules.
      if (comp.length > 1) found.push(comp.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe('layering', () => {
  it('keeps every source file within its folder rule', () => {
    const bad = SOURCE_DIRS.flatMap(listSources).flatMap((file) =>
      violations(file, readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(bad).toEqual([]);
  });

  it('names a planted violation in each folder', () => {
    expect(violations('src-main/engine/platform/home.ts', "import { app } from 'electron';")).toEqual([
      "Bad layering: src-main/engine/platform/home.ts imports electron (only src-main/electron may import Electron, and src-main never imports the renderer)",
    ]);
    expect(violations('src-main/engine/platform/home.ts', "const e = await import('electron');")).toHaveLength(1);
    expect(violations('src-main/engine/platform/home.ts', "const e = require('electron');")).toHaveLength(1);
    expect(violations('src-shared/names.ts', "import fs from 'node:fs';")).toHaveLength(1);
    expect(violations('src-shared/names.ts', "import fs from 'fs';")).toHaveLength(1);
    expect(violations('src-shared/names.ts', "import { x } from '../src-main/engine/engine.ts';")).toHaveLength(1);
    expect(violations('src-renderer/App.svelte', "<script lang=\"ts\">import os from 'node:os';</script>")).toHaveLength(1);
    expect(violations('src-renderer/lib/x.ts', "import { Engine } from '../../src-main/engine/engine.ts';")).toHaveLength(1);
    expect(violations('src-main/shim/shim.mjs', "import z from 'zod';")).toHaveLength(1);
    expect(violations('src-shared/names.ts', "import type { Stats } from 'node:fs';")).toHaveLength(1);
    // And what is allowed stays allowed.
    expect(violations('src-main/electron/main.ts', "import { app } from 'electron';")).toEqual([]);
    expect(violations('src-renderer/lib/x.ts', "import type { Api } from '../../src-shared/api.ts';")).toEqual([]);
    expect(violations('src-main/engine/platform/home.ts', "import os from 'node:os';")).toEqual([]);
  });

  it('keeps every engine file to folders of lower rank', () => {
    const bad = listSources('src-main/engine').flatMap((file) => rankViolations(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('names both files and both ranks of a planted rank violation', () => {
    expect(rankViolations('src-main/engine/config/store.ts', "import { x } from '../gateway/gateway.ts';")).toEqual([
      'Bad rank: src-main/engine/config/store.ts (config, rank 1) imports src-main/engine/gateway/gateway.ts (gateway, rank 7); a folder imports only from folders of lower rank',
    ]);
    expect(rankViolations('src-main/engine/gateway/x.ts', "import type { Y } from '../codemode/code-runner.ts';")).toHaveLength(1);
    expect(rankViolations('src-main/engine/upstream/oauth/x.ts', "const m = await import('../../engine.ts');")).toHaveLength(1);
    expect(rankViolations('src-main/engine/trust/x.ts', "import { y } from '../upstream/server-log.ts';")).toHaveLength(1);
    expect(rankViolations('src-main/engine/newfolder/x.ts', '')).toHaveLength(1);
    // Its own folder, lower ranks and files outside the engine stay allowed.
    expect(rankViolations('src-main/engine/trust/x.ts', "import { y } from './pins.ts';")).toEqual([]);
    expect(rankViolations('src-main/engine/gateway/x.ts', "import { y } from '../upstream/supervisor.ts';")).toEqual([]);
    expect(rankViolations('src-main/engine/engine.ts', "import { y } from './handover/hand-over.ts';")).toEqual([]);
    expect(rankViolations('src-main/engine/config/x.ts', "import { y } from '../../../src-shared/names.ts';")).toEqual([]);
  });

  it('finds a planted import cycle', () => {
    const planted = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(planted)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('has no import cycles between modules at run time', () => {
    expect(cycles(graph(false))).toEqual([]);
  });

  it('has no type-level import cycles either', () => {
    // Type-only imports are erased, so a cycle of them cannot break loading, but it ties the
    // files to one another; the control API, the HTTP server and the gateway's sessions take
    // small interfaces instead (GatewayPort in gateway/session-base.ts). A new cycle fails here.
    expect(cycles(graph(true)).map((c) => c.join(' '))).toEqual([]);
  });
});
