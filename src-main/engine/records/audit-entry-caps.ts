// Caps on one audit entry, so that one call cannot take much of the 50 MB audit: an upstream's
// JSON-RPC error carrying 1 MB of text was stored whole (60 of them filled the cap and pushed
// every other client's entries out). Every text field is cut the one way records cut text
// (record-text.ts); the numbers and the approval's words are small by type.
import { AUDIT_ARGS_CHARS, type AuditEntry } from '../../../src-shared/records.ts';
import { capText, RECORD_NAME_CHARS, RECORD_SHORT_CHARS } from './record-text.ts';

/** Characters one audit entry keeps of each text field. */
export const AUDIT_ENTRY_CAPS = {
  /** The error sentence (a tool's `isError` text, a thrown error's message). */
  error: 500,
  /** Names: client, its connector id, profile, server, tool. */
  name: RECORD_NAME_CHARS,
  /** Time and ids. */
  short: RECORD_SHORT_CHARS,
} as const;

const FIELD_CAP: Record<string, number> = {
  error: AUDIT_ENTRY_CAPS.error,
  time: AUDIT_ENTRY_CAPS.short,
  runId: AUDIT_ENTRY_CAPS.short,
  id: AUDIT_ENTRY_CAPS.short,
  // The call's arguments, already redacted and cut by the audit log (audit-log.ts #cutArgs).
  args: AUDIT_ARGS_CHARS,
};

/** `entry` with every text field within AUDIT_ENTRY_CAPS; `redactText` redacts one string before its cut. */
export function capAuditEntry(entry: AuditEntry, redactText: (s: string) => string): AuditEntry {
  return capStrings(entry as unknown as Record<string, unknown>, redactText) as unknown as AuditEntry;
}

function capStrings(value: Record<string, unknown>, redactText: (s: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = capValue(k, v, redactText);
  return out;
}

function capValue(key: string, v: unknown, redactText: (s: string) => string): unknown {
  if (typeof v === 'string') return capText(v, FIELD_CAP[key] ?? AUDIT_ENTRY_CAPS.name, redactText, `${key} cut for the audit`);
  if (Array.isArray(v)) return v.map((x) => capValue(key, x, redactText));
  if (v !== null && typeof v === 'object') return capStrings(v as Record<string, unknown>, redactText);
  return v;
}
