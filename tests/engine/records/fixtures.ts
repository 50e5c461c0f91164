// Record makers and temp folders shared by the records tests.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BUDGETS } from '../../../src-shared/config/schema.ts';
import type { AuditEntry, RunErrorKind, RunRecord } from '../../../src-shared/records.ts';

const T0 = Date.parse('2025-03-01T12:00:00.000Z');

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-records-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Run `i` starts `i` seconds after T0; ids sort like the index. */
export function makeRun(i: number, over: Partial<RunRecord> & { kind?: RunErrorKind } = {}): RunRecord {
  const { kind, ...rest } = over;
  return {
    id: `run-${String(i).padStart(6, '0')}`,
    time: new Date(T0 + i * 1000).toISOString(),
    profile: i % 2 ? 'odd' : 'even',
    client: i % 3 ? 'cursor' : 'claude-desktop',
    code: `async () => { const r = await github.list_issues({ page: ${i} }); return r.length; }`,
    logs: [{ level: 'log', text: `page ${i}` }],
    ...(kind ? { error: { kind, message: `${kind} failure in run ${i}` } } : { result: { count: i } }),
    calls: [{ server: 'github', tool: 'list_issues', start: 1, duration: 20, outcome: 'ok' }],
    durationMs: 25,
    budgets: { ...DEFAULT_BUDGETS },
    ...rest,
  };
}

export function makeAudit(i: number, over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: new Date(T0 + i * 1000).toISOString(),
    client: i % 3 ? 'cursor' : 'claude-desktop',
    profile: i % 2 ? 'odd' : 'even',
    server: i % 4 ? 'github' : 'linear',
    tool: i % 5 ? 'list_issues' : 'create_issue',
    outcome: i % 7 ? 'ok' : 'denied',
    durationMs: 12,
    argBytes: 40,
    resultBytes: 900,
    ...over,
  };
}

export function iso(i: number): string {
  return new Date(T0 + i * 1000).toISOString();
}
