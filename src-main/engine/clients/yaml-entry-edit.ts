// Adds, replaces or removes one server entry in a YAML client file (Goose's `extensions:` map,
// Continue's `mcpServers:` list) by splicing only that entry's lines. The yaml package's Document
// API parses the file and gives each node's source range; our entry's block is rendered by it too.
// Re-serialising the whole document would re-flow the user's comments, quoting and blank lines.
import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { ClientFileError } from './client-errors.ts';
import type { Layout } from './json-entry-edit.ts';

export interface YamlShape {
  /** Top-level key holding the servers. */
  container: string;
  /** 'map': `container: {name: entry}` (Goose); 'list': `container: [{name, ...entry}]` (Continue). */
  style: 'map' | 'list';
  /** Field inside each item that repeats the entry's name; written first, left out of the entry read back. */
  nameField?: string;
  /** Text a new file starts with (Continue refuses a config.yaml without name and version). */
  newFileHeader?: string;
}

export type Created = 'none' | 'container' | 'empty-file';

export function parseYamlDocument(text: string, file: string): Document.Parsed {
  const doc = parseDocument(text, { uniqueKeys: true });
  const e = doc.errors[0];
  if (e) {
    throw new ClientFileError(
      'unparseable',
      `${file} is not valid YAML (${e.message.split('\n')[0]!.replace(/:$/, '')}). Switchboard left it unchanged; fix that part and try again.`,
    );
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new ClientFileError('unsupported-layout', `${file} does not hold a YAML mapping at the top, so Switchboard left it unchanged.`);
  }
  return doc;
}

interface Located {
  doc: Document.Parsed;
  top: YAMLMap | null;
  pair: Pair<Node, Node | null> | null;
  coll: YAMLMap | YAMLSeq | null;
}

function locate(text: string, shape: YamlShape, file: string): Located {
  const doc = parseYamlDocument(text, file);
  const top = doc.contents as YAMLMap | null;
  const pair = (top?.items.find((p) => isScalar(p.key) && p.key.value === shape.container) as Pair<Node, Node | null> | undefined) ?? null;
  const v = pair?.value ?? null;
  if (v === null || (isScalar(v) && (v.value === null || v.value === undefined) && v.source === '')) return { doc, top, pair, coll: null };
  const want = shape.style === 'map' ? isMap(v) : isSeq(v);
  if (!want) {
    throw new ClientFileError(
      'unsupported-layout',
      `In ${file}, "${shape.container}" is not a YAML ${shape.style === 'map' ? 'mapping' : 'list'}, so Switchboard left the file unchanged.`,
    );
  }
  const coll = v as YAMLMap | YAMLSeq;
  if (coll.flow) {
    throw new ClientFileError(
      'unsupported-layout',
      `In ${file}, "${shape.container}" is written in flow style (${shape.style === 'map' ? '{…}' : '[…]'}); Switchboard edits only block style. Write it as indented lines (or delete it if it is empty) and try again.`,
    );
  }
  return { doc, top, pair, coll };
}

function plain(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v ?? null)) as unknown;
}

function withoutName(v: unknown, nameField: string | undefined): unknown {
  if (!nameField || !v || typeof v !== 'object' || Array.isArray(v)) return v;
  const { [nameField]: _drop, ...rest } = v as Record<string, unknown>;
  return rest;
}

/** Items of the container as [name, source node range holder] pairs. */
function items(coll: YAMLMap | YAMLSeq, shape: YamlShape): { name: string; node: Node; start: number; end: number }[] {
  const out: { name: string; node: Node; start: number; end: number }[] = [];
  for (const it of coll.items as unknown[]) {
    if (shape.style === 'map') {
      const p = it as Pair<Node, Node | null>;
      if (!isScalar(p.key)) continue;
      out.push({ name: String(p.key.value), node: p.value ?? p.key, start: p.key.range![0], end: (p.value ?? p.key).range![1] });
    } else {
      const n = it as Node;
      if (!isMap(n)) continue;
      const nm = n.get(shape.nameField ?? 'name');
      if (typeof nm !== 'string') continue;
      out.push({ name: nm, node: n, start: n.range![0], end: n.range![1] });
    }
  }
  return out;
}

/** The container's entries by name, or undefined when the container is missing. */
export function readYamlEntries(text: string, shape: YamlShape, file: string): Record<string, unknown> | undefined {
  const { coll, pair } = locate(text, shape, file);
  if (!coll) return pair ? {} : undefined;
  const out: Record<string, unknown> = {};
  for (const it of items(coll, shape)) out[it.name] = withoutName(plain(it.node.toJSON()), shape.nameField);
  return out;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just past the line holding `offset` (its newline included), or the text's end. */
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', Math.max(offset - 1, 0));
  return nl < 0 ? text.length : nl + 1;
}

/** Start of the line an item begins on: for a list item, the line of its dash. */
function itemLineStart(text: string, start: number, shape: YamlShape): number {
  const ls = lineStart(text, start);
  if (shape.style === 'list' && !text.slice(ls, start).includes('-') && ls > 0) return lineStart(text, ls - 1);
  return ls;
}

