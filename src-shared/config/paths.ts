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

/** The dotted form used in problem reports (SPEC §4). */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

export function getAtPath(root: unknown, path: readonly PathSegment[]): { found: boolean; value?: unknown } {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return { found: false };
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return { found: false };
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return { found: true, value: cur };
}

/** Returns a copy of `root` with `value` at `path`, creating objects on the way. */
export function setAtPath(root: unknown, path: readonly PathSegment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const base: Record<PropertyKey, unknown> | unknown[] =
    root !== null && typeof root === 'object' ? (Array.isArray(root) ? [...root] : { ...root }) : {};
  const child = (base as Record<PropertyKey, unknown>)[head as PropertyKey];
  (base as Record<PropertyKey, unknown>)[head as PropertyKey] = setAtPath(child, rest, value);
  return base;
}

/** Returns a copy of `root` without `path`; `removed` says whether it was there. */
export function unsetAtPath(root: unknown, path: readonly PathSegment[]): { value: unknown; removed: boolean } {
  if (path.length === 0) return { value: undefined, removed: true };
  if (root === null || typeof root !== 'object') return { value: root, removed: false };
  const [head, ...rest] = path;
  if (!Object.prototype.hasOwnProperty.call(root, head as PropertyKey)) return { value: root, removed: false };
  if (Array.isArray(root)) {
    const copy = [...root];
    if (rest.length === 0) {
      copy.splice(Number(head), 1);
      return { value: copy, removed: true };
    }
    const r = unsetAtPath(copy[Number(head)], rest);
    copy[Number(head)] = r.value;
    return { value: copy, removed: r.removed };
  }
  const copy: Record<PropertyKey, unknown> = { ...(root as Record<PropertyKey, unknown>) };
  if (rest.length === 0) {
    delete copy[head as PropertyKey];
    return { value: copy, removed: true };
  }
  const r = unsetAtPath(copy[head as PropertyKey], rest);
  copy[head as PropertyKey] = r.value;
  return { value: copy, removed: r.removed };
}
