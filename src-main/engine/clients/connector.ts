// One MCP client's config file, seen as Switchboard's entries in it: status, connect,
// disconnect, replace (import --replace) and undo. Every write goes through config-file-writer.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import type { ClientWriteResult } from '../../../src-shared/api.ts';
import { readHomeFile } from '../../shim/home-file.mjs';
import { OWN_FILE_READ } from '../config/atomic-file.ts';
import { findCommandSync } from '../platform/path-search.ts';
import { ClientFileError, fsErrorToClientError } from './client-errors.ts';
import { CLIENT_IDS, CLIENT_SPECS, pasteEntry, type ClientEnv, type ClientSpec } from './client-specs.ts';
import { backupDir, readClientState, writeClientState, type ClientState, type EntryRecord, type WriteRecord } from './client-state.ts';
import { assertWritable, makeBackup, readClientFile, replaceAtomically, restoreBackup, sha256, writeClientFile, type ClientFile } from './config-file-writer.ts';
import { readEntries, setEntry } from './json-entry-edit.ts';
import { serverListEditor, type ServerListEditor } from './server-list-editor.ts';
import type { ShimEntry } from '../platform/shim-entry.ts';

const run = promisify(execFile);

export const ENTRY_PREFIX = 'switchboard-';

export function entryName(profile: string): string {
  return `${ENTRY_PREFIX}${profile}`;
}

export interface ConnectorOptions extends ClientEnv {
  /** The Switchboard home: backups and write records live there. */
  home: string;
}

export interface ConnectorStatus {
  client: string;
  profile: string;
  path: string;
  installed: boolean;
  connected: boolean;
  /** The entry is exactly what connect would write now. */
  matches: boolean;
  /** Someone else changed ('changed') or removed ('removed') the entry Switchboard wrote. */
  drift: 'none' | 'changed' | 'removed';
  /** Why the file could not be read, when it could not. */
  problem?: string;
}

/** Finds an executable on `env`'s PATH by the rules a server's command is found by; null when absent. */
export function findOnPath(name: string, e: ClientEnv): string | null {
  return findCommandSync(name, { env: e.env, platform: e.platform });
}

export class Connector {
  /** Reads and edits the server list in the client's file, in the file's format; loaded on first use. */
  private editorLoad: Promise<ServerListEditor> | undefined;

  constructor(
    readonly spec: ClientSpec,
    private readonly opts: ConnectorOptions,
  ) {}

  get id(): string {
    return this.spec.id;
  }

  get displayName(): string {
    return this.spec.displayName;
  }

  /** 'copy-paste': the client's list lives in its own UI; connect shows steps and writes nothing. */
  get kind(): 'file' | 'copy-paste' {
    return this.spec.manual ? 'copy-paste' : 'file';
  }

  /** The client whose file, write record and backups this one shares (Cursor CLI → cursor); else its own id. */
  get stateId(): string {
    return this.spec.sharesFileWith ?? this.spec.id;
  }

  /** The other client that reads the same file, by display name, when there is one. */
  sharedWith(): string | null {
    const other = this.spec.sharesFileWith;
    return other ? (CLIENT_SPECS.find((s) => s.id === other)?.displayName ?? other) : null;
  }

  /** A copy-paste client's numbered steps for `profile`, with the exact shim command and args. */
  pasteSteps(profile: string, shim: ShimEntry): string[] {
    if (!this.spec.manual) return [];
    const entry = this.spec.entryFor(shim) as { command: string; args: string[] };
    return this.spec.manual.steps(pasteEntry(entryName(profile), { command: entry.command, args: entry.args }));
  }

  private assertFile(doing: string): void {
    if (this.spec.manual) {
      throw new ClientFileError(
        'copy-paste-client',
        `${this.displayName} keeps its MCP servers in its own settings, so Switchboard cannot ${doing} them. Run "switchboard connect ${this.id} --profile NAME" for the steps to do it there.`,
      );
    }
  }

  configPath(): string {
    return this.spec.configPath(this.opts);
  }

  /** Folders checked to decide whether the client is installed (for "not installed" messages). */
  installMarkers(): string[] {
    return this.spec.installMarkers(this.opts);
  }

  /** Folders that count as "installed": the client's config folders and its OS app folders. */
  lookedAt(): string[] {
    return [...this.installMarkers(), ...(this.spec.apps?.(this.opts) ?? [])];
  }

