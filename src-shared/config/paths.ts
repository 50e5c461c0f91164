// Config paths as users type them: dot-separated (`profiles.demo.budgets.timeoutMs`, array
// indices as numbers) or a JSON Pointer when they start with `/` (for keys holding dots).
export type PathSegment = string | number;

export class ConfigPathError extends Error {
  readonly code = 'bad-path';
}

export function parseConfigPath(path: string): PathSegment[] {
  if (path === '' || path === '.') return [];
  if (path.startsWith('/')) {
    return path
      .slice(1)
      .split('/')
      .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
  }
  const parts = path.split('.');
  if (parts.some((p) => p === '')) {
    throw new ConfigPathError(`"${path}" is not a config path: use names separated by single dots, or a JSON Pointer starting with "/"`);
  }
  return parts.map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/** The dotted form used in problem reports (docs/command-line.md). */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/** A JSON Pointer to a config value from its keys (which may hold dots and slashes), e.g. `/servers/my.db/env`. */
export function configPointer(...keys: string[]): string {
  return keys.map((k) => '/' + k.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Own-property read: `__proto__`, `constructor` and the like are keys like any other, never inherited. */
function ownChild(node: object, seg: PathSegment): { found: boolean; value?: unknown } {
  if (!Object.prototype.hasOwnProperty.call(node, seg)) return { found: false };
  return { found: true, value: (node as Record<PropertyKey, unknown>)[seg] };
}

/** Own-property write: `obj.__proto__ = v` would replace the prototype instead of setting a key. */
function putOwn(node: object, seg: PathSegment, value: unknown): void {
  Object.defineProperty(node, seg, { value, writable: true, enumerable: true, configurable: true });
}

/** A list is addressed by index only: `servers.__proto__` or `servers.x` would break the list. */
function listIndex(seg: PathSegment, list: readonly unknown[], forWrite: boolean): number {
  const i = typeof seg === 'number' ? seg : NaN;
  if (!Number.isInteger(i) || i < 0 || i > list.length || (!forWrite && i === list.length)) {
    throw new ConfigPathError(
      `"${String(seg)}" is not a position in this list (it has ${list.length} item${list.length === 1 ? '' : 's'}); use an index from 0 to ${forWrite ? list.length : list.length - 1}, or set the whole list`,
    );
  }
  return i;
}

export function getAtPath(root: unknown, path: readonly PathSegment[]): { found: boolean; value?: unknown } {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return { found: false };
    const r = ownChild(cur, seg);
    if (!r.found) return { found: false };
    cur = r.value;
  }
  return { found: true, value: cur };
}

/** Returns a copy of `root` with `value` at `path`, creating objects on the way. */
export function setAtPath(root: unknown, path: readonly PathSegment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (Array.isArray(root)) {
    const copy = [...root];
    const i = listIndex(head, copy, true);
    copy[i] = setAtPath(copy[i], rest, value);
    return copy;
  }
  const base: Record<PropertyKey, unknown> = root !== null && typeof root === 'object' ? { ...root } : {};
  putOwn(base, head, setAtPath(ownChild(base, head).value, rest, value));
  return base;
}

/** Returns a copy of `root` without `path`; `removed` says whether it was there. */
export function unsetAtPath(root: unknown, path: readonly PathSegment[]): { value: unknown; removed: boolean } {
  if (path.length === 0) return { value: undefined, removed: true };
  if (root === null || typeof root !== 'object') return { value: root, removed: false };
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (!Object.prototype.hasOwnProperty.call(root, head as PropertyKey)) return { value: root, removed: false };
  if (Array.isArray(root)) {
    const copy = [...root];
    const i = listIndex(head, copy, false);
    if (rest.length === 0) {
      copy.splice(i, 1);
      return { value: copy, removed: true };
    }
    const r = unsetAtPath(copy[i], rest);
    copy[i] = r.value;
    return { value: copy, removed: r.removed };
  }
  const copy: Record<PropertyKey, unknown> = { ...(root as Record<PropertyKey, unknown>) };
  if (rest.length === 0) {
    delete copy[head as PropertyKey];
    return { value: copy, removed: true };
  }
  const r = unsetAtPath(copy[head as PropertyKey], rest);
  putOwn(copy, head, r.value);
  return { value: copy, removed: r.removed };
}
