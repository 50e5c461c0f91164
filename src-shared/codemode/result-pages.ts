// Reading a kept result (result handles) one page or one part at a time:
// `results.get(handle, { offset, limit })` and `results.query(handle, path)`. Pure.
import { SwitchboardError } from '../errors.ts';
import { groupDigits } from '../digits.ts';

/** A handle as the engine makes them: `res_` and 24 lowercase hex digits (96 random bits). */
export const RESULT_HANDLE_RE = /^res_[0-9a-f]{24}$/;

/**
 * A result is kept only up to this many characters of compact JSON; larger ones are only cut.
 * Here (pure) because the sandbox worker checks it before it hands the text over.
 */
export const MAX_KEPT_RESULT_CHARS = 8 * 1024 * 1024;

/** The arguments of one results.get / results.query call, as JSON, at most (a handle and a path). */
export const MAX_RESULTS_ARGS_CHARS = 4096;

/** Items (array elements, object entries) per page when `limit` is not given. */
export const DEFAULT_PAGE_ITEMS = 100;
/** Characters per page of a string when `limit` is not given. */
export const DEFAULT_PAGE_CHARS = 10_000;

export type ResultPage =
  | { kind: 'array'; total: number; offset: number; next: number | null; items: unknown[] }
  | { kind: 'string'; total: number; offset: number; next: number | null; text: string }
  | { kind: 'object'; total: number; offset: number; next: number | null; entries: Record<string, unknown> }
  | { kind: 'value'; value: unknown };

function badRequest(message: string): SwitchboardError {
  return new SwitchboardError('bad-request', message);
}

function count(v: unknown, what: string, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw badRequest(`results.get: ${what} must be a whole number ≥ 0, not ${JSON.stringify(v) ?? String(v)}`);
  return v;
}

/** One page of a kept value: array items, string characters or object entries from `offset`. */
export function resultPage(value: unknown, options: unknown): ResultPage {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw badRequest('results.get: the second argument is { offset, limit }, e.g. results.get(handle, { offset: 0, limit: 100 })');
  }
  const o = (options ?? {}) as { offset?: unknown; limit?: unknown };
  const offset = count(o.offset, 'offset', 0);
  if (typeof value === 'string') {
    const limit = count(o.limit, 'limit', DEFAULT_PAGE_CHARS);
    let end = Math.min(value.length, offset + limit);
    // Never split a surrogate pair between two pages.
    if (end < value.length && end > offset && isHighSurrogate(value.charCodeAt(end - 1))) end--;
    return { kind: 'string', total: value.length, offset, next: end < value.length ? end : null, text: value.slice(offset, end) };
  }
  const limit = count(o.limit, 'limit', DEFAULT_PAGE_ITEMS);
  if (Array.isArray(value)) {
    const end = Math.min(value.length, offset + limit);
    return { kind: 'array', total: value.length, offset, next: end < value.length ? end : null, items: value.slice(offset, end) };
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    const end = Math.min(keys.length, offset + limit);
    const entries: Record<string, unknown> = {};
    for (const k of keys.slice(offset, end)) define(entries, k, (value as Record<string, unknown>)[k]);
    return { kind: 'object', total: keys.length, offset, next: end < keys.length ? end : null, entries };
  }
  return { kind: 'value', value };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Own data properties only, so that a key such as `__proto__` stays a plain key. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type Step = string | number | '*';

/** Path segments and wildcards at most; a path is a lookup, not a program. */
export const MAX_PATH_STEPS = 64;
const PATH_HELP = 'write a path such as "items[0].title", "items.*.id", "items[*].id" or a JSON Pointer such as "/items/0/title"';

export function parseResultPath(path: unknown): Step[] {
  if (typeof path !== 'string') throw badRequest(`results.query: the path must be a string; ${PATH_HELP}`);
  let p = path.trim();
  if (p.startsWith('/')) {
    const parts = p === '/' ? [''] : p.slice(1).split('/');
    if (parts.length > MAX_PATH_STEPS) throwTooLong();
    return parts
      .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((k) => (k === '*' ? '*' : /^(0|[1-9]\d*)$/.test(k) ? Number(k) : k));
  }
  if (p.startsWith('$')) p = p.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    if (steps.length >= MAX_PATH_STEPS) throwTooLong();
    const ch = p[i]!;
    if (ch === '.') {
      i++;
      continue;
    }
    if (ch === '[') {
      const close = p.indexOf(']', i);
      if (close < 0) throw badRequest(`results.query: an unclosed "[" in ${JSON.stringify(path)}; ${PATH_HELP}`);
      const inner = p.slice(i + 1, close).trim();
      if (inner === '*') steps.push('*');
      else if (/^(0|[1-9]\d*)$/.test(inner)) steps.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) steps.push(JSON.parse(inner) as string);
      else if (/^'[^']*'$/.test(inner)) steps.push(inner.slice(1, -1));
      else throw badRequest(`results.query: "[${inner}]" is not an index, "*" or a quoted key; ${PATH_HELP}`);
      i = close + 1;
      continue;
    }
    let j = i;
    while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
    const key = p.slice(i, j);
    steps.push(key === '*' ? '*' : /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key);
    i = j;
  }
  return steps;
}

function throwTooLong(): never {
  throw badRequest(`results.query: a path has at most ${MAX_PATH_STEPS} steps`);
}

/**
 * The part of a kept value a path names; `*` maps the rest of the path over every element (or
 * every value of an object) and drops those where it leads nowhere. Missing parts are undefined.
 */
export function queryResult(value: unknown, path: unknown): unknown {
  return walk(value, parseResultPath(path), 0);
}

function walk(node: unknown, steps: Step[], i: number): unknown {
  if (i === steps.length) return node;
  const step = steps[i]!;
  if (node === null || typeof node !== 'object') return undefined;
  if (step === '*') {
    const children = Array.isArray(node) ? node : Object.values(node);
    const out: unknown[] = [];
    for (const child of children) {
      const r = walk(child, steps, i + 1);
      if (r !== undefined) out.push(r);
    }
    return out;
  }
  if (Array.isArray(node)) {
    if (typeof step === 'number') return walk(node[step], steps, i + 1);
    if (step === 'length') return walk(node.length, steps, i + 1);
    return undefined;
  }
  const key = String(step);
  return Object.hasOwn(node, key) ? walk((node as Record<string, unknown>)[key], steps, i + 1) : undefined;
}

/** What the cut note says about a kept value, so the model knows how to page through it. */
export function describeKept(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${groupDigits(value.length)} items`;
  if (typeof value === 'string') return `a string of ${groupDigits(value.length)} characters`;
  if (typeof value === 'object' && value !== null) return `an object with ${groupDigits(Object.keys(value).length)} keys`;
  return 'a value';
}
