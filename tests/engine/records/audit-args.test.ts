// The arguments an audit entry keeps: redacted before they are cut, so no part of a secret
// survives at the cut; cut to AUDIT_ARGS_CHARS and marked so.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src-main/engine/records/audit-log.ts';
import { AUDIT_ARGS_CHARS } from '../../../src-shared/records.ts';
import { makeAudit, tempDir } from './fixtures.ts';

const SECRET = 'hunter2-correct-horse-battery';
let dir: string;
let cleanup: () => void;
let log: AuditLog;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  log = AuditLog.open(dir, { secrets: () => [SECRET] });
});
afterEach(() => {
  log.dispose();
  cleanup();
});

describe("an audit entry's arguments", () => {
  it('keeps them with known secrets and token-shaped strings redacted', () => {
    const token = `ghp_${'a'.repeat(36)}`;
    log.append(makeAudit(1, { args: JSON.stringify({ repo: 'acme/web', password: SECRET, auth: token }) }));
    const [e] = log.list();
    expect(JSON.parse(e!.args!)).toEqual({ repo: 'acme/web', password: '[redacted]', auth: '[redacted]' });
    expect(e!.argsCut).toBeUndefined();
  });

  it('cuts long ones to AUDIT_ARGS_CHARS after redacting, so a secret across the cut leaves no prefix', () => {
    const text = `${'x'.repeat(AUDIT_ARGS_CHARS - 6)}${SECRET}${'y'.repeat(500)}`;
    log.append(makeAudit(2, { args: text }));
    const [e] = log.list();
    expect(e!.args).toHaveLength(AUDIT_ARGS_CHARS);
    expect(e!.argsCut).toBe(true);
    expect(e!.args).not.toContain('hunter');
    expect(e!.args!.endsWith('[redac')).toBe(true);
  });

  it('leaves entries without arguments as they were', () => {
    log.append(makeAudit(3));
    expect(log.list()[0]).not.toHaveProperty('args');
  });
});
