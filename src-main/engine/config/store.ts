// The engine's view of config.json (docs/configuration.md). The file is the user's: when it is invalid the
// store keeps serving the last valid version, reports every problem, and never rewrites it.
import { watch, watchFile, unwatchFile, type FSWatcher, type Stats } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { EMPTY_CONFIG, type SwitchboardConfig } from '../../../src-shared/config/schema.ts';
import { validateConfigText, validateConfigValue, type ConfigProblem } from '../../../src-shared/config/validate.ts';
import { ConfigPathError, getAtPath, parseConfigPath, setAtPath, unsetAtPath, type PathSegment } from '../../../src-shared/config/paths.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { Low } from 'lowdb';
import { readHomeFile, readHomeFileSync } from '../../shim/home-file.mjs';
import { AtomicTextFile, OWN_FILE_READ, removeStaleTemps } from './atomic-file.ts';
import { withFileLock } from './file-lock.ts';

export interface ConfigStatus {
  valid: boolean;
  problems: ConfigProblem[];
  file: string;
}

export interface ConfigStoreOptions {
  file: string;
  /** Where the last-good copy and the quarantine folder live (normally the home). */
  stateDir: string;
  /** Written only when `file` does not exist at open; never over an empty or broken file. */
  createDefault?: () => object;
  log?: (msg: string) => void;
  /** Reload hand edits live. Defaults to true; one-shot CLI commands pass false. */
  watch?: boolean;
}

/** Hand edits arrive as bursts of events (truncate, write, rename); wait for the burst to end. */
const DEBOUNCE_MS = 50;
/** Poll interval of the fallback for file systems where fs.watch misses events, in ms. */
const POLL_MS = 1000;

type Loaded =
  | { kind: 'valid'; text: string; config: SwitchboardConfig; raw: Record<string, unknown> }
  | { kind: 'invalid'; text: string; problems: ConfigProblem[] }
  | { kind: 'missing' };

/** Why config.json cannot be read, as a sentence saying what to do, from the error's code. */
export function configUnreadable(code: string): string {
  if (code === 'ENOTREG') return 'config.json is not a regular file (a named pipe, a device or a folder is there); move it away and Switchboard starts with a new one';
  if (code === 'EFBIG') return `config.json is larger than ${OWN_FILE_READ.maxBytes / (1 << 20)} MB, far more than any real configuration; move it away and Switchboard starts with a new one`;
  return `config.json cannot be read (${code}); check its permissions`;
}

export class ConfigStore {
  readonly #file: string;
  /**
   * lowdb documents over our atomic adapter: the data is the file's text, because the store
   * validates and formats it itself (and keeps a hand-formatted file byte for byte).
   */
  readonly #db: Low<string>;
  readonly #lastGood: Low<string>;
  readonly #lockPath: string;
  readonly #quarantineDir: string;
  readonly #log: (msg: string) => void;

  #config: SwitchboardConfig = EMPTY_CONFIG;
  #raw: Record<string, unknown> = {};
  #status: ConfigStatus;
  /** The file text the store last saw or wrote; a watch event with this text is our own echo. */
  #seenText: string | null = null;
  #lastGoodText: string | null = null;
  /** False until some valid version (the file or the last-good copy) has been seen. */
  #everValid = false;

  #queue: Promise<unknown> = Promise.resolve();
  #watcher: FSWatcher | undefined;
  #polling = false;
  #debounce: NodeJS.Timeout | undefined;
  #disposed = false;
  readonly #changeListeners = new Set<(cfg: SwitchboardConfig) => void>();
  readonly #statusListeners = new Set<(status: ConfigStatus) => void>();

  private constructor(opts: ConfigStoreOptions) {
    this.#file = path.resolve(opts.file);
    this.#db = new Low(new AtomicTextFile(this.#file), '');
    this.#lastGood = new Low(new AtomicTextFile(path.join(opts.stateDir, 'config.last-good.json')), '');
    this.#lockPath = `${this.#file}.lock`;
    this.#quarantineDir = path.join(opts.stateDir, 'quarantine');
    this.#log = opts.log ?? (() => undefined);
    this.#status = { valid: true, problems: [], file: this.#file };
  }

