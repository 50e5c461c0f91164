// Keeps secrets out of records: known secret values, and strings shaped like well-known tokens.
import { escapeRegExp } from '../../../src-shared/regexp.ts';
export const REDACTED = '[redacted]';

/**
 * Shorter values are not treated as secrets: replacing every "on" or "42" in a record would
 * wreck it while hiding nothing worth hiding.
 */
export const MIN_SECRET_LENGTH = 4;

// Token shapes redacted even when the engine did not name them (a token pasted into code, or
// echoed back by a server). Prefixes are the issuers' documented ones, so ordinary text is safe.
const TOKEN_SHAPES = new RegExp(
  [
    String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{20,}`,
    String.raw`\bsk-[A-Za-z0-9_-]{20,}`,
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
  ].join('|'),
  'g',
);
const BEARER = /\b(Bearer|Basic|token)(\s+)[A-Za-z0-9._~+/=-]{16,}/gi;
// The password of a URL's user info (`postgres://admin:PASS@db`), whatever its length: a
// connection string in a plain config value or echoed in an error carries it in the clear.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'<>]*:)([^\s/?#@"'<>]+)@/gi;
// A query parameter named like a secret (`?api_key=…`, `&access_token=…`, `&sig=…`).
// The name must end in the word, so `?design=…` or `?author=…` stay.
const SECRET_PARAM = /([?&;](?:[\w.-]*?(?:token|secret|passw(?:or)?d|pwd|api[-_]?key|access[-_]?key|auth|signature|credentials?)|(?:[\w.-]*[_.-])?(?:sig|key|pass))=)([^&#\s"'<>]+)/gi;

// What every match of TOKEN_SHAPES, BEARER (whitespace), URL_PASSWORD ("://") and SECRET_PARAM
// ("=") contains: a string without any of it is left as it is after one scan instead of four
// replaces. Records are redacted field by field and key by key, and most fields (names, times,
// ids, outcomes) hold none of it.
const MAY_MATCH = /gh[pousr]_|github_pat_|sk-|xox[abposr]-|AKIA|ASIA|eyJ|\s|:\/\/|=/;

/** Replaces every occurrence of a secret (also JSON- or URL-encoded) and every token-shaped string by "[redacted]". */
export function redactSecrets(value: string, secrets: readonly string[]): string {
  const known = compile(secrets);
  let out = known ? value.replace(known, REDACTED) : value;
  if (!MAY_MATCH.test(out)) return out;
  out = out.replace(TOKEN_SHAPES, REDACTED);
  out = out.replace(URL_PASSWORD, (_m, head: string) => `${head}${REDACTED}@`);
  out = out.replace(SECRET_PARAM, (_m, head: string) => `${head}${REDACTED}`);
  return out.replace(BEARER, (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
}

/** A copy of `value` with `redactSecrets` applied to every string in it, object keys included. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecrets(v, secrets);
    if (v === null || typeof v !== 'object') return v;
    const done = seen.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      seen.set(v, arr);
      for (const item of v) arr.push(walk(item));
      return arr;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v; // Dates, Buffers: left to JSON
    const obj: Record<string, unknown> = {};
    seen.set(v, obj);
    for (const [k, item] of Object.entries(v)) obj[redactSecrets(k, secrets)] = walk(item);
    return obj;
  };
  return walk(value) as T;
}

// Names of env variables and headers whose values are secrets: …TOKEN, …SECRET, …PASSWORD,
// …KEY (API_KEY, STRIPE_KEY, X-Api-Key, ACCESS_KEY_ID), AUTHORIZATION, cookies, DSNs.
const TOKEN_KEY = /token|secret|passw|pwd|pass$|api[-_]?key|(?:^|[_.-])key(?:$|[_.-])|[a-z]key$|auth|cookie|credential|session|private|signature|dsn/i;

/**
 * Whether a plain `env` or `headers` value (one not taken from the secret store) should be
 * treated as a secret: named like one, or long and random-looking.
 */
export function looksLikeToken(key: string, value: string): boolean {
  const v = value.trim();
  if (v.length < MIN_SECRET_LENGTH) return false;
  if (TOKEN_KEY.test(key)) return true;
  return v.length >= 16 && !/\s/.test(v) && /[A-Za-z]/.test(v) && /\d/.test(v) && !/^[./~]|:\/\//.test(v);
}

/**
 * The values of an `env` or `headers` map that `looksLikeToken`, with any auth scheme
 * ("Bearer …") also taken off; and, from any value, the passwords of URLs in it
 * (`DB_URL=postgres://admin:PASS@db`) and secret-named query parameters (`?api_key=…`).
 */
export function tokenLikeValues(values: Record<string, string> | undefined): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(values ?? {})) {
    if (typeof v !== 'string') continue;
    for (const m of v.matchAll(URL_PASSWORD)) pushSecret(out, m[2]!);
    for (const m of v.matchAll(SECRET_PARAM)) pushSecret(out, m[2]!);
    if (!looksLikeToken(k, v)) continue;
    out.push(v);
    const m = /^\s*[A-Za-z]+\s+(\S+)\s*$/.exec(v);
    if (m && m[1]!.length >= MIN_SECRET_LENGTH) out.push(m[1]!);
  }
  return out;
}

/** Adds a secret found inside a value, and its percent-decoded form when that differs. */
function pushSecret(out: string[], s: string): void {
  if (s.length >= MIN_SECRET_LENGTH) out.push(s);
  try {
    const decoded = decodeURIComponent(s);
    if (decoded !== s && decoded.length >= MIN_SECRET_LENGTH) out.push(decoded);
  } catch {
    // Not percent-encoded text.
  }
}

/** The secrets a store was given, or none when its provider fails (token shapes are still redacted). */
export function currentSecrets(opts: { secrets?: () => readonly string[] }): readonly string[] {
  try {
    return opts.secrets?.() ?? [];
  } catch {
    return [];
  }
}

let cacheKey: string | undefined;
let cacheRegex: RegExp | undefined;

function compile(secrets: readonly string[]): RegExp | undefined {
  const key = secrets.join('\0');
  if (key === cacheKey) return cacheRegex;
  const forms = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.trim().length < MIN_SECRET_LENGTH) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  // Longest first, so a secret that contains another is replaced whole.
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  cacheKey = key;
  cacheRegex = sorted.length ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined;
  return cacheRegex;
}