  /** Programs whose presence on PATH counts as "installed". */
  programs(): string[] {
    return [...(this.spec.programs ?? []), ...(this.spec.cli ? [this.spec.cli] : [])];
  }

  installed(): boolean {
    if (this.installMarkers().some((m) => existsSync(m))) return true;
    if ((this.spec.apps?.(this.opts) ?? []).some((m) => existsSync(m))) return true;
    // A CLI that was installed but never run has no folder yet (codex creates ~/.codex on first run).
    return this.programs().some((n) => findOnPath(n, this.opts) !== null);
  }

  private cliPath(): string | null {
    return this.spec.cli ? findOnPath(this.spec.cli, this.opts) : null;
  }

  private editor(): Promise<ServerListEditor> {
    return (this.editorLoad ??= serverListEditor(this.spec));
  }

  private async entries(file: ClientFile): Promise<Record<string, unknown>> {
    return (await this.editor()).read(file.text, file.path) ?? {};
  }

  /** Every server entry in the client's file, ours included. Missing file (or no file at all: copy-paste clients) → {}. */
  async readServers(): Promise<Record<string, unknown>> {
    if (this.spec.manual) return {};
    return this.entries(await readClientFile(this.configPath()));
  }

  /** Older files the client still reads (legacyPaths), that exist. */
  legacyFiles(): string[] {
    return (this.spec.legacyPaths?.(this.opts) ?? []).filter((f) => existsSync(f));
  }

  /** Each legacy file that exists, with the Switchboard entries in it (an earlier connect wrote there). */
  async legacyEntries(): Promise<{ file: string; entries: string[] }[]> {
    const out: { file: string; entries: string[] }[] = [];
    for (const file of this.legacyFiles()) {
      out.push({ file, entries: Object.keys(await this.entries(await readClientFile(file))).filter((n) => n.startsWith(ENTRY_PREFIX)) });
    }
    return out;
  }

  /**
   * What import copies: the current file's servers, plus those only in a legacy file the client
   * still reads (the current file wins a name both have).
   */
  async readImportableServers(): Promise<Record<string, unknown>> {
    const current = await this.readServers();
    let legacy: Record<string, unknown> = {};
    for (const f of this.legacyFiles()) legacy = { ...(await this.entries(await readClientFile(f))), ...legacy };
    return { ...legacy, ...current };
  }

  /** Profiles that have a `switchboard-<profile>` entry in the file. */
  async connectedProfiles(): Promise<string[]> {
    return Object.keys(await this.readServers())
      .filter((n) => n.startsWith(ENTRY_PREFIX))
      .map((n) => n.slice(ENTRY_PREFIX.length));
  }

  async status(profile: string, shim: ShimEntry): Promise<ConnectorStatus> {
    const base = { client: this.id, profile, path: this.configPath(), installed: this.installed() };
    let current: unknown;
    try {
      current = (await this.readServers())[entryName(profile)];
    } catch (err) {
      return { ...base, connected: false, matches: false, drift: 'none', problem: (err as Error).message };
    }
    const rec = (await readClientState(this.opts.home, this.stateId)).entries[profile];
    const drift = !rec ? 'none' : current === undefined ? 'removed' : isDeepStrictEqual(current, rec.entry) ? 'none' : 'changed';
    return {
      ...base,
      connected: current !== undefined,
      matches:
        current !== undefined &&
        (isDeepStrictEqual(current, this.spec.entryFor(shim)) ||
          (this.spec.entryWithoutClient !== undefined && isDeepStrictEqual(current, this.spec.entryWithoutClient(shim)))),
      drift,
    };
  }

  private verifier(editor: ServerListEditor, file: ClientFile, expect: Record<string, unknown>): (text: string) => string | null {
    return (text) => {
      const got = editor.read(text, file.path) ?? {};
      for (const [name, value] of Object.entries(expect)) {
        if (value === undefined ? name in got : !isDeepStrictEqual(got[name], value)) {
          return value === undefined ? `"${name}" is still there` : `the "${name}" entry is missing or different`;
        }
      }
      return null;
    };
  }

  /** Adds (or updates) `switchboard-<profile>`. */
  async connect(profile: string, shim: ShimEntry): Promise<ClientWriteResult> {
    return this.apply({ add: { profile, shim }, remove: [] });
  }

  async disconnect(profile: string): Promise<ClientWriteResult> {
    return this.apply({ remove: [entryName(profile)] });
  }

