// Result handles: a run result over maxResultChars is kept in the home so
// later runs of the same profile can page through it with `results.get` / `results.query`
// instead of repeating the work. One folder per profile (named by a hash of the profile name,
// so that no name can reach outside it and "A" and "a" stay apart on case-blind disks); a
// handle from another profile is simply not there. Kept values are bounded and expire.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { MAX_KEPT_RESULT_CHARS, RESULT_HANDLE_RE, queryResult, resultPage } from '../../../src-shared/codemode/result-pages.ts';
import type { ResultText } from '../../../src-shared/codemode/result-text.ts';
import { formatBytes } from '../../../src-shared/codemode/unwrap.ts';
import { isNotOurs, readHomeFile } from '../../shim/home-file.mjs';
import { writeFileAtomic } from '../config/atomic-file.ts';

export { MAX_KEPT_RESULT_CHARS };
/** Kept results of one profile in bytes at most; the oldest go first. */
export const MAX_KEPT_BYTES_PER_PROFILE = 64 * 1024 * 1024;
/** Kept results of one profile at most; the oldest go first. */
export const MAX_KEPT_RESULTS_PER_PROFILE = 200;
/** A kept result can be read for this long after the run that made it. */
export const RESULT_TTL_MS = 24 * 60 * 60 * 1000;

const SUFFIX = '.json';

/** Past its time either way: a file dated ahead (a clock set back, or planted) expires too. */
function expired(mtimeMs: number, now: number): boolean {
  return Math.abs(now - mtimeMs) > RESULT_TTL_MS;
}

export class ResultTooLarge extends Error {}

/** A value's compact JSON to keep: its length in characters, and its UTF-8 bytes unless it is too large to keep. */
export interface KeptJson {
  chars: number;
  bytes?: Uint8Array;
}

export class ResultHandles {
  readonly dir: string;
  readonly #now: () => number;
  /** The value read last, parsed: paging through one result reads the same file run after run. */
  #cache: { file: string; mtimeMs: number; size: number; value: unknown } | undefined;
  /**
   * Reads of one profile run one after another: code can ask for 256 reads of an 8 MB result at
   * once, and each would otherwise parse and copy its own 8 MB in the engine.
   */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(dir: string, opts: { now?: () => number } = {}) {
    this.dir = dir;
    this.#now = opts.now ?? Date.now;
  }

  /** A fresh handle; nothing is stored under it until keep(). */
  newHandle(): string {
    return `res_${randomBytes(12).toString('hex')}`;
  }

