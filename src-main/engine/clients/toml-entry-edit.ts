// Adds or removes one `[container.name]` table in a TOML file by editing only that table's lines.
// smol-toml validates the file and renders our table's body; a full re-serialise would drop the
// user's comments and layout.
import { escapeRegExp } from '../../../src-shared/regexp.ts';
import { parse, stringify, TomlError } from 'smol-toml';
import { ClientFileError } from './client-errors.ts';
import type { Layout } from './json-entry-edit.ts';

export function parseTomlDocument(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TomlError) {
      throw new ClientFileError(
        'unparseable',
        `${file} is not valid TOML (line ${err.line}, column ${err.column}: ${err.message.split('\n')[0]}). Switchboard left it unchanged; fix that part and try again.`,
      );
    }
    throw err;
  }
}

export function readTomlEntries(text: string, container: string, file: string): Record<string, unknown> | undefined {
  const doc = parseTomlDocument(text, file);
  const c = doc[container];
  // Plain objects (smol-toml builds null-prototype ones) so entries compare like JSON ones.
  return c && typeof c === 'object' && !Array.isArray(c) ? (JSON.parse(JSON.stringify(c)) as Record<string, unknown>) : undefined;
}


/** Line range [start, end) of `[container.name]` and its sub-tables, or null. */
function findTable(lines: string[], container: string, name: string): { start: number; end: number } | null {
  const key = `(?:${escapeRegExp(name)}|"${escapeRegExp(name)}")`;
  const ours = new RegExp(`^\\s*\\[\\s*${escapeRegExp(container)}\\s*\\.\\s*${key}\\s*(?:\\.[^\\]]*)?\\]\\s*(?:#.*)?$`);
  const anyHeader = /^\s*\[/;
  const start = lines.findIndex((l) => ours.test(l));
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !(anyHeader.test(lines[end]!) && !ours.test(lines[end]!))) end++;
  return { start, end };
}

function splitLines(text: string): string[] {
  return text.split(/(?<=\n)/);
}

function tableBlock(container: string, name: string, value: Record<string, unknown>, eol: string): string {
  const body = stringify(value).trimEnd().split('\n').join(eol);
  return `[${container}.${name}]${eol}${body}${eol}`;
}

export function setTomlEntry(text: string, container: string, name: string, value: Record<string, unknown>, layout: Layout, file: string): string {
  const doc = parseTomlDocument(text, file);
  const lines = splitLines(text);
  const region = findTable(lines.map((l) => l.replace(/\r?\n$/, '')), container, name);
  const block = tableBlock(container, name, value, layout.eol);
  if (region) {
    // Keep the blank lines that separated our table from the next one.
    const tail = lines.slice(region.start, region.end);
    let trailing = '';
    while (tail.length > 1 && tail[tail.length - 1]!.trim() === '') trailing = tail.pop()! + trailing;
    return lines.slice(0, region.start).join('') + block + trailing + lines.slice(region.end).join('');
  }
  const existing = (doc[container] as Record<string, unknown> | undefined)?.[name];
  if (existing !== undefined) {
    throw new ClientFileError(
      'unsupported-layout',
      `${file} defines ${container}.${name} in a form Switchboard does not edit (not as its own [${container}.${name}] table); remove it by hand and try again.`,
    );
  }
  if (text === '') return block;
  const sep = text.endsWith('\n') ? layout.eol : layout.eol + layout.eol;
  return text + sep + block;
}

export function removeTomlEntry(text: string, container: string, name: string, file: string): string {
  parseTomlDocument(text, file);
  const lines = splitLines(text);
  const region = findTable(lines.map((l) => l.replace(/\r?\n$/, '')), container, name);
  if (!region) return text;
  let start = region.start;
  const end = region.end;
  // Our connect appended "<blank line><table>" at the end; take that blank line with it.
  if (end === lines.length && start > 0 && lines[start - 1]!.trim() === '') start--;
  return lines.slice(0, start).join('') + lines.slice(end).join('');
}

// Array-of-tables lists (Mistral Vibe's `[[mcp_servers]]`, each item naming itself in `name`):
// the same line-splicing, on the one `[[container]]` block whose name field is ours.

/** The items of `[[container]]` by their `nameField`, the name left out (as entries read elsewhere). */
export function readTomlArrayEntries(text: string, container: string, nameField: string, file: string): Record<string, unknown> | undefined {
  const c = parseTomlDocument(text, file)[container];
  if (!Array.isArray(c)) return undefined;
  const out: Record<string, unknown> = {};
  for (const item of JSON.parse(JSON.stringify(c)) as Record<string, unknown>[]) {
    const { [nameField]: name, ...rest } = item;
    if (typeof name === 'string' && !(name in out)) out[name] = rest;
  }
  return out;
}

