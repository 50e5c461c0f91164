// The audit log (docs/configuration.md): one entry per tool call, direct or from code, newest first.
import { AUDIT_ARGS_CHARS, type AuditDrop, type AuditEntry, type AuditQuery } from '../../../src-shared/records.ts';
import { currentSecrets, redactSecrets } from './redact.ts';
import { AuditDrops } from './audit-drops.ts';
import { capAuditEntry } from './audit-entry-caps.ts';
import { newRecordId } from './record-id.ts';
import { parseTime, timeOf } from './record-time.ts';
import { SegmentLog } from './segment-log.ts';
import { storeBasics, type RecordStoreOptions } from './segment-log-options.ts';
import { clientFilterKey, clientKey } from '../../../src-shared/client-names.ts';
import { memoStrings } from '../../../src-shared/memo.ts';

/** An entry's client key: the catalog's patterns run once per client name, not per entry. */
const clientKeyOf = memoStrings(clientKey);

/** Default cap of the audit folder, in bytes (50 MB). */
export const DEFAULT_AUDIT_MAX_BYTES = 50 * 1024 * 1024;

/**
 * Entries of each client the size cap keeps while that client is not the one writing past it:
 * its newest AUDIT_KEEP_PER_CLIENT (at ~1 KB an entry, ~200 KB a client), within half the cap.
 */
export const AUDIT_KEEP_PER_CLIENT = 200;

/** The audit's cap: DEFAULT_AUDIT_MAX_BYTES, or SWITCHBOARD_AUDIT_MAX_BYTES where tests set a smaller one. */
export function auditMaxBytes(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.SWITCHBOARD_AUDIT_MAX_BYTES);
  return Number.isInteger(v) && v > 0 && v <= DEFAULT_AUDIT_MAX_BYTES ? v : DEFAULT_AUDIT_MAX_BYTES;
}

export type AuditLogOptions = RecordStoreOptions;

export class AuditLog {
  readonly #log: SegmentLog<AuditEntry>;
  readonly #drops: AuditDrops;
  readonly #opts: AuditLogOptions;

  private constructor(log: SegmentLog<AuditEntry>, drops: AuditDrops, opts: AuditLogOptions) {
    this.#log = log;
    this.#drops = drops;
    this.#opts = opts;
  }

  static open(dir: string, opts: AuditLogOptions = {}): AuditLog {
    // Entries the size cap removes leave a trace per client (audit-drops.ts).
    const drops = new AuditDrops(dir);
    const basics = storeBasics<AuditEntry>(opts, auditMaxBytes());
    const redactAll = basics.prepare!;
    const log = SegmentLog.open<AuditEntry>(dir, {
      ...basics,
      // Capped before it is stored: one call's error of 1 MB keeps its first 500 characters.
      prepare: (e) => redactAll(capAuditEntry(e, (s) => redactSecrets(s, currentSecrets(opts)))),
      tags: ['profile', 'server', 'app', 'outcome'],
      index: (e) => ({ id: e.id ?? '', time: timeOf(e.time), tags: [e.profile, e.server, clientKeyOf(e.client, e.clientId), e.outcome] }),
      searchText: (e) => [e.tool, e.server, e.client],
      capDrops: { tag: 'app', report: (groups) => drops.add(groups) },
      // One client's flood removes its own oldest entries, not another client's recent trail.
      fairBy: { tag: 'app', keepRecent: AUDIT_KEEP_PER_CLIENT },
    });
    return new AuditLog(log, drops, opts);
  }

  /** Stores one entry (capped by AUDIT_ENTRY_CAPS, redacted, with an id when it has none). Never throws. */
  append(entry: AuditEntry): void {
    this.#log.append({ ...entry, ...this.#cutArgs(entry), id: entry.id ?? newRecordId() });
  }

  /**
   * The arguments' text redacted first, then cut to AUDIT_ARGS_CHARS: the caller hands over more
   * than is kept, so that a secret straddling the cut is redacted whole and no prefix survives.
   */
  #cutArgs(entry: AuditEntry): Pick<AuditEntry, 'args' | 'argsCut'> {
    if (entry.args === undefined) return {};
    const text = redactSecrets(entry.args, currentSecrets(this.#opts));
    return text.length > AUDIT_ARGS_CHARS || entry.argsCut ? { args: text.slice(0, AUDIT_ARGS_CHARS), argsCut: true } : { args: text };
  }

  /** Entries matching `q`, newest first (50 unless `q.limit` says otherwise). */
  list(q: AuditQuery = {}): AuditEntry[] {
    return this.#log.query({
      tags: { profile: q.profile, server: q.server, app: q.client ? clientFilterKey(q.client) : undefined, outcome: q.outcome },
      since: parseTime(q.since),
      until: parseTime(q.until),
      text: q.text || undefined,
      before: q.before,
      limit: q.limit,
    });
  }

  /** What the size cap removed, per client, newest first; only `client`'s when given. */
  dropped(client?: string): AuditDrop[] {
    const all = this.#drops.list();
    if (!client) return all;
    const key = clientFilterKey(client);
    return all.filter((d) => clientKey(d.client) === key);
  }

  count(): number {
    return this.#log.count();
  }

  dispose(): void {
    this.#log.dispose();
  }
}
