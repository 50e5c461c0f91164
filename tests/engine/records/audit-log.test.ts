import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src-main/engine/records/audit-log.ts';
import { MAX_DROP_CLIENTS, OTHER_CLIENTS } from '../../../src-main/engine/records/audit-drops.ts';
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

  it('filters by client as people know it: the connect id, the shown name or the raw clientInfo, old records too', () => {
    log.append(makeAudit(1, { client: 'gemini-cli-mcp-client', clientId: 'gemini-cli' }));
    // Stored before records kept a clientId: still found by the app it names.
    log.append(makeAudit(2, { client: 'gemini-cli-mcp-client' }));
    log.append(makeAudit(3, { client: 'my-agent', clientId: 'cursor' }));
    log.append(makeAudit(4, { client: 'some-other-client' }));
    for (const f of ['Gemini CLI', 'gemini cli', 'gemini-cli', 'gemini-cli-mcp-client']) expect(times(log.list({ client: f })), f).toEqual(at(2, 1));
    expect(times(log.list({ client: 'Cursor' }))).toEqual(at(3));
    expect(times(log.list({ client: 'some-other-client' }))).toEqual(at(4));
    expect(log.list({ client: 'gemini-cli' })[0]).toMatchObject({ client: 'gemini-cli-mcp-client' });
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

  it('when the size cap removes entries, keeps whose they were (count and time span per client), across a restart', () => {
    log.dispose();
    log = AuditLog.open(dir, { maxBytes: 8_000, segmentBytes: 2_000 });
    for (let i = 0; i < 5; i++) log.append(makeAudit(i, { client: 'earlier' }));
    expect(log.dropped()).toEqual([]);
    // One client's flood pushes the earlier entries out; that leaves a trace of both.
    for (let i = 5; i < 200; i++) log.append(makeAudit(i, { client: 'flood' }));
    expect(log.list({ client: 'earlier' })).toEqual([]);
    const dropped = log.dropped();
    expect(dropped.map((d) => d.client)).toEqual(['flood', 'earlier']);
    expect(dropped[1]).toEqual({ client: 'earlier', count: 5, from: iso(0), to: iso(4) });
    expect(dropped[0]!.count + log.count()).toBe(195);
    expect(dropped[0]!.from).toBe(iso(5));
    log.dispose();
    log = AuditLog.open(dir, { maxBytes: 8_000, segmentBytes: 2_000 });
    expect(log.dropped()).toEqual(dropped);
    expect(log.dropped('earlier')).toEqual([dropped[1]]);
  });

  it(`keeps the trace of at most ${MAX_DROP_CLIENTS} clients, folding the rest into one line`, () => {
    log.dispose();
    log = AuditLog.open(dir, { maxBytes: 8_000, segmentBytes: 2_000 });
    for (let i = 0; i < 400; i++) log.append(makeAudit(i, { client: `rotating-${i}` }));
    const dropped = log.dropped();
    expect(dropped.length).toBe(MAX_DROP_CLIENTS);
    const other = dropped.find((d) => d.client === OTHER_CLIENTS)!;
    expect(other.count).toBeGreaterThan(100);
    expect(dropped.reduce((n, d) => n + d.count, 0) + log.count()).toBe(400);
  });
});

