// server.json as the MCP Registry serves it (API v0.1, `ServerResponse`), read defensively: every
// field is checked, strings lose control and bidi characters (so a description cannot rewrite the
// terminal or disguise a command), and anything malformed makes the entry invalid rather than
// half-understood. Shapes follow modelcontextprotocol/registry docs/reference/api/openapi.yaml.
import semver from 'semver';

export type RegistryStatus = 'active' | 'deprecated' | 'deleted';

export interface Input {
  description?: string;
  isRequired: boolean;
  isSecret: boolean;
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
  /** `{name}` placeholders in `value` and their own inputs. */
  variables: Record<string, Input>;
}

export interface KeyValueInput extends Input {
  name: string;
}

export interface ArgumentInput extends Input {
  type: 'positional' | 'named';
  /** Named arguments: the flag, dashes included. */
  name?: string;
  /** Positional arguments: a label for the value. */
  valueHint?: string;
}

export interface PackageInfo {
  registryType: string;
  identifier: string;
  version?: string;
  runtimeHint?: string;
  transport: { type: 'stdio' | 'streamable-http' | 'sse'; url?: string };
  runtimeArguments: ArgumentInput[];
  packageArguments: ArgumentInput[];
  environmentVariables: KeyValueInput[];
}

export interface RemoteInfo {
  type: 'streamable-http' | 'sse';
  url: string;
  headers: KeyValueInput[];
}

export interface RegistryEntry {
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  repositoryUrl?: string;
  packages: PackageInfo[];
  remotes: RemoteInfo[];
  status: RegistryStatus;
  isLatest?: boolean;
  publishedAt?: string;
  updatedAt?: string;
}

// C0/C1 controls, DEL, and the bidi overrides/isolates that can make text display out of order.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A registry string made safe to print: no control or bidi characters, bounded length. */
export function cleanText(v: string, max = 2000): string {
  const s = v.replace(/[\r\n\t]+/g, ' ').replace(UNSAFE, '');
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

class Invalid extends Error {}

function obj(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Invalid(`${what} is not an object`);
  return v as Record<string, unknown>;
}

function str(v: unknown, what: string, max = 2000): string {
  if (typeof v !== 'string') throw new Invalid(`${what} is not a string`);
  return cleanText(v, max);
}

/** Strings that become parts of a command line are kept exact, but must not carry controls. */
function exact(v: unknown, what: string, max = 4096): string {
  if (typeof v !== 'string' || v.length > max) throw new Invalid(`${what} is not a string`);
  if (UNSAFE.test(v)) {
    UNSAFE.lastIndex = 0;
    throw new Invalid(`${what} contains control characters`);
  }
  UNSAFE.lastIndex = 0;
  return v;
}

function optStr(v: unknown, what: string, max?: number): string | undefined {
  return v === undefined || v === null ? undefined : str(v, what, max);
}

function optExact(v: unknown, what: string): string | undefined {
  return v === undefined || v === null ? undefined : exact(v, what);
}

function bool(v: unknown): boolean {
  return v === true;
}

function arr(v: unknown, what: string, max = 200): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > max) throw new Invalid(`${what} is not a list`);
  return v;
}

function input(v: unknown, what: string, depth = 0): Input {
  const o = obj(v, what);
  const variables: Record<string, Input> = {};
  if (o.variables !== undefined && depth === 0) {
    for (const [k, iv] of Object.entries(obj(o.variables, `${what}.variables`))) variables[exact(k, `${what} variable name`, 200)] = input(iv, `${what}.variables.${k}`, 1);
  }
  const choices = o.choices === undefined ? undefined : arr(o.choices, `${what}.choices`).map((c, i) => exact(c, `${what}.choices[${i}]`));
  return {
    description: optStr(o.description, `${what}.description`, 500),
    isRequired: bool(o.isRequired),
    isSecret: bool(o.isSecret),
    value: optExact(o.value, `${what}.value`),
    default: optExact(o.default, `${what}.default`),
    placeholder: optStr(o.placeholder, `${what}.placeholder`, 200),
    ...(choices ? { choices } : {}),
    variables,
  };
}

function keyValue(v: unknown, what: string): KeyValueInput {
  const o = obj(v, what);
  const name = exact(o.name, `${what}.name`, 200);
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) throw new Invalid(`${what}.name "${name}" is not a variable or header name`);
  return { ...input(v, what), name };
}

function argument(v: unknown, what: string): ArgumentInput {
  const o = obj(v, what);
  if (o.type !== 'positional' && o.type !== 'named') throw new Invalid(`${what}.type is not positional or named`);
  const base = { ...input(v, what), type: o.type } as ArgumentInput;
  if (o.type === 'named') base.name = exact(o.name, `${what}.name`, 200);
  const hint = optExact(o.valueHint, `${what}.valueHint`);
  if (hint !== undefined) base.valueHint = hint;
  return base;
}