  /** import --replace: drops `names` and adds `switchboard-<profile>` in one write. */
  async replace(names: string[], profile: string, shim: ShimEntry): Promise<ClientWriteResult> {
    return this.apply({ add: { profile, shim }, remove: names });
  }

  private async apply(change: { add?: { profile: string; shim: ShimEntry }; remove: string[] }): Promise<ClientWriteResult> {
    this.assertFile(change.add ? 'add an entry to' : 'remove an entry from');
    const file = await readClientFile(this.configPath());
    const state = await readClientState(this.opts.home, this.stateId);
    const current = await this.entries(file);
    const addName = change.add ? entryName(change.add.profile) : null;
    const addEntry = change.add ? this.spec.entryFor(change.add.shim) : null;
    const toRemove = change.remove.filter((n) => n in current && n !== addName);
    const needsAdd = addName !== null && !isDeepStrictEqual(current[addName], addEntry);
    if (!needsAdd && toRemove.length === 0) {
      return { path: file.path, changed: false, backup: null, via: 'file' };
    }
    const prior = addName !== null ? current[addName] : undefined;
    const priorRecord = change.add ? state.entries[change.add.profile] : undefined;
    const replaced: ClientWriteResult['replaced'] =
      prior === undefined ? 'none' : priorRecord && isDeepStrictEqual(prior, priorRecord.entry) ? 'ours' : 'other';

    const expect: Record<string, unknown> = {};
    for (const n of toRemove) expect[n] = undefined;
    if (addName) expect[addName] = addEntry;

    const cli = this.cliPath();
    let record: WriteRecord;
    let created: EntryRecord['created'] = 'none';
    if (cli) {
      record = await this.applyWithCli(cli, file, toRemove, needsAdd && addName ? { name: addName, entry: addEntry! } : null, expect);
    } else {
      const editor = await this.editor();
      let text = file.text;
      // Added before the others go: it then takes the indentation of the entries beside it, as
      // the file has them, rather than one guessed for an emptied object.
      if (needsAdd && addName) {
        const r = editor.set(text, addName, addEntry!, { eol: file.eol, indent: file.indent }, file.path);
        text = r.text;
        created = r.created;
      }
      for (const n of toRemove) {
        const profile = n.startsWith(ENTRY_PREFIX) ? n.slice(ENTRY_PREFIX.length) : null;
        text = editor.remove(text, n, file.path, (profile && state.entries[profile]?.created) || 'none');
      }
      record = await writeClientFile(file, text, { home: this.opts.home, client: this.stateId, verify: this.verifier(editor, file, expect) });
    }

    const next: ClientState = { ...state, lastWrite: record, entries: { ...state.entries } };
    for (const n of toRemove) if (n.startsWith(ENTRY_PREFIX)) delete next.entries[n.slice(ENTRY_PREFIX.length)];
    if (change.add && needsAdd) {
      const prev = state.entries[change.add.profile];
      next.entries[change.add.profile] = { entry: addEntry, created: prev && current[addName!] !== undefined ? prev.created : created };
    }
    await writeClientState(this.opts.home, this.stateId, next);
    return { path: file.path, changed: true, backup: record.backup, via: cli ? 'claude-cli' : 'file', ...(change.add ? { replaced } : {}) };
  }

  private async applyWithCli(
    cli: string,
    file: ClientFile,
    remove: string[],
    add: { name: string; entry: unknown } | null,
    expect: Record<string, unknown>,
  ): Promise<WriteRecord> {
    await assertWritable(file);
    const backup = file.exists ? await makeBackup(file, this.opts.home, this.stateId) : null;
    const env = this.opts.env;
    const claude = async (args: string[]): Promise<void> => {
      try {
        await run(cli, args, { env, timeout: 30_000, windowsHide: true, shell: this.opts.platform === 'win32' && /\.(cmd|bat)$/i.test(cli) });
      } catch (err) {
        const e = err as { stderr?: string; message: string };
        throw new ClientFileError('cli-failed', `"claude ${args.slice(0, 4).join(' ')}" failed: ${(e.stderr || e.message).trim()}`);
      }
    };
    const editor = await this.editor();
    const existing = await this.entries(file);
    for (const n of remove) await claude(['mcp', 'remove', '--scope', 'user', n]);
    if (add) {
      if (add.name in existing) await claude(['mcp', 'remove', '--scope', 'user', add.name]);
      await claude(['mcp', 'add-json', '--scope', 'user', add.name, JSON.stringify(add.entry)]);
    }
    const after = await readClientFile(file.path);
    const problem = this.verifier(editor, file, expect)(after.text);
    if (problem) throw new ClientFileError('verify-failed', `Claude Code's CLI ran, but ${file.path} does not show the change: ${problem}`);
    return { file: file.path, sha256: sha256(after.bytes), backup, time: new Date().toISOString() };
  }

