// Boot answers: what a shim may answer by itself while no engine runs yet. A client
// starts its Switchboard entries at the computer's start, and an engine takes ~0.7 s from spawn
// to an accepting socket; a shim that finds no engine answers the client's `initialize` and its
// first lists from the file the last engine wrote for that same client and profile, starts the
// engine, and hands the session over to it with the resume it already has (the initialize
// replayed, and the digests of the lists it served: the engine tells the client when its own
// lists differ).
//
// One file per profile, connector (`--client`) and clientInfo.name, under <run>/boot/, named by
// bootKey(). It holds what a 2025-11-25 session of that client was last answered, taken from the
// engine's own answers (so name fitting, per-client subsets and the approved boot catalogs are
// all in it), and the stamp of config.json when written: a config changed since (a hand edit
// while no engine ran) makes the shims wait for an engine as before. Both shims read the format:
// src-main/shim/boot-answer.mjs and native/shim/src/boot.rs.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { writeFileAtomic } from '../config/atomic-file.ts';
import type { BootDigests, BootList } from '../../../src-shared/api.ts';
import { BOOT_FILE_VERSION, MAX_BOOT_FILE_BYTES, bootKey as shimBootKey, fileStamp } from '../../shim/boot-answer.mjs';
import { readHomeText } from '../../shim/home-file.mjs';

export { fileStamp };

export type { BootList, BootDigests } from '../../../src-shared/api.ts';

/** Writes of one file within this window become one, in ms (a client lists three things at once). */
const WRITE_DELAY_MS = 150;
/**
 * Boot answers kept in the folder: the oldest go when a new one would make more. A client names
 * itself, so one that kept changing its name would otherwise add a file each time.
 */
export const MAX_BOOT_FILES = 64;
/** A clientInfo.name longer than this gets no boot answer (the file keeps the name whole). */
const MAX_CLIENT_NAME_CHARS = 1000;

export interface BootFile {
  /** BOOT_FILE_VERSION: a shim ignores a file of another. */
  v: number;
  /** Who it is for (bootKey's inputs), so that a reader can tell it apart. */
  profile: string;
  connector: string;
  clientName: string;
  /** config.json's stamp (fileStamp) when written. */
  config: string;
  /** The protocol versions an initialize may ask for; any other gets `latest` (as the SDK's Server answers). */
  protocolVersions: string[];
  latest: string;
  /** The initialize result without its protocolVersion. */
  initialize: Record<string, unknown>;
  lists: Partial<Record<BootList, unknown>>;
  /** listDigest of each list, handed back by the shim in its hello. */
  digests: BootDigests;
}

/** The file's name for a client of a profile (the shims compute the same; one function for both). */
export function bootKey(profile: string, connector: string | undefined, clientName: string): string {
  return shimBootKey(profile, connector ?? '', clientName);
}

export function listDigest(result: unknown): string {
  return createHash('sha256').update(JSON.stringify(result)).digest('hex');
}

export interface BootClient {
  profile: string;
  connector: string | undefined;
  /** The raw clientInfo.name of its initialize. */
  clientName: string;
}

export class BootAnswers {
  readonly dir: string;
  readonly #configFile: string;
  readonly #log: (line: string) => void;
  /** What each file will hold, its digests and config stamp made at the write. */
  readonly #files = new Map<string, Omit<BootFile, 'config' | 'digests'>>();
  /** What each file holds on disk (JSON text), to skip writes that change nothing. */
  readonly #written = new Map<string, string>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  #disposed = false;

  constructor(opts: { dir: string; configFile: string; log?: (line: string) => void }) {
    this.dir = opts.dir;
    this.#configFile = opts.configFile;
    this.#log = opts.log ?? (() => {});
  }

  static dirOf(runDir: string): string {
    return path.join(runDir, 'boot');
  }