function leading(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

function render(name: string, entry: Record<string, unknown>, shape: YamlShape, indent: string, layout: Layout): string {
  const item = shape.nameField ? { [shape.nameField]: name, ...entry } : entry;
  const value = shape.style === 'map' ? { [name]: item } : [item];
  const width = layout.indent === '\t' ? 2 : Math.max(1, layout.indent.length);
  const body = stringify(value, { indent: width, lineWidth: 0 }).replace(/\n$/, '');
  return body.split('\n').map((l) => indent + l).join(layout.eol) + layout.eol;
}

/**
 * Inserts whole lines at `at` (a line start). At the end of a file without a final newline the
 * lines go after a newline and the file keeps ending without one, so removal can give it back.
 */
function insertLines(text: string, at: number, lines: string, layout: Layout): string {
  if (at === text.length && text !== '' && !text.endsWith('\n')) return text + layout.eol + lines.slice(0, -layout.eol.length);
  return text.slice(0, at) + lines + text.slice(at);
}

/** Where our item goes and with what indentation, inside an existing block container. */
function itemIndent(text: string, coll: YAMLMap | YAMLSeq, shape: YamlShape, layout: Layout, keyIndent: string): string {
  const first = items(coll, shape)[0];
  // A list item's line starts with "- ": its indentation is that of the dash, not of the map after it.
  if (first) return leading(text, shape.style === 'list' ? coll.range![0] : first.start);
  return keyIndent + (layout.indent === '\t' ? '  ' : layout.indent);
}

export function setYamlEntry(
  text: string,
  shape: YamlShape,
  name: string,
  entry: Record<string, unknown>,
  layout: Layout,
  file: string,
): { text: string; created: Created } {
  if (text.trim() === '') {
    const header = shape.newFileHeader ? shape.newFileHeader.split('\n').join(layout.eol) : '';
    return { text: `${header}${shape.container}:${layout.eol}${render(name, entry, shape, layout.indent === '\t' ? '  ' : layout.indent, layout)}`, created: 'empty-file' };
  }
  const { pair, coll } = locate(text, shape, file);
  if (coll) {
    const existing = items(coll, shape).find((i) => i.name === name);
    const indent = itemIndent(text, coll, shape, layout, '');
    if (existing) {
      const start = itemLineStart(text, existing.start, shape);
      const end = lineEnd(text, existing.end);
      let lines = render(name, entry, shape, indent, layout);
      if (end === text.length && !text.endsWith('\n')) lines = lines.slice(0, -layout.eol.length);
      return { text: text.slice(0, start) + lines + text.slice(end), created: 'none' };
    }
    const all = items(coll, shape);
    const at = lineEnd(text, all.length ? all[all.length - 1]!.end : coll.range![1]);
    return { text: insertLines(text, at, render(name, entry, shape, indent, layout), layout), created: 'none' };
  }
  if (pair) {
    // `container:` with nothing after it: our item goes on the lines under the key.
    const at = lineEnd(text, pair.key.range![1]);
    const indent = leading(text, pair.key.range![0]) + (layout.indent === '\t' ? '  ' : layout.indent);
    return { text: insertLines(text, at, render(name, entry, shape, indent, layout), layout), created: 'none' };
  }
  const indent = layout.indent === '\t' ? '  ' : layout.indent;
  return { text: insertLines(text, text.length, `${shape.container}:${layout.eol}${render(name, entry, shape, indent, layout)}`, layout), created: 'container' };
}

/**
 * Removes the named entry if present. With `created` from our connect, also removes the container
 * key (or empties the file) that connect added, when nothing else has been put there since.
 */
export function removeYamlEntry(text: string, shape: YamlShape, name: string, file: string, created: Created = 'none'): string {
  if (text.trim() === '') return text;
  const { pair, coll } = locate(text, shape, file);
  if (!coll || !pair) return text;
  const all = items(coll, shape);
  const i = all.findIndex((it) => it.name === name);
  if (i < 0) return text;
  const it = all[i]!;
  const start = itemLineStart(text, it.start, shape);
  const next = all[i + 1];
  const end = next ? itemLineStart(text, next.start, shape) : lineEnd(text, it.end);
  // The last lines of a file without a final newline: the newline before them goes too.
  const from = end === text.length && !text.endsWith('\n') && start > 0 ? start - (text.slice(0, start).endsWith('\r\n') ? 2 : 1) : start;
  let out = text.slice(0, from) + text.slice(end);
  if (created === 'none' || all.length > 1) return out;
  // Ours was the only item and connect wrote the container key: take the key line too.
  const keyStart = lineStart(out, pair.key.range![0]);
  const keyEnd = lineEnd(out, pair.key.range![1]);
  if (out.slice(keyEnd, from).trim() === '' && out.slice(keyStart, keyEnd).trim() === `${shape.container}:`) {
    const keyFrom = from < start && keyStart > 0 ? keyStart - (out.slice(0, keyStart).endsWith('\r\n') ? 2 : 1) : keyStart;
    out = out.slice(0, keyFrom) + out.slice(from);
  }
  if (created === 'empty-file' && (out.trim() === '' || out === (shape.newFileHeader ?? '').split('\n').join(detectEol(text)))) return '';
  return out;
}

/** The server list `shape` describes in a YAML file (server-list-editor.ts). */
export function yamlServerList(shape: YamlShape) {
  return {
    read: (text: string, file: string) => readYamlEntries(text, shape, file),
    set: (text: string, name: string, entry: Record<string, unknown>, layout: Layout, file: string) => setYamlEntry(text, shape, name, entry, layout, file),
    remove: (text: string, name: string, file: string, created: Created) => removeYamlEntry(text, shape, name, file, created),
  };
}

function detectEol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