  /** The client's folder-trust list, when it has one (Gemini CLI, Qwen Code). */
  trustFile(): string | null {
    return this.spec.trust?.file(this.opts) ?? null;
  }

  /**
   * Whether `dir` is trusted: inside a TRUST_FOLDER entry, or inside the parent of a TRUST_PARENT
   * one (Gemini CLI's rule: trust covers the folder and everything under it).
   */
  async isTrusted(dir: string): Promise<boolean> {
    const f = this.trustFile();
    if (!f) return true;
    const entries = readEntries((await readClientFile(f)).text, [], f) ?? {};
    const pth = this.opts.platform === 'win32' ? path.win32 : path.posix;
    const within = (root: string) => {
      const rel = pth.relative(root, dir);
      return rel === '' || (!rel.startsWith('..') && !pth.isAbsolute(rel));
    };
    return Object.entries(entries).some(([k, v]) => (v === 'TRUST_FOLDER' && within(k)) || (v === 'TRUST_PARENT' && within(pth.dirname(k))));
  }

  /** The folders the trust list trusts (TRUST_FOLDER / TRUST_PARENT entries), for display. */
  async trustedFolders(): Promise<string[]> {
    const f = this.trustFile();
    if (!f) return [];
    const entries = readEntries((await readClientFile(f)).text, [], f) ?? {};
    return Object.entries(entries).filter(([, v]) => v === 'TRUST_FOLDER' || v === 'TRUST_PARENT').map(([k]) => k);
  }

  /**
   * Whether a connect should offer to trust a folder: always while the trust list trusts none;
   * once it trusts some, only when the entry was just written (a connect that changed nothing
   * repeats no hint: the user has been told, and sessions in `trusted` load the entry).
   * An unreadable trust list counts as empty here; trustFolder says why it cannot be written.
   */
  async trustAdvice(changed: boolean): Promise<{ offer: boolean; trusted: string[] } | null> {
    if (!this.trustFile()) return null;
    const trusted = await this.trustedFolders().catch(() => []);
    return { offer: trusted.length === 0 || changed, trusted };
  }

  /**
   * Adds `dir` to the trust list the same byte-preserving way as an entry. Kept apart from
   * connect's write record: undo of the MCP file never touches the trust list.
   */
  async trustFolder(dir: string): Promise<ClientWriteResult> {
    const t = this.spec.trust;
    if (!t) throw new ClientFileError('unsupported-layout', `${this.displayName} has no folder-trust list.`);
    const pth = this.opts.platform === 'win32' ? path.win32 : path.posix;
    if (!pth.isAbsolute(dir)) throw new ClientFileError('unsupported-layout', `The folder to trust must be an absolute path; got "${dir}".`);
    const file = await readClientFile(t.file(this.opts));
    if ((readEntries(file.text, [], file.path) ?? {})[dir] === t.value) return { path: file.path, changed: false, backup: null, via: 'file' };
    const { text } = setEntry(file.text, [], dir, t.value, { eol: file.eol, indent: file.indent }, file.path);
    const record = await writeClientFile(file, text, {
      home: this.opts.home,
      client: `${this.id}-trust`,
      verify: (after) => ((readEntries(after, [], file.path) ?? {})[dir] === t.value ? null : `"${dir}" is not listed`),
    });
    return { path: file.path, changed: true, backup: record.backup, via: 'file' };
  }

