// Secrets named by `{ "secret": "NAME" }` in config.json (docs/configuration.md), kept out of config.json.
// Headless engines keep them in an owner-only file in the home (0600) and say so in status;
// the desktop app encrypts them with the OS keychain (Electron safeStorage) before they reach
// this store (see `encryptedBy`).
import { statSync } from 'node:fs';
import { writeFileAtomicSync } from '../config/atomic-file.ts';
import { readHomeFileSync } from '../../shim/home-file.mjs';

/** A secrets file larger than this is not read, in bytes (one holds a few kB). */
const MAX_SECRETS_FILE_BYTES = 16 << 20;

export interface SecretStore {
  /** Where secrets live: the OS keychain, or an owner-only file. */
  readonly kind: 'keychain' | 'file';
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): boolean;
  names(): string[];
  /** Every stored value, for redaction of records and logs. */
  values(): string[];
}

export const SECRET_NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;

interface SecretFile {
  version: 1;
  secrets: Record<string, string>;
}

/**
 * How long a read of the secrets file is trusted before its mtime is checked again, in ms.
 * Redaction asks for every value on each record written; re-reading the file each time cost
 * more than the rest of a tool call. `switchboard secret set` from another process is seen
 * within this long.
 */
const RECHECK_MS = 250;

/** An owner-only JSON file, cached and re-read when it changes. */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly file: string;
  #cache: { data: SecretFile; mtimeMs: number; checkedAt: number } | undefined;

  constructor(file: string) {
    this.file = file;
  }

  #read(): SecretFile {
    const now = Date.now();
    if (this.#cache && now - this.#cache.checkedAt < RECHECK_MS) return this.#cache.data;
    let mtimeMs = -1;
    try {
      mtimeMs = statSync(this.file).mtimeMs;
    } catch {
      // Missing: no secrets yet.
    }
    if (this.#cache && this.#cache.mtimeMs === mtimeMs) {
      this.#cache.checkedAt = now;
      return this.#cache.data;
    }
    let data: SecretFile = { version: 1, secrets: {} };
    if (mtimeMs >= 0) {
      try {
        const parsed = JSON.parse(readHomeFileSync(this.file, { maxBytes: MAX_SECRETS_FILE_BYTES }).toString('utf8')) as SecretFile;
        if (parsed && typeof parsed === 'object' && parsed.secrets && typeof parsed.secrets === 'object') data = parsed;
      } catch {
        // Unreadable: treated as empty until it is fixed.
      }
    }
    this.#cache = { data, mtimeMs, checkedAt: now };
    return data;
  }

  #write(data: SecretFile): void {
    writeFileAtomicSync(this.file, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
    this.#cache = undefined;
  }

  get(name: string): string | undefined {
    const { secrets } = this.#read();
    // A secret named `constructor` that was never set is not Object's constructor.
    return Object.hasOwn(secrets, name) ? secrets[name] : undefined;
  }

  set(name: string, value: string): void {
    if (!SECRET_NAME_RE.test(name)) throw new Error(`"${name}" is not a secret name: use letters, digits, "_", "." and "-".`);
    const data = this.#read();
    data.secrets[name] = value;
    this.#write(data);
  }

  delete(name: string): boolean {
    const data = this.#read();
    if (!Object.hasOwn(data.secrets, name)) return false;
    delete data.secrets[name];
    this.#write(data);
    return true;
  }

  names(): string[] {
    return Object.keys(this.#read().secrets).sort();
  }

  /** The same array until the file changes, so callers can cache what they derive from it. */
  values(): string[] {
    const data = this.#read();
    if (this.#values?.data !== data) this.#values = { data, list: Object.values(data.secrets) };
    return this.#values.list;
  }
  #values: { data: SecretFile; list: string[] } | undefined;
}