  /** A session of `client` was answered `result` for `kind`, after `initialize` answered `init`. */
  record(client: BootClient, init: Record<string, unknown> | undefined, kind: BootList, result: unknown): void {
    if (this.#disposed || !init || client.clientName.length > MAX_CLIENT_NAME_CHARS) return;
    const key = bootKey(client.profile, client.connector, client.clientName);
    const { protocolVersion: _, ...initialize } = init;
    const prev = this.#files.get(key);
    this.#files.set(key, {
      v: BOOT_FILE_VERSION,
      profile: client.profile,
      connector: client.connector ?? '',
      clientName: client.clientName,
      protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      latest: LATEST_PROTOCOL_VERSION,
      initialize,
      lists: { ...prev?.lists, [kind]: result },
    });
    if (!this.#timers.has(key)) {
      const t = setTimeout(() => {
        this.#timers.delete(key);
        void this.#write(key);
      }, WRITE_DELAY_MS);
      t.unref();
      this.#timers.set(key, t);
    }
  }

  /** Writes what is pending now (engine shutdown, tests). */
  async flush(): Promise<void> {
    const keys = [...this.#timers.keys()];
    for (const k of keys) clearTimeout(this.#timers.get(k));
    this.#timers.clear();
    await Promise.all(keys.map((k) => this.#write(k)));
  }

  async dispose(): Promise<void> {
    await this.flush();
    this.#disposed = true;
  }

  /**
   * A new file was added: the oldest beyond MAX_BOOT_FILES go. Only regular files are counted and
   * removed, each on its own: anything else under a boot answer's name (a folder, a link, a pipe)
   * is not ours and is left alone, neither followed nor removed, and one file that cannot be
   * removed does not stop the others, so the cap holds whatever was planted.
   */
  #prune(): void {
    let files: { file: string; mtimeMs: number }[];
    try {
      files = bootFilesByAge(this.dir);
    } catch (err) {
      this.#log(`boot answers: could not tidy ${this.dir}: ${(err as Error).message}`);
      return;
    }
    let over = files.length - MAX_BOOT_FILES;
    for (const { file } of files) {
      if (over <= 0) break;
      try {
        unlinkSync(file);
        this.#written.delete(path.basename(file, '.json'));
        over--;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') over--;
        else this.#log(`boot answers: could not remove ${file}: ${(err as Error).message}`);
      }
    }
  }

  async #write(key: string): Promise<void> {
    const file = this.#files.get(key);
    if (!file) return;
    // Stamped at the write: a config saved after the answer was computed gets a list_changed to
    // the clients connected (and their next list rewrites this), never an older stamp.
    const digests = Object.fromEntries(Object.entries(file.lists).map(([kind, list]) => [kind, listDigest(list)]));
    const text = JSON.stringify({ ...file, config: fileStamp(this.#configFile), digests } satisfies BootFile);
    const target = path.join(this.dir, `${key}.json`);
    // Read as any home file: a FIFO planted under the name must not block the engine.
    const before = this.#written.get(key) ?? readHomeText(target, { maxBytes: MAX_BOOT_FILE_BYTES });
    if (before === text) {
      this.#written.set(key, text);
      return;
    }
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      // A link (or anything else) in the folder's place would have the answers written, and the
      // oldest files pruned, wherever it points.
      if (!lstatSync(this.dir).isDirectory()) throw new Error(`${this.dir} is not a folder; nothing is written or removed there`);
      await writeFileAtomic(target, text);
      this.#written.set(key, text);
      if (before === undefined) this.#prune();
    } catch (err) {
      this.#log(`boot answers: could not write ${key}.json: ${(err as Error).message}`);
    }
  }
}

/** The boot answers, oldest first by modification time: regular files with our names, nothing else. */
function bootFilesByAge(dir: string): { file: string; mtimeMs: number }[] {
  const out: { file: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(dir)) {
    if (!/^[0-9a-f]{32}\.json$/.test(name)) continue;
    try {
      const st = lstatSync(path.join(dir, name));
      if (st.isFile()) out.push({ file: path.join(dir, name), mtimeMs: st.mtimeMs });
    } catch {
      // Gone meanwhile.
    }
  }
  return out.sort((a, b) => a.mtimeMs - b.mtimeMs);
}
