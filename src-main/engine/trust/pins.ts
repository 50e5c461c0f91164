// Tool pinning (docs/configuration.md, the "rug pull"): the first definition seen of each tool is trusted and
// remembered; a later change of its description or schemas withholds that tool — not listed,
// not callable, absent from code mode — until the user approves the new definition.
// Pins are recorded when a catalog arrives (record), read when tools are listed (visible) and
// checked when one is called (checkCall); only record and approve write pins.json.
import { createHash } from 'node:crypto';
import { renameSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LowSync } from 'lowdb';
import { DocumentError, jsonDocumentSync, readDocumentSync } from '../config/json-document.ts';
import { withheldToolSentence } from './why-unavailable.ts';

/**
 * pins.json larger than this is not read, in bytes: far above any real one (a few MB with its
 * catalogs), since a refused file is pinned afresh.
 */
const MAX_PINS_FILE_BYTES = 256 << 20;

/** pins.json: per server, per tool, the hash of the approved definition and of a pending change. */
interface PinFile {
  version: 1;
  servers: Record<string, Record<string, string>>;
  /** Changed definitions waiting for approval, so `approve` works with no engine running. */
  pending: Record<string, Record<string, string>>;
  /**
   * Per server, the tools it last showed (every one matching its pin), as it listed them: what a
   * starting engine answers its first tools/list with while the server starts (boot catalogs).
   */
  catalogs?: Record<string, Tool[]>;
}

/**
 * The same in memory, as Maps: server and tool names are outside data, and a plain-object lookup
 * of `constructor`, `toString` or `__proto__` answers with what every object inherits.
 */
type PinTable = Map<string, Map<string, string>>;
interface Pins {
  servers: PinTable;
  pending: PinTable;
  /** Each server's last shown catalog, with its JSON text (to tell a change without a write). */
  catalogs: Map<string, { tools: Tool[]; json: string }>;
}

export interface PinStoreOptions {
  /** Told when the pins file cannot be read or written (the engine logs it). */
  onError?: (message: string) => void;
}

/** sha256 over what a model reads and relies on; key order does not matter. */
export function toolDefinitionHash(tool: Pick<Tool, 'description' | 'inputSchema' | 'outputSchema' | 'annotations'>): string {
  const subject = { description: tool.description ?? null, inputSchema: tool.inputSchema ?? null, outputSchema: tool.outputSchema ?? null, annotations: tool.annotations ?? null };
  return createHash('sha256').update(canonicalJson(subject)).digest('hex');
}

function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

export class PinStore {
  readonly file: string;
  readonly #doc: LowSync<PinFile | null>;
  readonly #opts: PinStoreOptions;
  #data: Pins;
  /** Filter results per catalog array (upstreams replace the array on every refresh). */
  #cache = new WeakMap<Tool[], { epoch: number; tools: Tool[] }>();
  #epoch = 0;

  constructor(file: string, opts: PinStoreOptions = {}) {
    this.file = file;
    this.#doc = jsonDocumentSync<PinFile | null>(file, decodePins, null, { maxBytes: MAX_PINS_FILE_BYTES });
    this.#opts = opts;
    this.#data = this.#read();
  }

  /**
   * A catalog of `server` arrived (the server became ready or its tools changed): new tools are
   * pinned as first seen, and those whose definition differs from their pin are recorded as
   * pending. The one place pins.json is written besides approve().
   */
  record(server: string, tools: readonly Tool[]): void {
    if (this.#record(server, tools)) this.#write();
  }