function transport(v: unknown, what: string): PackageInfo['transport'] {
  const o = obj(v, what);
  if (o.type !== 'stdio' && o.type !== 'streamable-http' && o.type !== 'sse') throw new Invalid(`${what}.type is unknown`);
  return { type: o.type, ...(o.url !== undefined ? { url: exact(o.url, `${what}.url`) } : {}) };
}

function pkg(v: unknown, i: number): PackageInfo {
  const what = `packages[${i}]`;
  const o = obj(v, what);
  return {
    registryType: exact(o.registryType, `${what}.registryType`, 50),
    identifier: exact(o.identifier, `${what}.identifier`, 500),
    version: optExact(o.version, `${what}.version`),
    runtimeHint: optExact(o.runtimeHint, `${what}.runtimeHint`),
    transport: o.transport === undefined ? { type: 'stdio' } : transport(o.transport, `${what}.transport`),
    runtimeArguments: arr(o.runtimeArguments, `${what}.runtimeArguments`).map((a, j) => argument(a, `${what}.runtimeArguments[${j}]`)),
    packageArguments: arr(o.packageArguments, `${what}.packageArguments`).map((a, j) => argument(a, `${what}.packageArguments[${j}]`)),
    environmentVariables: arr(o.environmentVariables, `${what}.environmentVariables`).map((e, j) => keyValue(e, `${what}.environmentVariables[${j}]`)),
  };
}

function remote(v: unknown, i: number): RemoteInfo {
  const what = `remotes[${i}]`;
  const o = obj(v, what);
  if (o.type !== 'streamable-http' && o.type !== 'sse') throw new Invalid(`${what}.type is unknown`);
  return {
    type: o.type,
    url: exact(o.url, `${what}.url`),
    headers: arr(o.headers, `${what}.headers`).map((h, j) => keyValue(h, `${what}.headers[${j}]`)),
  };
}

/** Reads one `ServerResponse` ({ server, _meta }); null when it is not valid server.json. */
export function parseServerResponse(v: unknown): RegistryEntry | null {
  try {
    const o = obj(v, 'entry');
    const s = obj(o.server, 'server');
    const name = exact(s.name, 'name', 200);
    if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name)) throw new Invalid('name is not namespace/name');
    const meta = o._meta === undefined ? {} : obj(o._meta, '_meta');
    const official = meta['io.modelcontextprotocol.registry/official'] === undefined ? {} : obj(meta['io.modelcontextprotocol.registry/official'], 'official');
    const status = official.status === 'deprecated' || official.status === 'deleted' ? official.status : 'active';
    const repo = s.repository === undefined ? undefined : obj(s.repository, 'repository');
    return {
      name,
      version: exact(s.version, 'version', 255),
      description: str(s.description ?? '', 'description', 500),
      title: optStr(s.title, 'title', 100),
      websiteUrl: optStr(s.websiteUrl, 'websiteUrl', 500),
      repositoryUrl: repo ? optStr(repo.url, 'repository.url', 500) : undefined,
      packages: arr(s.packages, 'packages', 50).map(pkg),
      remotes: arr(s.remotes, 'remotes', 50).map(remote),
      status,
      ...(typeof official.isLatest === 'boolean' ? { isLatest: official.isLatest } : {}),
      ...(typeof official.publishedAt === 'string' ? { publishedAt: cleanText(official.publishedAt, 40) } : {}),
      ...(typeof official.updatedAt === 'string' ? { updatedAt: cleanText(official.updatedAt, 40) } : {}),
    };
  } catch (err) {
    if (err instanceof Invalid) return null;
    throw err;
  }
}

/**
 * 1 when version `a` is newer than `b`, -1 when older, 0 when the same. Semantic versions compare
 * as semver says (`1.0.0-alpha` < `1.0.0-alpha.1` < `1.0.0`; build metadata ignored). A registry
 * may list other shapes ("2024.05", "v1.2", "1.0.0.1"): those compare part by part, numbers as
 * numbers, with build metadata also ignored and a pre-release older than its release.
 */
export function compareVersions(a: string, b: string): number {
  const sa = semver.valid(a, { loose: true });
  const sb = semver.valid(b, { loose: true });
  if (sa && sb) return semver.compare(sa, sb);
  return compareLoose(a.split('+')[0]!, b.split('+')[0]!);
}

function compareLoose(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    if (x === y) continue;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx > ny ? 1 : -1;
    // A pre-release (1.0.0-beta) is older than the release (1.0.0).
    if (x === '') return 1;
    if (y === '') return -1;
    return x > y ? 1 : -1;
  }
  return 0;
}