  /** Restores the file from the backup taken before Switchboard's last write. */
  async undo(): Promise<{ path: string; restoredFrom: string | null }> {
    this.assertFile('restore');
    const state = await readClientState(this.opts.home, this.stateId);
    if (!state.lastWrite) {
      throw new ClientFileError(
        'nothing-to-undo',
        `Switchboard has no write to ${this.displayName}'s config to undo (undo restores only the backup of Switchboard's own last write). ` +
          `To remove an entry, run: switchboard disconnect ${this.id} --profile NAME`,
      );
    }
    try {
      await restoreBackup(state.lastWrite);
    } catch (err) {
      if (err instanceof ClientFileError && err.reason === 'changed-since-write') {
        const profiles = Object.keys(state.entries);
        throw new ClientFileError(
          'changed-since-write',
          `${err.message} To take Switchboard's entry out and keep everything else, run: ` +
            (profiles.length ? profiles.map((pr) => `switchboard disconnect ${this.id} --profile ${pr}`).join(' and ') : `switchboard disconnect ${this.id} --profile NAME`),
        );
      }
      throw err;
    }
    let present: Record<string, unknown> = {};
    try {
      present = await this.readServers();
    } catch {
      // The restored file may be one the user had broken before; the records just get cleared.
    }
    const entries = Object.fromEntries(
      Object.entries(state.entries).filter(([profile, rec]) => isDeepStrictEqual(present[entryName(profile)], rec.entry)),
    );
    await writeClientState(this.opts.home, this.stateId, { entries });
    return { path: state.lastWrite.file, restoredFrom: state.lastWrite.backup };
  }

  /**
   * The newest copy Switchboard kept of this client's file (before one of its writes) that still
   * reads as the client's format, with its time; null when there is none. Offered when the file
   * itself no longer reads.
   */
  async readableBackup(): Promise<{ file: string; time: string } | null> {
    if (this.spec.manual) return null;
    const dir = backupDir(this.opts.home, this.stateId);
    const names = await readdir(dir).catch(() => [] as string[]);
    // Names start with an ISO time, so newest sorts last.
    for (const name of names.sort().reverse()) {
      const file = path.join(dir, name);
      try {
        const copy = await readClientFile(file);
        if (!copy.exists) continue;
        await this.entries(copy);
        return { file, time: (await stat(file)).mtime.toISOString() };
      } catch {
        // Not readable either (or gone): an older copy may be.
      }
    }
    return null;
  }

  /**
   * Puts the newest readable copy (readableBackup) in place of the client's file. The file as it
   * is now is kept as a backup first, so nothing is lost, however broken it is.
   */
  async restoreReadableBackup(): Promise<{ path: string; restoredFrom: string; savedAs: string | null }> {
    this.assertFile('restore');
    const target = this.configPath();
    const copy = await this.readableBackup();
    if (!copy) throw new ClientFileError('nothing-to-undo', `Switchboard has no readable copy of ${this.displayName}'s file to put back.`);
    let now: Buffer | null = null;
    let mode = 0o644;
    try {
      now = await readHomeFile(target, OWN_FILE_READ);
      mode = (await stat(target)).mode & 0o7777;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fsErrorToClientError(err, target, 'read');
    }
    const savedAs = now ? await makeBackup({ path: target, bytes: now }, this.opts.home, this.stateId) : null;
    const restored = await readHomeFile(copy.file, OWN_FILE_READ).catch((err: unknown) => {
      throw fsErrorToClientError(err, copy.file, 'read');
    });
    await replaceAtomically(target, restored, mode);
    // The write record no longer describes the file: undo must not act on it, and only entries
    // still there as written stay known.
    const state = await readClientState(this.opts.home, this.stateId);
    const present = await this.readServers().catch(() => ({}) as Record<string, unknown>);
    const entries = Object.fromEntries(Object.entries(state.entries).filter(([profile, rec]) => isDeepStrictEqual(present[entryName(profile)], rec.entry)));
    await writeClientState(this.opts.home, this.stateId, { entries });
    return { path: target, restoredFrom: copy.file, savedAs };
  }

  /** The client's file as text, for a person to look at (at most `maxChars`). */
  async fileText(maxChars = 200_000): Promise<{ path: string; exists: boolean; text: string; cut: boolean }> {
    this.assertFile('show');
    const target = this.configPath();
    let bytes: Buffer;
    try {
      bytes = await readHomeFile(target, OWN_FILE_READ);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { path: target, exists: false, text: '', cut: false };
      throw fsErrorToClientError(err, target, 'read');
    }
    const text = bytes.toString('utf8');
    return { path: target, exists: true, text: text.slice(0, maxChars), cut: text.length > maxChars };
  }
}

export function listConnectors(opts: ConnectorOptions): Connector[] {
  return CLIENT_SPECS.map((s) => new Connector(s, opts));
}

export function getConnector(id: string, opts: ConnectorOptions): Connector {
  const spec = CLIENT_SPECS.find((s) => s.id === id);
  if (!spec) {
    throw new ClientFileError('unknown-client', `"${id}" is not a client Switchboard knows. Known clients: ${CLIENT_IDS.join(', ')}.`);
  }
  return new Connector(spec, opts);
}
