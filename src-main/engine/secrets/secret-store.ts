// Secrets named by `{ "secret": "NAME" }` in config.json (SPEC §3), kept out of config.json.
// Headless engines keep them in an owner-only file in the home (0600) and say so in status;
// the desktop app encrypts them with the OS keychain (Electron safeStorage) before they reach
// this store (see `encryptedBy`).
import { chmodSync, readFileSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

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

/** An owner-only JSON file. Reads it fresh on every get so `switchboard secret set` takes effect at once. */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly file: string;

  constructor(file: string) {
    this.file = file;
  }

  #read(): SecretFile {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as SecretFile;
      if (data && typeof data === 'object' && data.secrets && typeof data.secrets === 'object') return data;
    } catch {
      // Missing or unreadable: no secrets yet.
    }
    return { version: 1, secrets: {} };
  }

  #write(data: SecretFile): void {
    const tmp = path.join(path.dirname(this.file), `.secrets.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
    const fd = openSync(tmp, 'r');
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.file);
    if (process.platform !== 'win32') chmodSync(this.file, 0o600);
  }

  get(name: string): string | undefined {
    return this.#read().secrets[name];
  }

  set(name: string, value: string): void {
    if (!SECRET_NAME_RE.test(name)) throw new Error(`"${name}" is not a secret name: use letters, digits, "_", "." and "-".`);
    const data = this.#read();
    data.secrets[name] = value;
    this.#write(data);
  }

  delete(name: string): boolean {
    const data = this.#read();
    if (!(name in data.secrets)) return false;
    delete data.secrets[name];
    this.#write(data);
    return true;
  }

  names(): string[] {
    return Object.keys(this.#read().secrets).sort();
  }

  values(): string[] {
    return Object.values(this.#read().secrets);
  }
}
