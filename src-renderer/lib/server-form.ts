// The add/edit server form as plain data: from config, to config, and the checks made before
// anything is sent to the engine (which checks again and stays the authority).
import { configPointer } from '../../src-shared/config/paths.ts';
import { SERVER_NAME_RE, ServerConfig } from '../../src-shared/config/schema.ts';

export type ServerKind = 'local' | 'remote';
export type ServerField = 'name' | 'command' | 'args' | 'env' | 'cwd' | 'callTimeoutSec' | 'url' | 'headers' | 'transport' | 'form';

export interface ServerDraft {
  name: string;
  kind: ServerKind;
  command: string;
  /** One argument per line, so that arguments with spaces need no quoting. */
  args: string;
  /** KEY=value per line. */
  env: string;
  cwd: string;
  callTimeoutSec: string;
  url: string;
  /** Name: value per line. */
  headers: string;
  transport: 'http' | 'sse';
}

export type FieldErrors = Partial<Record<ServerField, string>>;

export function emptyDraft(kind: ServerKind = 'local'): ServerDraft {
  return { name: '', kind, command: '', args: '', env: '', cwd: '', callTimeoutSec: '', url: '', headers: '', transport: 'http' };
}

function pairsToText(rec: unknown, sep: string): string {
  if (!rec || typeof rec !== 'object') return '';
  return Object.entries(rec as Record<string, unknown>)
    .map(([k, v]) => `${k}${sep}${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

export function draftFromConfig(name: string, cfg: Record<string, unknown>): ServerDraft {
  return {
    name,
    kind: typeof cfg.url === 'string' ? 'remote' : 'local',
    command: typeof cfg.command === 'string' ? cfg.command : '',
    args: Array.isArray(cfg.args) ? cfg.args.join('\n') : '',
    env: pairsToText(cfg.env, '='),
    cwd: typeof cfg.cwd === 'string' ? cfg.cwd : '',
    callTimeoutSec: cfg.callTimeoutSec === undefined ? '' : String(cfg.callTimeoutSec),
    url: typeof cfg.url === 'string' ? cfg.url : '',
    headers: pairsToText(cfg.headers, ': '),
    transport: cfg.transport === 'sse' ? 'sse' : 'http',
  };
}

function parsePairs(text: string, sep: '=' | ':', field: ServerField, errors: FieldErrors): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const [i, line] of lines.entries()) {
    const at = line.indexOf(sep);
    if (at <= 0) {
      errors[field] ??= `Line ${i + 1} should look like ${sep === '=' ? 'NAME=value' : 'Name: value'}.`;
      continue;
    }
    const value = line.slice(at + 1).trim();
    // A stored secret reference round-trips as its JSON text.
    let parsed: unknown = value;
    if (value.startsWith('{"secret"')) {
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = value;
      }
    }
    out[line.slice(0, at).trim()] = parsed;
  }
  return lines.length ? out : undefined;
}

/**
 * Builds the config value, keeping keys the form does not know from `base` (the server's
 * current config), and returns every problem the form can see by itself.
 */
export function draftToConfig(
  draft: ServerDraft,
  base: Record<string, unknown> = {},
): { value: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const value: Record<string, unknown> = { ...base };
  for (const k of ['command', 'args', 'env', 'cwd', 'url', 'headers', 'transport', 'callTimeoutSec']) delete value[k];
  if (draft.kind === 'local') {
    if (draft.command.trim() === '') errors.command = 'Enter the program that starts the server, such as node or npx.';
    else value.command = draft.command.trim();
    const args = draft.args.split('\n').map((a) => a.trim()).filter((a) => a !== '');
    if (args.length) value.args = args;
    const env = parsePairs(draft.env, '=', 'env', errors);
    if (env) value.env = env;
    if (draft.cwd.trim()) value.cwd = draft.cwd.trim();
  } else {
    const url = draft.url.trim();
    if (url === '') errors.url = 'Enter the server’s address, such as https://mcp.example.com/mcp.';
    else {
      let ok = false;
      try {
        ok = ['http:', 'https:'].includes(new URL(url).protocol);
      } catch {
        ok = false;
      }
      if (!ok) errors.url = `“${url}” is not a web address. It should start with https:// (or http://).`;
      value.url = url;
    }
    const headers = parsePairs(draft.headers, ':', 'headers', errors);
    if (headers) value.headers = headers;
    value.transport = draft.transport;
  }
  const t = draft.callTimeoutSec.trim();
  if (t !== '') {
    const n = Number(t);
    if (!Number.isInteger(n) || n <= 0) errors.callTimeoutSec = 'Enter a whole number of seconds above 0, or leave it empty for 120.';
    else value.callTimeoutSec = n;
  }
  if (Object.keys(errors).length === 0) {
    const parsed = ServerConfig.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path.map(String));
        errors[field] ??= issue.message;
      }
    }
  }
  return { value, errors };
}

export function checkName(name: string, taken: readonly string[], original: string | null): string | undefined {
  const n = name.trim();
  if (n === '') return 'Give the server a name, such as github or files.';
  if (!SERVER_NAME_RE.test(n)) return 'Use letters, digits, “_”, “.” and “-” only (up to 64, starting with a letter or digit).';
  if (n !== original && taken.includes(n)) return `There is already a server named “${n}”. Pick another name.`;
  return undefined;
}

const FIELDS = new Set<string>(['command', 'args', 'env', 'cwd', 'callTimeoutSec', 'url', 'headers', 'transport']);

function fieldOf(rest: string[]): ServerField {
  const head = rest[0];
  return head !== undefined && FIELDS.has(head) ? (head as ServerField) : 'form';
}

/** Places an engine problem (`servers.NAME.url: …`) next to the field it is about. */
export function fieldForProblemPath(path: string, name: string): ServerField {
  const prefix = `servers.${name}`;
  if (path === prefix) return 'name';
  if (path.startsWith(`${prefix}.`)) return fieldOf(path.slice(prefix.length + 1).split('.'));
  return 'form';
}

/** JSON Pointer to a server, since server names may hold dots. */
export function serverPointer(name: string): string {
  return configPointer('servers', name);
}