  /**
   * Catalogs known before their servers ever ran here (the first-run demo's, shipped with the app:
   * trust/demo-pins.ts), recorded as if each server had listed them, in one write. A server
   * that has pins already keeps them.
   */
  seed(catalogs: Readonly<Record<string, readonly Tool[]>>): void {
    let dirty = false;
    for (const [server, tools] of Object.entries(catalogs)) {
      if (!this.#data.servers.has(server) && this.#record(server, tools)) dirty = true;
    }
    if (dirty) this.#write();
  }

  /** record() without the write: whether anything changed. */
  #record(server: string, tools: readonly Tool[]): boolean {
    let pins = this.#data.servers.get(server);
    if (!pins) this.#data.servers.set(server, (pins = new Map()));
    const pending = new Map<string, string>();
    let dirty = false;
    for (const t of tools) {
      const hash = toolDefinitionHash(t);
      const pinned = pins.get(t.name);
      if (pinned === undefined) {
        pins.set(t.name, hash);
        dirty = true;
      } else if (pinned !== hash) pending.set(t.name, hash);
    }
    if (!sameMap(this.#data.pending.get(server) ?? new Map(), pending)) {
      if (pending.size) this.#data.pending.set(server, pending);
      else this.#data.pending.delete(server);
      dirty = true;
    }
    if (dirty) this.#epoch++;
    // The catalog is remembered only when it changed: a server that starts with the tools it had
    // writes nothing.
    const shown = tools.filter((t) => !pending.has(t.name));
    const json = JSON.stringify(shown);
    if (this.#data.catalogs.get(server)?.json !== json) {
      this.#data.catalogs.set(server, { tools: shown, json });
      dirty = true;
    }
    return dirty;
  }

  /**
   * The tools `server` showed when its catalog last arrived (only definitions matching their
   * pins), or undefined when it never had one here: a starting server's tools until it is ready.
   */
  approvedCatalog(server: string): Tool[] | undefined {
    return this.#data.catalogs.get(server)?.tools;
  }

  /**
   * The tools of `server` that may be shown: those matching their pin, and those not pinned yet
   * (a first definition is trusted; record() pins it). A read: it writes nothing.
   */
  visible(server: string, tools: Tool[]): Tool[] {
    const hit = this.#cache.get(tools);
    if (hit && hit.epoch === this.#epoch) return hit.tools;
    const pins = this.#data.servers.get(server);
    const shown = pins ? tools.filter((t) => {
      const pinned = pins.get(t.name);
      return pinned === undefined || pinned === toolDefinitionHash(t);
    }) : tools;
    this.#cache.set(tools, { epoch: this.#epoch, tools: shown });
    return shown;
  }

  /** At call time (the call pipeline's pin check, gateway.ts): why the tool is withheld and what to do, or undefined. */
  checkCall(server: string, tool: string): string | undefined {
    return this.withheld(server, tool) ? withheldToolSentence(server, tool) : undefined;
  }

  /** Whether a tool is withheld right now (its definition changed since it was pinned). */
  withheld(server: string, tool: string): boolean {
    return this.#data.pending.get(server)?.has(tool) ?? false;
  }

  /** Names of the server's tools whose definitions changed and wait for approval. */
  changedTools(server: string): string[] {
    return [...(this.#data.pending.get(server)?.keys() ?? [])].sort();
  }

  /** Trusts the server's changed definitions as they are now. Returns the tools approved. */
  approve(server: string): string[] {
    // The file may have been approved by the CLI while no engine ran; start from it.
    this.#data = this.#read();
    const pending = this.#data.pending.get(server) ?? new Map<string, string>();
    const names = [...pending.keys()].sort();
    if (names.length) {
      let pins = this.#data.servers.get(server);
      if (!pins) this.#data.servers.set(server, (pins = new Map()));
      for (const [tool, hash] of pending) pins.set(tool, hash);
      this.#data.pending.delete(server);
      this.#write();
    }
    this.#epoch++;
    return names;
  }

  #read(): Pins {
    try {
      const data = readDocumentSync(this.#doc, null);
      return data ? { servers: toTable(data.servers), pending: toTable(data.pending), catalogs: toCatalogs(data.catalogs) } : emptyPins();
    } catch (err) {
      if (!(err instanceof DocumentError) || err.kind === 'read') {
        this.#opts.onError?.(`could not read ${this.file}: ${(err as Error).message}`);
        return emptyPins();
      }
    }
    // Keep the unreadable file for whoever looks; re-pinning from scratch is the only way on.
    const kept = `${this.file}.corrupt-${Date.now()}`;
    try {
      renameSync(this.file, kept);
    } catch {
      // Best effort.
    }
    this.#opts.onError?.(`${this.file} was unreadable; kept it as ${kept} and pinned tool definitions afresh.`);
    return emptyPins();
  }

  /** Atomic and owner-only. */
  #write(): void {
    try {
      const catalogs = Object.fromEntries([...this.#data.catalogs].map(([server, c]) => [server, c.tools]));
      this.#doc.data = { version: 1, servers: fromTable(this.#data.servers), pending: fromTable(this.#data.pending), catalogs };
      this.#doc.write();
    } catch (err) {
      this.#opts.onError?.(`could not save tool pins to ${this.file}: ${(err as Error).message}`);
    }
  }
}

/** What pins.json must at least have; the rest is read leniently (toTable, toCatalogs). */
function decodePins(raw: unknown): PinFile {
  const data = raw as Partial<PinFile> | null;
  if (!data || typeof data.servers !== 'object' || !data.servers) throw new Error('has no "servers" object');
  return data as PinFile;
}

function emptyPins(): Pins {
  return { servers: new Map(), pending: new Map(), catalogs: new Map() };
}

/** Only arrays of named tools are kept: a damaged entry means that server's tools wait for it to start. */
function toCatalogs(value: unknown): Pins['catalogs'] {
  const out: Pins['catalogs'] = new Map();
  if (!value || typeof value !== 'object') return out;
  for (const [server, tools] of Object.entries(value)) {
    if (!Array.isArray(tools) || !tools.every((t) => t && typeof t === 'object' && typeof (t as Tool).name === 'string')) continue;
    out.set(server, { tools: tools as Tool[], json: JSON.stringify(tools) });
  }
  return out;
}

/** JSON.parse makes own properties even of `__proto__`; Object.entries reads only own ones. */
function toTable(value: unknown): PinTable {
  const table: PinTable = new Map();
  if (!value || typeof value !== 'object') return table;
  for (const [server, tools] of Object.entries(value)) {
    if (!tools || typeof tools !== 'object') continue;
    table.set(server, new Map(Object.entries(tools as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string')));
  }
  return table;
}

/** Object.fromEntries defines own properties, so a tool named `__proto__` is written as one. */
function fromTable(table: PinTable): Record<string, Record<string, string>> {
  return Object.fromEntries([...table].map(([server, tools]) => [server, Object.fromEntries(tools)]));
}

function sameMap(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}