/** Line range [start, end) of the `[[container]]` block (with its `[container.x]` sub-tables) named `name`, or null. */
function findArrayItem(lines: string[], container: string, nameField: string, name: string, file: string): { start: number; end: number } | null {
  const item = new RegExp(`^\\s*\\[\\[\\s*${escapeRegExp(container)}\\s*\\]\\]\\s*(?:#.*)?$`);
  const sub = new RegExp(`^\\s*\\[\\s*${escapeRegExp(container)}\\s*\\.`);
  const anyHeader = /^\s*\[/;
  for (let start = 0; start < lines.length; start++) {
    if (!item.test(lines[start]!)) continue;
    let end = start + 1;
    while (end < lines.length && !(anyHeader.test(lines[end]!) && !sub.test(lines[end]!))) end++;
    // The block alone is a valid document: `[[container]]` and its keys.
    const own = parseTomlDocument(lines.slice(start, end).join('\n'), file)[container] as Record<string, unknown>[] | undefined;
    if (own?.[0]?.[nameField] === name) return { start, end };
    start = end - 1;
  }
  return null;
}

function arrayBlock(container: string, nameField: string, name: string, value: Record<string, unknown>, eol: string): string {
  const body = stringify({ [nameField]: name, ...value }).trimEnd().split('\n').join(eol);
  return `[[${container}]]${eol}${body}${eol}`;
}

export function setTomlArrayEntry(
  text: string,
  container: string,
  nameField: string,
  name: string,
  value: Record<string, unknown>,
  layout: Layout,
  file: string,
): string {
  const doc = parseTomlDocument(text, file);
  if (doc[container] !== undefined && !Array.isArray(doc[container])) {
    throw new ClientFileError('unsupported-layout', `${file} defines ${container} as something other than a [[${container}]] list; Switchboard left it unchanged.`);
  }
  const lines = splitLines(text);
  const region = findArrayItem(lines.map((l) => l.replace(/\r?\n$/, '')), container, nameField, name, file);
  const block = arrayBlock(container, nameField, name, value, layout.eol);
  if (region) {
    const tail = lines.slice(region.start, region.end);
    let trailing = '';
    while (tail.length > 1 && tail[tail.length - 1]!.trim() === '') trailing = tail.pop()! + trailing;
    return lines.slice(0, region.start).join('') + block + trailing + lines.slice(region.end).join('');
  }
  if ((readTomlArrayEntries(text, container, nameField, file) ?? {})[name] !== undefined) {
    throw new ClientFileError('unsupported-layout', `${file} lists "${name}" in a form Switchboard does not edit (not as its own [[${container}]] block); remove it by hand and try again.`);
  }
  if (text === '') return block;
  const sep = text.endsWith('\n') ? layout.eol : layout.eol + layout.eol;
  return text + sep + block;
}

export function removeTomlArrayEntry(text: string, container: string, nameField: string, name: string, file: string): string {
  parseTomlDocument(text, file);
  const lines = splitLines(text);
  const region = findArrayItem(lines.map((l) => l.replace(/\r?\n$/, '')), container, nameField, name, file);
  if (!region) return text;
  let start = region.start;
  if (region.end === lines.length && start > 0 && lines[start - 1]!.trim() === '') start--;
  return lines.slice(0, start).join('') + lines.slice(region.end).join('');
}

// Editors of the server list (server-list-editor.ts). A connect that fills an empty file made the
// file; removing the entry leaves the file empty again, so nothing else needs taking out.
const createdBy = (text: string) => (text.trim() === '' ? 'empty-file' : 'none') as 'none' | 'empty-file';

/** Servers as `[container.NAME]` tables (Codex). */
export function tomlTableServerList(container: string) {
  return {
    read: (text: string, file: string) => readTomlEntries(text, container, file),
    set: (text: string, name: string, entry: Record<string, unknown>, layout: Layout, file: string) => ({ text: setTomlEntry(text, container, name, entry, layout, file), created: createdBy(text) }),
    remove: (text: string, name: string, file: string) => removeTomlEntry(text, container, name, file),
  };
}

/** Servers as `[[container]]` items naming themselves in `nameField` (Mistral Vibe). */
export function tomlListServerList(container: string, nameField: string) {
  return {
    read: (text: string, file: string) => readTomlArrayEntries(text, container, nameField, file),
    set: (text: string, name: string, entry: Record<string, unknown>, layout: Layout, file: string) => ({
      text: setTomlArrayEntry(text, container, nameField, name, entry, layout, file),
      created: createdBy(text),
    }),
    remove: (text: string, name: string, file: string) => removeTomlArrayEntry(text, container, nameField, name, file),
  };
}
