// The run history (docs/configuration.md): one record per `execute` run, newest first.
import type { RunQuery, RunRecord } from '../../../src-shared/records.ts';
import { newRecordId } from './record-id.ts';
import { parseTime, timeOf } from './record-time.ts';
import { currentSecrets, redactSecrets } from './redact.ts';
import { capRunRecord } from './run-record-caps.ts';
import { SegmentLog } from './segment-log.ts';
import { storeBasics, type RecordStoreOptions } from './segment-log-options.ts';
import { clientFilterKey, clientKey } from '../../../src-shared/client-names.ts';

/** Default cap of the runs folder, in bytes (200 MB). */
export const DEFAULT_RUNS_MAX_BYTES = 200 * 1024 * 1024;

export type RunStoreOptions = RecordStoreOptions;

/**
 * When the history is over its cap, each client keeps at least its newest RUNS_KEEP_PER_CLIENT
 * runs (a run is capped at 256 KB, so at most 12.5 MB a client), within half the cap.
 */
export const RUNS_KEEP_PER_CLIENT = 50;

export class RunStore {
  readonly #log: SegmentLog<RunRecord>;

  private constructor(log: SegmentLog<RunRecord>) {
    this.#log = log;
  }

  static open(dir: string, opts: RunStoreOptions = {}): RunStore {
    const basics = storeBasics<RunRecord>(opts, DEFAULT_RUNS_MAX_BYTES);
    const redactAll = basics.prepare!;
    const log = SegmentLog.open<RunRecord>(dir, {
      ...basics,
      // Capped before it is stored: one run cannot take more than MAX_RUN_RECORD_BYTES of the history.
      prepare: (r) => capRunRecord(r, (s) => redactSecrets(s, currentSecrets(opts)), redactAll),
      tags: ['profile', 'app', 'outcome'],
      index: (r) => ({ id: r.id, time: timeOf(r.time), tags: [r.profile, clientKey(r.client, r.clientId), r.error?.kind ?? 'ok'] }),
      searchText: (r) => [r.code, r.resultText ?? resultText(r.result), r.error?.message ?? ''],
      // One client's flood of runs removes its own oldest, not another client's recent runs.
      fairBy: { tag: 'app', keepRecent: RUNS_KEEP_PER_CLIENT },
    });
    return new RunStore(log);
  }

  /** A new run id: 16 characters, sortable by time. */
  newId(): string {
    return newRecordId();
  }

  /** Stores a finished run (redacted, and capped by RUN_RECORD_CAPS). Never throws. */
  append(rec: RunRecord): void {
    this.#log.append(rec);
  }

  get(id: string): RunRecord | undefined {
    return this.#log.get(id);
  }

  /** Runs matching `q`, newest first (50 unless `q.limit` says otherwise). */
  list(q: RunQuery = {}): RunRecord[] {
    return this.#log.query({
      tags: { profile: q.profile, app: q.client ? clientFilterKey(q.client) : undefined, outcome: q.outcome },
      since: parseTime(q.since),
      until: parseTime(q.until),
      text: q.text || undefined,
      before: q.before,
      limit: q.limit,
    });
  }

  count(): number {
    return this.#log.count();
  }

  dispose(): void {
    this.#log.dispose();
  }
}

function resultText(result: unknown): string {
  if (result === undefined) return '';
  if (typeof result === 'string') return result;
  try {
    return JSON.stringify(result) ?? '';
  } catch {
    return '';
  }
}
