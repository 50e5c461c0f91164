// What the audit's size cap removed, per client (AuditDrop): kept next to the segments in
// `dropped.json`, so `audit` and the Audit page can say that one client's traffic pushed
// earlier entries out, and whose they were. Bounded: MAX_DROP_CLIENTS clients by most recent
// removal, the rest folded into one `(other clients)` line. Best effort, like the index files:
// a file that cannot be written or read loses the trace, never a call.
import path from 'node:path';
import type { LowSync } from 'lowdb';
import type { AuditDrop } from '../../../src-shared/records.ts';
import { jsonDocumentSync, readDocumentSync } from '../config/json-document.ts';
import { MAX_HOME_FILE_BYTES } from '../../shim/home-file.mjs';
import type { CapDrop } from './segment-log-options.ts';

export const MAX_DROP_CLIENTS = 20;
export const OTHER_CLIENTS = '(other clients)';
const FILE = 'dropped.json';

interface Span {
  count: number;
  from: number;
  to: number;
}

export class AuditDrops {
  readonly #doc: LowSync<unknown[]>;
  readonly #byClient = new Map<string, Span>();

  constructor(dir: string) {
    this.#doc = jsonDocumentSync<unknown[]>(path.join(dir, FILE), (raw) => (Array.isArray(raw) ? raw : []), [], { maxBytes: MAX_HOME_FILE_BYTES, pretty: false });
    try {
      for (const d of readDocumentSync(this.#doc, [])) if (isDrop(d)) this.#merge(d.client, { count: d.count, from: Date.parse(d.from), to: Date.parse(d.to) });
    } catch {
      // None yet, or unreadable: nothing was dropped that we know of.
    }
  }

  /** The cap removed these (segment-log.ts groups them by the entries' client). */
  add(groups: readonly CapDrop[]): void {
    for (const g of groups) this.#merge(g.value, g);
    this.#bound();
    try {
      this.#doc.data = this.list();
      this.#doc.write();
    } catch {
      // Read-only home or disk full: the trace lives on in memory until restart.
    }
  }

  /** Newest removal first. */
  list(): AuditDrop[] {
    return [...this.#byClient]
      .sort((a, b) => b[1].to - a[1].to)
      .map(([client, s]) => ({ client, count: s.count, from: new Date(s.from).toISOString(), to: new Date(s.to).toISOString() }));
  }

  #merge(client: string, s: Span): void {
    const prev = this.#byClient.get(client);
    this.#byClient.set(client, prev ? { count: prev.count + s.count, from: Math.min(prev.from, s.from), to: Math.max(prev.to, s.to) } : { ...s });
  }

  #bound(): void {
    if (this.#byClient.size <= MAX_DROP_CLIENTS) return;
    const ordered = [...this.#byClient].filter(([c]) => c !== OTHER_CLIENTS).sort((a, b) => b[1].to - a[1].to);
    for (const [client, s] of ordered.slice(MAX_DROP_CLIENTS - 1)) {
      this.#byClient.delete(client);
      this.#merge(OTHER_CLIENTS, s);
    }
  }
}

function isDrop(d: unknown): d is AuditDrop {
  const x = d as AuditDrop;
  return (
    typeof x === 'object' && x !== null && typeof x.client === 'string' && Number.isFinite(x.count) && !Number.isNaN(Date.parse(x.from)) && !Number.isNaN(Date.parse(x.to))
  );
}
