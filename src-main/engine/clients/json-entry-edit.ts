// Text edits that add, replace or remove one named entry inside a JSON/JSONC object, touching no
// byte outside it. jsonc-parser finds the offsets; the edits are made here because its own
// formatter reflows neighbouring lines (it would reformat the previous server's entry).
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { ClientFileError } from './client-errors.ts';

export interface Layout {
  eol: string;
  indent: string;
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** The root object node, or undefined for an empty document. Throws for anything unparseable. */
export function parseJsonDocument(text: string, file: string): Node | undefined {
  if (text.trim() === '') return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) {
    const e = errors[0]!;
    const { line, column } = lineColumn(text, e.offset);
    throw new ClientFileError(
      'unparseable',
      `${file} is not valid JSON (line ${line}, column ${column}: ${printParseErrorCode(e.error)}). Switchboard left it unchanged; fix or remove that part and try again.`,
    );
  }
  if (!root || root.type !== 'object') {
    throw new ClientFileError('unsupported-layout', `${file} does not hold a JSON object at the top, so Switchboard left it unchanged.`);
  }
  return root;
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.children ?? []).map((p) => [p.children![0]!.value as string, nodeValue(p.children![1]!)]));
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** The container object's entries, or undefined when the container is missing. */
export function readEntries(text: string, container: readonly string[], file: string): Record<string, unknown> | undefined {
  const root = parseJsonDocument(text, file);
  if (!root) return undefined;
  const node = findNodeAtLocation(root, [...container]);
  if (!node) return undefined;
  if (node.type !== 'object') {
    throw new ClientFileError('unsupported-layout', `In ${file}, "${container.join('.')}" is not an object, so Switchboard left the file unchanged.`);
  }
  return nodeValue(node) as Record<string, unknown>;
}

function lineIndentAt(text: string, offset: number): string | null {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const lead = text.slice(start, offset);
  return /^[ \t]*$/.test(lead) ? lead : null;
}

/** The whitespace a line starts with: the indentation of whatever begins on it (`"mcpServers": {`). */
function lineLead(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

function render(value: unknown, indent: string, layout: Layout): string {
  return JSON.stringify(value, null, layout.indent).split('\n').join(layout.eol + indent);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function insertProperty(text: string, obj: Node, key: string, value: unknown, layout: Layout): string {
  const children = obj.children ?? [];
  const objIndent = lineLead(text, obj.offset);
  if (children.length > 0) {
    const last = children[children.length - 1]!;
    const indent = lineIndentAt(text, last.offset) ?? objIndent + layout.indent;
    const at = last.offset + last.length;
    return splice(text, at, at, `,${layout.eol}${indent}${JSON.stringify(key)}: ${render(value, indent, layout)}`);
  }
  const indent = objIndent + layout.indent;
  const prop = `${JSON.stringify(key)}: ${render(value, indent, layout)}`;
  const innerStart = obj.offset + 1;
  const innerEnd = obj.offset + obj.length - 1;
  if (text.slice(innerStart, innerEnd).trim() === '') {
    return splice(text, innerStart, innerEnd, `${layout.eol}${indent}${prop}${layout.eol}${objIndent}`);
  }
  // The object holds only comments: keep them after our entry.
  return splice(text, innerStart, innerStart, `${layout.eol}${indent}${prop}`);
}

/** Adds or replaces `container.name`; creates the container when missing. */
export function setEntry(
  text: string,
  container: readonly string[],
  name: string,
  value: unknown,
  layout: Layout,
  file: string,
): { text: string; created: 'none' | 'container' | 'empty-file' } {
  const root = parseJsonDocument(text, file);
  if (!root) {
    let doc: unknown = { [name]: value };
    for (const seg of [...container].reverse()) doc = { [seg]: doc };
    return { text: render(doc, '', layout) + layout.eol, created: 'empty-file' };
  }
  const existing = findNodeAtLocation(root, [...container, name]);
  if (existing) {
    const indent = lineIndentAt(text, existing.parent!.offset) ?? '';
    return { text: splice(text, existing.offset, existing.offset + existing.length, render(value, indent, layout)), created: 'none' };
  }
  let obj = root;
  let depth = 0;
  for (; depth < container.length; depth++) {
    const next = findNodeAtLocation(obj, [container[depth]!]);
    if (!next) break;
    if (next.type !== 'object') {
      throw new ClientFileError(
        'unsupported-layout',
        `In ${file}, "${container.slice(0, depth + 1).join('.')}" is not an object, so Switchboard left the file unchanged.`,
      );
    }
    obj = next;
  }
  let inner: unknown = value;
  const rest = [...container.slice(depth), name];
  for (const seg of rest.slice(1).reverse()) inner = { [seg]: inner };
  return { text: insertProperty(text, obj, rest[0]!, inner, layout), created: depth < container.length ? 'container' : 'none' };
}

function removeProperty(text: string, prop: Node): string {
  const obj = prop.parent!;
  const siblings = obj.children ?? [];
  const i = siblings.indexOf(prop);
  if (i > 0) {
    const prev = siblings[i - 1]!;
    return splice(text, prev.offset + prev.length, prop.offset + prop.length, '');
  }
  if (siblings.length > 1) return splice(text, prop.offset, siblings[1]!.offset, '');
  const innerStart = obj.offset + 1;
  const innerEnd = obj.offset + obj.length - 1;
  const outside = text.slice(innerStart, prop.offset) + text.slice(prop.offset + prop.length, innerEnd);
  if (/^[\s,]*$/.test(outside)) return splice(text, innerStart, innerEnd, '');
  const after = text.slice(prop.offset + prop.length);
  const comma = /^\s*,/.exec(after);
  return splice(text, prop.offset, prop.offset + prop.length + (comma ? comma[0].length : 0), '');
}

/**
 * Removes `container.name` if present. With `created` from our connect, also removes the
 * container (or empties the file) that connect added, when nothing else has been put there since.
 */
export function removeEntry(
  text: string,
  container: readonly string[],
  name: string,
  file: string,
  created: 'none' | 'container' | 'empty-file' = 'none',
): string {
  const root = parseJsonDocument(text, file);
  if (!root) return text;
  const node = findNodeAtLocation(root, [...container, name]);
  if (!node) return text;
  let out = removeProperty(text, node.parent!);
  if (created === 'none' || container.length === 0) return out;
  const root2 = parseJsonDocument(out, file)!;
  const containerNode = findNodeAtLocation(root2, [...container]);
  if (containerNode && (containerNode.children ?? []).length === 0 && out.slice(containerNode.offset + 1, containerNode.offset + containerNode.length - 1).trim() === '') {
    out = removeProperty(out, containerNode.parent!);
  }
  if (created === 'empty-file' && /^\s*\{\s*\}\s*$/.test(out)) return '';
  return out;
}

/** The server list at `container` in a JSON or JSONC file (server-list-editor.ts). */
export function jsonServerList(container: readonly string[]) {
  return {
    read: (text: string, file: string) => readEntries(text, container, file),
    set: (text: string, name: string, entry: Record<string, unknown>, layout: Layout, file: string) => setEntry(text, container, name, entry, layout, file),
    remove: (text: string, name: string, file: string, created: 'none' | 'container' | 'empty-file') => removeEntry(text, container, name, file, created),
  };
}