  static async open(opts: ConfigStoreOptions): Promise<ConfigStore> {
    const store = new ConfigStore(opts);
    await mkdir(path.dirname(store.#file), { recursive: true, mode: 0o700 });
    await mkdir(opts.stateDir, { recursive: true, mode: 0o700 });
    await removeStaleTemps(store.#file);
    await removeStaleTemps(store.#lastGoodFile);
    await removeStaleTemps(store.#lockPath);
    await store.#restoreLastGood();

    let loaded = await store.#load();
    if (loaded.kind === 'missing' && opts.createDefault) {
      const createDefault = opts.createDefault;
      await withFileLock(store.#lockPath, async () => {
        // Re-check under the lock: another process may have created it meanwhile.
        if ((await store.#db.adapter.read()) !== null) return;
        const defaults = createDefault();
        const check = validateConfigValue(defaults);
        if (!check.ok) throw new SwitchboardError('internal', 'The built-in default config is invalid; this is a bug in Switchboard.', check.problems);
        await writeDoc(store.#db, formatConfig(defaults));
        store.#log(`Created ${store.#file} with the demo profiles.`);
      });
      loaded = await store.#load();
    }
    // A copy is kept of what can be lost; nothing when nothing was read (a pipe, an empty file).
    if (loaded.kind === 'invalid' && loaded.text !== '') await store.#quarantine(loaded.text);
    await store.#adopt(loaded, false);
    if (opts.watch !== false) store.#startWatching();
    return store;
  }

  /** The last valid config; EMPTY_CONFIG when no valid version was ever seen. */
  get config(): SwitchboardConfig {
    return this.#config;
  }

  /** The last valid config as written, unknown keys included. */
  get raw(): Record<string, unknown> {
    return this.#raw;
  }

  get status(): ConfigStatus {
    return this.#status;
  }

  /** Called after each new valid config (hand edit or our own write), not for identical content. */
  onChange(fn: (cfg: SwitchboardConfig) => void): () => void {
    this.#changeListeners.add(fn);
    return () => this.#changeListeners.delete(fn);
  }

  /** Called whenever validity or the list of problems changes. */
  onStatus(fn: (status: ConfigStatus) => void): () => void {
    this.#statusListeners.add(fn);
    return () => this.#statusListeners.delete(fn);
  }

  /** Reads from the last valid config; `path` is dotted or a JSON Pointer (omit for the whole). */
  get(configPath = ''): { found: boolean; value?: unknown } {
    return getAtPath(this.#raw, toSegments(configPath));
  }

  /**
   * Validates the whole resulting config; throws `invalid-config` and writes nothing if it fails.
   * `ifAbsent`: only when nothing is at the path in the file as it is under the lock, else
   * `conflict` (another writer added it since the caller looked).
   */
  async set(configPath: string, value: unknown, opts: { ifAbsent?: boolean } = {}): Promise<void> {
    const segments = toSegments(configPath);
    if (value === undefined) throw new SwitchboardError('bad-request', 'A config value is needed; to remove a setting use unset.');
    await this.#write((raw) => {
      if (opts.ifAbsent && getAtPath(raw, segments).found) throw new SwitchboardError('conflict', `config.json already has ${configPath}; nothing was written.`);
      return asPathError(() => setAtPath(raw, segments, value));
    });
  }

  /** Removes `path`; resolves to false (and writes nothing) when it was not there. */
  async unset(configPath: string): Promise<boolean> {
    const segments = toSegments(configPath);
    if (segments.length === 0) throw new SwitchboardError('bad-path', 'Name the setting to remove, for example servers.github.');
    let removed = false;
    await this.#write((raw) => {
      const r = asPathError(() => unsetAtPath(raw, segments));
      removed = r.removed;
      return r.value;
    });
    return removed;
  }

  /** `mutate` gets a copy of the file's current content; the result is validated like `set`. */
  async update(mutate: (raw: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    await this.#write(mutate);
  }

  /** The file's current text ('' when it does not exist). */
  text(): string {
    try {
      return readHomeFileSync(this.#file, OWN_FILE_READ).toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw err;
    }
  }

  /**
   * Reads config.json again now (another process may have written it while this store was not
   * the home's, e.g. the engine a take-over replaced) and waits for the writes under way.
   */
  reload(): Promise<void> {
    return this.#serial(() => this.#reload());
  }

  /** Resolves once the writes and reloads under way have ended (a save acknowledged is on disk). */
  settled(): Promise<void> {
    return this.#queue.then(() => undefined);
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#debounce);
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#polling) unwatchFile(this.#file, this.#onPoll);
    this.#polling = false;
    this.#changeListeners.clear();
    this.#statusListeners.clear();
  }

  get #lastGoodFile(): string {
    return (this.#lastGood.adapter as AtomicTextFile).file;
  }

  // --- writing ---

  #write(mutate: (raw: Record<string, unknown>) => unknown): Promise<void> {
    return this.#serial(() =>
      withFileLock(this.#lockPath, async () => {
        // Read from disk, not memory: another process may have written since we last looked.
        const current = await this.#load();
        if (current.kind === 'invalid') {
          await this.#adopt(current, true);
          throw new SwitchboardError(
            'invalid-config',
            `config.json has problems (${describeProblems(current.problems)}); fix them or undo your edit first — nothing was written.`,
            current.problems,
          );
        }
        const base = current.kind === 'valid' ? structuredClone(current.raw) : {};
        const next = mutate(base);
        const check = validateConfigValue(next);
        if (!check.ok) {
          throw new SwitchboardError(
            'invalid-config',
            `That change would make config.json invalid (${describeProblems(check.problems)}); nothing was written.`,
            check.problems,
          );
        }
        // A change that changes nothing leaves a hand-formatted file as the user wrote it.
        if (current.kind === 'valid' && isDeepStrictEqual(check.raw, current.raw)) {
          await this.#adopt(current, true);
          return;
        }
        const text = formatConfig(check.raw);
        await writeDoc(this.#db, text);
        await this.#adopt({ kind: 'valid', text, config: check.config, raw: check.raw }, true);
      }),
    );
  }

  /** One write or reload at a time within this process; the lock file covers other processes. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  // --- reading ---

  async #load(): Promise<Loaded> {
    let bytes: Buffer;
    try {
      bytes = await readHomeFile(this.#file, OWN_FILE_READ);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'invalid', text: '', problems: [{ path: '', message: configUnreadable(code ?? (err as Error).message) }] };
    }
    // Decoding invalid UTF-8 would turn the bad bytes into U+FFFD, and the next save would
    // write that over the user's file: such a file is a problem to fix, never data to keep.
    const decoded = decodeUtf8(bytes);
    if ('problem' in decoded) return { kind: 'invalid', text: decoded.lossy, problems: [decoded.problem] };
    const text = decoded.text;
    const result = validateConfigText(text);
    return result.ok ? { kind: 'valid', text, config: result.config, raw: result.raw } : { kind: 'invalid', text, problems: result.problems };
  }

  /** Makes `loaded` the current state and tells listeners what changed. */
  async #adopt(loaded: Loaded, notify: boolean): Promise<void> {
    this.#seenText = loaded.kind === 'missing' ? null : loaded.text;
    const problems =
      loaded.kind === 'valid'
        ? []
        : loaded.kind === 'missing'
          ? [{ path: '', message: 'config.json does not exist; the last valid version stays in use until the file is created again' }]
          : loaded.problems;
    const status: ConfigStatus = { valid: loaded.kind === 'valid', problems, file: this.#file };
    const statusChanged = !isDeepStrictEqual(status, this.#status);
    const configChanged = loaded.kind === 'valid' && (!this.#everValid || !isDeepStrictEqual(loaded.raw, this.#raw));
    if (loaded.kind === 'valid') {
      this.#everValid = true;
      this.#config = loaded.config;
      this.#raw = loaded.raw;
    } else if (statusChanged) {
      const serving = this.#everValid ? 'the last valid version stays in use' : 'no valid version was ever seen, so no servers or profiles are served';
      this.#log(`config.json has problems (${describeProblems(problems)}); ${serving}.`);
    }
    this.#status = status;
    // State and notifications change together, so a reader of `config` never runs ahead of listeners.
    if (notify && configChanged) for (const fn of [...this.#changeListeners]) safeCall(() => fn(this.#config), this.#log);
    if (notify && statusChanged) for (const fn of [...this.#statusListeners]) safeCall(() => fn(status), this.#log);
    if (loaded.kind === 'valid') await this.#saveLastGood(loaded.raw);
  }

  async #restoreLastGood(): Promise<void> {
    const text = await this.#lastGood.read().then(() => this.#lastGood.data, () => '');
    if (text === '') return;
    const result = validateConfigText(text);
    if (!result.ok) return;
    this.#lastGoodText = text;
    this.#everValid = true;
    this.#config = result.config;
    this.#raw = result.raw;
  }

  async #saveLastGood(raw: Record<string, unknown>): Promise<void> {
    const text = formatConfig(raw);
    if (text === this.#lastGoodText) return;
    try {
      await writeDoc(this.#lastGood, text);
      this.#lastGoodText = text;
    } catch (err) {
      // Losing the backup copy must not stop the config from being served.
      this.#log(`Could not keep a copy of the last valid config at ${this.#lastGoodFile}: ${(err as Error).message}`);
    }
  }

  async #quarantine(text: string): Promise<void> {
    try {
      await mkdir(this.#quarantineDir, { recursive: true, mode: 0o700 });
      // Restarting on the same broken file should not pile up identical copies.
      const existing = (await readdir(this.#quarantineDir)).filter((n) => n.startsWith('config-')).sort();
      const newest = existing.at(-1);
      const last = newest ? await readHomeFile(path.join(this.#quarantineDir, newest), OWN_FILE_READ).catch(() => null) : null;
      if (last?.toString('utf8') === text) return;
      // ':' is not allowed in Windows file names.
      const dest = path.join(this.#quarantineDir, `config-${new Date().toISOString().replace(/:/g, '-')}.json`);
      await writeFile(dest, text, { mode: 0o600, flag: 'wx' });
      this.#log(`Kept a copy of the invalid config.json at ${dest}; config.json itself is left as it is.`);
    } catch (err) {
      this.#log(`Could not keep a copy of the invalid config.json: ${(err as Error).message}`);
    }
  }

  // --- watching ---

  #startWatching(): void {
    try {
      // Watch the folder, not the file: editors and our own writes replace the file by rename,
      // which would leave a file watcher on the old inode.
      const base = path.basename(this.#file);
      this.#watcher = watch(path.dirname(this.#file), { persistent: false }, (_event, name) => {
        if (name === null || name === base) this.#scheduleReload();
      });
      this.#watcher.on('error', (err) => {
        this.#log(`Watching config.json failed (${err.message}); checking it every ${POLL_MS / 1000} s instead.`);
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch (err) {
      this.#log(`Cannot watch config.json (${(err as Error).message}); checking it every ${POLL_MS / 1000} s instead.`);
    }
    // Polling backs up fs.watch, which misses events on some network and container mounts.
    watchFile(this.#file, { persistent: false, interval: POLL_MS }, this.#onPoll);
    this.#polling = true;
  }

  readonly #onPoll = (curr: Stats, prev: Stats): void => {
    if (curr.mtimeMs !== prev.mtimeMs || curr.size !== prev.size || curr.ino !== prev.ino) this.#scheduleReload();
  };

  #scheduleReload(): void {
    if (this.#disposed) return;
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => {
      void this.#serial(() => this.#reload()).catch((err) => this.#log(`Reloading config.json failed: ${(err as Error).message}`));
    }, DEBOUNCE_MS);
  }

  async #reload(): Promise<void> {
    if (this.#disposed) return;
    const loaded = await this.#load();
    const text = loaded.kind === 'missing' ? null : loaded.text;
    if (text === this.#seenText) return;
    if (this.#disposed) return;
    await this.#adopt(loaded, true);
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The file's text, or a problem naming the line and column of the first byte that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { problem: ConfigProblem; lossy: string } {
  try {
    return { text: STRICT_UTF8.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    const before = Buffer.from(bytes.buffer, bytes.byteOffset, at).toString('utf8');
    const lines = before.split('\n');
    const line = lines.length;
    const column = lines.at(-1)!.length + 1;
    return {
      lossy: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
      problem: {
        path: '',
        line,
        column,
        message: `config.json is not valid UTF-8 (byte ${at}, line ${line}, column ${column}); save it as UTF-8 — Switchboard will not rewrite it until then`,
      },
    };
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    // Lead byte → number of continuation bytes and the allowed range of the first of them
    // (which rules out overlong forms, surrogates and code points past U+10FFFF).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return b.length;
}

function asPathError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ConfigPathError) throw new SwitchboardError('bad-path', `${err.message}. Nothing was written.`);
    throw err;
  }
}

function toSegments(configPath: string): PathSegment[] {
  try {
    return parseConfigPath(configPath);
  } catch (err) {
    if (err instanceof ConfigPathError) throw new SwitchboardError('bad-path', err.message);
    throw err;
  }
}

/** The file format the app writes: 2-space indentation and a trailing newline. */
export function formatConfig(raw: unknown): string {
  return `${JSON.stringify(raw, null, 2)}\n`;
}

/** "line 3, column 5: …; servers.x.url: …" — at most three, then a count. */
export function describeProblems(problems: readonly ConfigProblem[]): string {
  const shown = problems.slice(0, 3).map((p) => {
    const where = p.line !== undefined ? `line ${p.line}, column ${p.column ?? 1}` : p.path || 'the whole file';
    return `${where}: ${p.message}`;
  });
  const more = problems.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

/** Sets a document's text and writes it through its adapter (lowdb skips a falsy document, which config text never is). */
async function writeDoc(db: Low<string>, text: string): Promise<void> {
  db.data = text;
  await db.write();
}

function safeCall(fn: () => void, log: (msg: string) => void): void {
  try {
    fn();
  } catch (err) {
    log(`A config listener failed: ${(err as Error).message}`);
  }
}