  #profileDir(profile: string): string {
    return path.join(this.dir, createHash('sha256').update(profile).digest('hex').slice(0, 24));
  }

  /** Stores `value` under `handle` for `profile`; throws ResultTooLarge over MAX_KEPT_RESULT_CHARS. */
  async keep(profile: string, handle: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value) ?? 'null';
    await this.keepJson(profile, handle, json.length > MAX_KEPT_RESULT_CHARS ? { chars: json.length } : { chars: json.length, bytes: Buffer.from(json) });
  }

  /**
   * Stores a value's compact JSON, as the sandbox worker handed it over, under `handle`: the
   * bytes are written as they are (never parsed on the engine's thread). Throws ResultTooLarge
   * when the JSON is over MAX_KEPT_RESULT_CHARS (the worker then sends only its length).
   */
  async keepJson(profile: string, handle: string, json: KeptJson): Promise<void> {
    if (!RESULT_HANDLE_RE.test(handle)) throw new Error(`not a result handle: ${handle}`);
    if (json.chars > MAX_KEPT_RESULT_CHARS || !json.bytes) throw new ResultTooLarge(`over ${formatBytes(MAX_KEPT_RESULT_CHARS)} as JSON`);
    const dir = this.#profileDir(profile);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await this.#prune(dir, json.bytes.byteLength);
    // Replaces whatever is under the name (never writes through a link).
    await writeFileAtomic(path.join(dir, handle + SUFFIX), json.bytes);
  }

  /** Drops expired results, then the oldest until `incoming` more bytes fit the profile's caps. */
  async #prune(dir: string, incoming: number): Promise<void> {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(SUFFIX) && RESULT_HANDLE_RE.test(n.slice(0, -SUFFIX.length)));
    const files = (
      await Promise.all(
        names.map(async (n) => {
          const file = path.join(dir, n);
          const s = await stat(file).catch(() => undefined);
          return s ? { file, mtimeMs: s.mtimeMs, size: s.size } : undefined;
        }),
      )
    ).filter((f) => f !== undefined);
    const now = this.#now();
    let bytes = files.reduce((n, f) => n + f.size, 0) + incoming;
    let count = files.length + 1;
    const drop = async (f: { file: string; size: number }) => {
      await unlink(f.file).catch(() => undefined);
      bytes -= f.size;
      count--;
    };
    // Every expired one (a file dated ahead sorts last, and would otherwise outlive them all),
    // then the oldest until the new one fits.
    for (const f of files) if (expired(f.mtimeMs, now)) await drop(f);
    const kept = files.filter((f) => !expired(f.mtimeMs, now)).sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const f of kept) {
      if (bytes <= MAX_KEPT_BYTES_PER_PROFILE && count <= MAX_KEPT_RESULTS_PER_PROFILE) break;
      await drop(f);
    }
  }

  async #read(profile: string, handle: unknown, what: string): Promise<unknown> {
    if (typeof handle !== 'string' || !RESULT_HANDLE_RE.test(handle)) {
      throw new SwitchboardError('bad-request', `${what}: ${JSON.stringify(handle) ?? String(handle)} is not a result handle; handles look like "res_" and 24 hex digits, as named in a cut result's note`);
    }
    const file = path.join(this.#profileDir(profile), handle + SUFFIX);
    const s = await stat(file).catch(() => undefined);
    if (!s || expired(s.mtimeMs, this.#now())) {
      if (s) await unlink(file).catch(() => undefined);
      throw new SwitchboardError(
        'not-found',
        `${what}: no kept result "${handle}" in this profile (results are kept for ${RESULT_TTL_MS / 3_600_000} hours, in the profile whose run made them); run the work again`,
      );
    }
    const c = this.#cache;
    if (c && c.file === file && c.mtimeMs === s.mtimeMs && c.size === s.size) return c.value;
    // Only the file this store wrote: never through a link or from a pipe planted under its name.
    const bytes = await readHomeFile(file, { maxBytes: MAX_KEPT_BYTES_PER_PROFILE }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || isNotOurs(err)) return null;
      throw err;
    });
    if (bytes === null) throw new SwitchboardError('not-found', `${what}: the kept result "${handle}" is gone; run the work again`);
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    this.#cache = { file, mtimeMs: s.mtimeMs, size: s.size, value };
    return value;
  }

  #serial<T>(profile: string, work: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(profile) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.#queues.set(profile, tail);
    void tail.then(() => {
      if (this.#queues.get(profile) === tail) this.#queues.delete(profile);
    });
    return mine;
  }

  /**
   * `results.get(handle)`: the whole value; `results.get(handle, { offset, limit })`: one page of it.
   */
  get(profile: string, handle: unknown, options?: unknown): Promise<unknown> {
    return this.#serial(profile, async () => {
      const value = await this.#read(profile, handle, 'results.get');
      return options === undefined ? value : resultPage(value, options);
    });
  }

  /** `results.query(handle, path)`: the part of the value the path names. */
  query(profile: string, handle: unknown, pathText: unknown): Promise<unknown> {
    return this.#serial(profile, async () => queryResult(await this.#read(profile, handle, 'results.query'), pathText));
  }
}

/** The sentence a cut result's note gets when its value was kept (`text`: the worker's account of it). */
export function keptNote(handle: string, text: Pick<ResultText, 'kind' | 'container'>): string {
  const page = text.container ? '{ offset: 0, limit: 100 }' : '{ offset: 0, limit: 10000 }';
  return (
    `The whole result (${text.kind}) is kept as "${handle}" for ${RESULT_TTL_MS / 3_600_000} hours: ` +
    `page through it in later runs with await results.get("${handle}", ${page}), or take one part with await results.query("${handle}", "path.to.field")`
  );
}
