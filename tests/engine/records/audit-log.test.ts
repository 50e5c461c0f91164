import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
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
const dirBytes = (d: string) => readdirSync(d).reduce((n, f) => n + statSync(path.join(d, f)).size, 0);

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
    for (let i = 0; i < 20; i++) log.append(makeAudit(i, { client: 'earlier' }));
    expect(log.dropped()).toEqual([]);
    // One client's flood pushes out its own oldest entries and the earlier client's beyond its share; both leave a trace.
    for (let i = 20; i < 400; i++) log.append(makeAudit(i, { client: 'flood' }));
    const kept = log.list({ client: 'earlier', limit: 100 });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(20);
    expect(times(kept)).toEqual(at(...Array.from({ length: kept.length }, (_, k) => 19 - k))); // its newest
    const dropped = log.dropped();
    expect(dropped.map((d) => d.client).sort()).toEqual(['earlier', 'flood']);
    const earlier = dropped.find((d) => d.client === 'earlier')!;
    expect(earlier).toEqual({ client: 'earlier', count: 20 - kept.length, from: iso(0), to: iso(19 - kept.length) });
    expect(dropped.reduce((n, d) => n + d.count, 0) + log.count()).toBe(400);
    expect(dropped.find((d) => d.client === 'flood')!.from).toBe(iso(20));
    log.dispose();
    log = AuditLog.open(dir, { maxBytes: 8_000, segmentBytes: 2_000 });
    expect(log.dropped()).toEqual(dropped);
    expect(log.dropped('earlier')).toEqual([earlier]);
  });

  it('one client\'s flood removes its own oldest entries, never another client\'s recent ones; across a restart, also with the index files gone', () => {
    log.dispose();
    const opts = { maxBytes: 64_000, segmentBytes: 8_000 };
    log = AuditLog.open(dir, opts);
    for (let i = 0; i < 3; i++) log.append(makeAudit(i, { client: 'quiet' }));
    // ~500 KB of entries through a 64 KB audit: eight times its cap.
    for (let i = 3; i < 1_503; i++) log.append(makeAudit(i, { client: 'loud', error: `failure ${i} `.repeat(20), outcome: 'error' }));
    const quiet = log.list({ client: 'quiet' });
    expect(times(quiet)).toEqual(at(2, 1, 0));
    expect(log.list({ client: 'loud', limit: 1 })[0]!.time).toBe(iso(1_502));
    expect(log.dropped().map((d) => d.client)).toEqual(['loud']);
    expect(dirBytes(dir)).toBeLessThanOrEqual(opts.maxBytes + 1_000); // the segments, and dropped.json
    const all = log.list({ limit: 10_000 });
    expect(all.length).toBe(log.count());
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id!)].sort().reverse());
    // Paging with `before` across the kept and the flooded segments.
    const paged: AuditEntry[] = [];
    for (let page = log.list({ limit: 7 }); page.length; page = log.list({ limit: 7, before: page.at(-1)!.id })) paged.push(...page);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    log.dispose();
    log = AuditLog.open(dir, opts);
    expect(log.list({ limit: 10_000 })).toEqual(all);
    log.dispose();
    for (const f of readdirSync(dir)) if (f.endsWith('.idx.json')) rmSync(path.join(dir, f));
    log = AuditLog.open(dir, opts);
    expect(log.list({ limit: 10_000 })).toEqual(all);
    // And the next flood still leaves the quiet client's three.
    for (let i = 1_503; i < 2_203; i++) log.append(makeAudit(i, { client: 'loud', error: `failure ${i} `.repeat(20), outcome: 'error' }));
    expect(times(log.list({ client: 'quiet' }))).toEqual(at(2, 1, 0));
  });

  it('cuts every text of an entry: an error of 1 MB keeps its first 500 characters and its true size, redacted before the cut', () => {
    log.dispose();
    log = AuditLog.open(dir, { secrets: () => ['s3cr3t-value'] });
    const huge = 'x'.repeat(495) + 's3cr3t-value' + 'y'.repeat(1024 * 1024);
    log.append(makeAudit(1, { outcome: 'error', error: huge, tool: 't'.repeat(100_000), client: 'c'.repeat(100_000) }));
    const [e] = log.list();
    expect(e!.error).toBe(`${'x'.repeat(495)}[reda\n… [error cut for the audit at 500 of ${huge.length} characters]`);
    expect(e!.tool.length).toBeLessThan(400);
    expect(e!.client.length).toBeLessThan(400);
    expect(JSON.stringify(e).length).toBeLessThan(2_000);
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

