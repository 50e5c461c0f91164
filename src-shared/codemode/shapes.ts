// The shape of a value, as a small type: what a failed run's call ledger shows of the last
// result, and what learned return types are made of. Pure; never holds the data itself.
//
// Shapes are JSON (they are persisted in the home) and bounded: depth, properties per object
// and members per union are capped, so a hostile or huge result makes a small shape.

export type Shape =
  | { t: 'string' | 'number' | 'boolean' | 'null' | 'unknown' | 'never' }
  | { t: 'array'; of: Shape }
  | { t: 'object'; props: Record<string, { s: Shape; opt?: true }>; more?: true }
  /** An object used as a map (its keys are data: ids, emails, paths): only its values' shape is kept. */
  | { t: 'record'; of: Shape }
  | { t: 'union'; of: Shape[] };

/** Levels of nesting kept; deeper values are `unknown`. */
export const MAX_SHAPE_DEPTH = 5;
/** Properties kept per object (in first-seen order); the rest show as `[key: string]: unknown`. */
export const MAX_SHAPE_PROPS = 32;
/** Union members kept; a wider union is `unknown`. */
export const MAX_UNION_MEMBERS = 4;
/** Array elements looked at per array (evenly spread over it). */
export const MAX_SAMPLED_ELEMENTS = 32;

const UNKNOWN: Shape = { t: 'unknown' };
const NEVER: Shape = { t: 'never' };

export function shapeOf(value: unknown, depth = 0): Shape {
  if (value === null) return { t: 'null' };
  switch (typeof value) {
    case 'string':
      return { t: 'string' };
    case 'number':
    case 'bigint':
      return { t: 'number' };
    case 'boolean':
      return { t: 'boolean' };
    case 'object':
      break;
    default:
      return UNKNOWN;
  }
  if (depth >= MAX_SHAPE_DEPTH) return UNKNOWN;
  if (Array.isArray(value)) {
    if (value.length === 0) return { t: 'array', of: NEVER };
    const step = Math.max(1, Math.floor(value.length / MAX_SAMPLED_ELEMENTS));
    let of: Shape = NEVER;
    for (let i = 0; i < value.length; i += step) of = mergeShapes(of, shapeOf(value[i], depth + 1));
    return { t: 'array', of };
  }
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.filter(looksLikeData).length * 2 > keys.length) {
    let of: Shape = NEVER;
    const step = Math.max(1, Math.floor(keys.length / MAX_SAMPLED_ELEMENTS));
    for (let i = 0; i < keys.length; i += step) of = mergeShapes(of, shapeOf((value as Record<string, unknown>)[keys[i]!], depth + 1));
    return { t: 'record', of };
  }
  const props: Record<string, { s: Shape; opt?: true }> = {};
  let count = 0;
  let more = false;
  for (const key of keys) {
    if (count >= MAX_SHAPE_PROPS) {
      more = true;
      break;
    }
    props[key] = { s: shapeOf((value as Record<string, unknown>)[key], depth + 1) };
    count++;
  }
  return more ? { t: 'object', props, more: true } : { t: 'object', props };
}

/** Field names look like words (`id`, `created_at`, `x-request-id`); numbers, emails, paths and sentences are data. */
function looksLikeData(key: string): boolean {
  return !/^[A-Za-z_$][\w$-]{0,63}$/.test(key) || /^[a-f0-9]{16,}$/i.test(key);
}

/** The shape both values fit: objects merge their properties (a property missing in one is optional). */
export function mergeShapes(a: Shape, b: Shape): Shape {
  if (a.t === 'never') return b;
  if (b.t === 'never') return a;
  if (a.t === 'unknown' || b.t === 'unknown') return UNKNOWN;
  if (a.t === 'array' && b.t === 'array') return { t: 'array', of: mergeShapes(a.of, b.of) };
  if (a.t === 'object' && b.t === 'object') return mergeObjects(a, b);
  if (a.t === 'record' || b.t === 'record') {
    if ((a.t === 'record' || a.t === 'object') && (b.t === 'record' || b.t === 'object')) return { t: 'record', of: mergeShapes(valuesOf(a), valuesOf(b)) };
  }
  if (a.t === b.t && a.t !== 'union') return a;
  const members = [...(a.t === 'union' ? a.of : [a])];
  for (const m of b.t === 'union' ? b.of : [b]) {
    const i = members.findIndex((x) => x.t === m.t);
    if (i >= 0) members[i] = mergeShapes(members[i]!, m);
    else members.push(m);
  }
  if (members.length > MAX_UNION_MEMBERS) return UNKNOWN;
  return members.length === 1 ? members[0]! : { t: 'union', of: members };
}

