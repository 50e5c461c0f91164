import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src-main/engine/records/audit-log.ts';
import type { AuditEntry } from '../../../src-shared/records.ts';
import { iso, makeAudit, tempDir } from './fixtures.ts';

let dir: string;
let cleanup: () => void;
let log: AuditLog;

const times = (list: AuditEntry[]) => list.map((e) => e.time);
const at = (...n: number[]) => n.map(iso);

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  log = AuditLog.open(dir, { segmentBytes: 2_000 });
});
afterEach(() => {
  log.dispose();
  cleanup();
});

describe('AuditLog', () => {
  it('gives each entry a sortable id and keeps it across a restart', () => {
    for (let i = 0; i < 30; i++) log.append(makeAudit(i));
    const first = log.list({ limit: 100 });
    expect(times(first)).toEqual(Array.from({ length: 30 }, (_, k) => iso(29 - k)));
    const entryIds = first.map((e) => e.id!);
    expect([...entryIds].sort().reverse()).toEqual(entryIds);
    log.dispose();
    log = AuditLog.open(dir, { segmentBytes: 2_000 });
    expect(log.list({ limit: 100 })).toEqual(first);
    expect(log.list({ limit: 1 })[0]).toEqual({ ...makeAudit(29), id: entryIds[0] });
  });

  it('filters by profile, server, client, outcome and time', () => {
    for (let i = 0; i < 30; i++) log.append(makeAudit(i));
    expect(times(log.list({ server: 'linear', limit: 3 }))).toEqual(at(28, 24, 20));
    expect(times(log.list({ outcome: 'denied' }))).toEqual(at(28, 21, 14, 7, 0));
    expect(times(log.list({ outcome: 'denied', profile: 'odd' }))).toEqual(at(21, 7));
    expect(times(log.list({ client: 'claude-desktop', since: iso(20), until: iso(26) }))).toEqual(at(24, 21));
    expect(log.list({ outcome: 'timeout' })).toEqual([]);
  });

  it('searches tool, server and client, and pages with before', () => {
    for (let i = 0; i < 30; i++) log.append(makeAudit(i));
    log.append(makeAudit(30, { tool: 'Delete_Everything', client: 'Zed Editor' }));
    expect(times(log.list({ text: 'delete_every' }))).toEqual(at(30));
    expect(times(log.list({ text: 'zed' }))).toEqual(at(30));
    expect(times(log.list({ text: 'LINEAR', limit: 2 }))).toEqual(at(28, 24));
    const page1 = log.list({ text: 'create_issue', limit: 3 });
    expect(times(page1)).toEqual(at(25, 20, 15));
    expect(times(log.list({ text: 'create_issue', limit: 3, before: page1.at(-1)!.id }))).toEqual(at(10, 5, 0));
    // The profile is not searched: a tool call is found by what was called, and by whom.
    expect(log.list({ text: 'odd' })).toEqual([]);
  });

  it('redacts secrets in any field, error sentences included', () => {
    log.dispose();
    log = AuditLog.open(dir, { secrets: () => ['s3cr3t-value'] });
    log.append(makeAudit(1, { outcome: 'error', error: 'Upstream said: bad key s3cr3t-value' }));
    expect(log.list({})[0]!.error).toBe('Upstream said: bad key [redacted]');
  });

  it('still stores an entry when its secrets provider fails, token shapes redacted', () => {
    log.dispose();
    log = AuditLog.open(dir, { secrets: () => { throw new Error('keychain locked'); } });
    log.append(makeAudit(1, { outcome: 'error', error: 'rejected ghp_0123456789abcdefghijABCDEFGHIJ' }));
    expect(log.list({})[0]!.error).toBe('rejected [redacted]');
  });
});