function mergeObjects(a: Extract<Shape, { t: 'object' }>, b: Extract<Shape, { t: 'object' }>): Shape {
  const props: Record<string, { s: Shape; opt?: true }> = {};
  let more = a.more === true || b.more === true;
  let count = 0;
  const add = (key: string, s: Shape, opt: boolean): void => {
    if (count >= MAX_SHAPE_PROPS) {
      more = true;
      return;
    }
    props[key] = opt ? { s, opt: true } : { s };
    count++;
  };
  for (const [key, p] of Object.entries(a.props)) {
    const q = Object.hasOwn(b.props, key) ? b.props[key] : undefined;
    add(key, q ? mergeShapes(p.s, q.s) : p.s, p.opt === true || !q || q.opt === true);
  }
  for (const [key, q] of Object.entries(b.props)) if (!Object.hasOwn(a.props, key)) add(key, q.s, true);
  return more ? { t: 'object', props, more: true } : { t: 'object', props };
}

function valuesOf(s: Extract<Shape, { t: 'record' | 'object' }>): Shape {
  if (s.t === 'record') return s.of;
  return Object.values(s.props).reduce<Shape>((acc, p) => mergeShapes(acc, p.s), s.more ? UNKNOWN : NEVER);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The shape as one line of TypeScript, at most `maxChars` long: when the full text is longer,
 * the deepest levels are shown as `unknown` until it fits (the top-level keys say the most).
 */
export function renderShape(shape: Shape, maxChars = 400): string {
  for (let depth = MAX_SHAPE_DEPTH; depth >= 0; depth--) {
    const text = render(shape, depth);
    if (text.length <= maxChars) return text;
  }
  return 'unknown';
}

function render(s: Shape, depth: number): string {
  switch (s.t) {
    case 'array': {
      if (depth <= 0) return 'unknown[]';
      const inner = render(s.of, depth - 1);
      return s.of.t === 'union' ? `(${inner})[]` : `${inner}[]`;
    }
    case 'object': {
      if (depth <= 0) return 'Record<string, unknown>';
      const keys = Object.keys(s.props);
      if (keys.length === 0) return s.more ? 'Record<string, unknown>' : '{}';
      const members = keys.map((k) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}${s.props[k]!.opt ? '?' : ''}: ${render(s.props[k]!.s, depth - 1)}`);
      if (s.more) members.push('[key: string]: unknown');
      return `{ ${members.join('; ')} }`;
    }
    case 'record':
      return depth <= 0 ? 'Record<string, unknown>' : `Record<string, ${render(s.of, depth - 1)}>`;
    case 'union':
      return s.of.map((m) => render(m, depth)).join(' | ');
    default:
      return s.t;
  }
}

/** Whether a value is a Shape as written by this module (persisted shapes are read back with it). */
export function isShape(v: unknown, depth = 0): v is Shape {
  if (depth > MAX_SHAPE_DEPTH + 1 || typeof v !== 'object' || v === null) return false;
  const s = v as { t?: unknown; of?: unknown; props?: unknown };
  switch (s.t) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'unknown':
    case 'never':
      return true;
    case 'array':
    case 'record':
      return isShape(s.of, depth + 1);
    case 'union':
      return Array.isArray(s.of) && s.of.length <= MAX_UNION_MEMBERS && s.of.every((m) => isShape(m, depth + 1));
    case 'object': {
      if (typeof s.props !== 'object' || s.props === null || Array.isArray(s.props)) return false;
      const entries = Object.values(s.props as Record<string, unknown>);
      return entries.length <= MAX_SHAPE_PROPS && entries.every((p) => typeof p === 'object' && p !== null && isShape((p as { s?: unknown }).s, depth + 1));
    }
    default:
      return false;
  }
}
