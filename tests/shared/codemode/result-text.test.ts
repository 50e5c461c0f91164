import { describe, expect, it } from 'vitest';
import { MAX_LOG_BYTES } from '../../../src-shared/config/schema.ts';
import { LOG_CUT_NOTE, capLogs, formatRunText } from '../../../src-shared/codemode/result-text.ts';

describe('formatRunText', () => {
  it('puts logs (with levels other than log) before the result as pretty JSON', () => {
    const t = formatRunText(
      { ok: true, value: { a: [1] }, returnedUndefined: false, logs: [{ level: 'log', text: 'one' }, { level: 'warn', text: 'two' }], calls: 0 },
      1000,
    );
    expect(t).toEqual({ isError: false, text: 'Logs:\none\n[warn] two\n\nResult:\n{\n  "a": [\n    1\n  ]\n}' });
  });

  it('leaves the Logs section out when nothing was logged', () => {
    expect(formatRunText({ ok: true, value: 1, returnedUndefined: false, logs: [], calls: 0 }, 1000).text).toBe('Result:\n1');
  });

  it('says so when the function returned nothing', () => {
    expect(formatRunText({ ok: true, value: undefined, returnedUndefined: true, logs: [], calls: 0 }, 1000).text).toBe(
      'Result:\nundefined (the function returned nothing)',
    );
  });

  it('cuts a long result to maxResultChars and asks for less', () => {
    const t = formatRunText({ ok: true, value: 'x'.repeat(500), returnedUndefined: false, logs: [], calls: 0 }, 100).text;
    const body = t.slice('Result:\n'.length);
    expect(body.startsWith(`"${'x'.repeat(99)}\n`)).toBe(true);
    expect(t).toMatch(/result cut at 100 of 502 characters; return a smaller result/);
  });

  it('starts a failure with its kind, then place, hint and the logs so far', () => {
    const t = formatRunText(
      { ok: false, kind: 'runtime', message: 'TypeError: not a function', line: 3, column: 7, hint: 'try x', logs: [{ level: 'error', text: 'before' }], calls: 1 },
      1000,
    );
    expect(t).toEqual({ isError: true, text: 'runtime: TypeError: not a function (line 3, column 7)\nHint: try x\n\nLogs:\n[error] before' });
  });
});

describe('capLogs', () => {
  it('keeps logs within 64 KB and ends with a note when cut', () => {
    const lines = Array.from({ length: 100 }, () => ({ level: 'log' as const, text: 'y'.repeat(1023) }));
    const kept = capLogs(lines);
    expect(kept.at(-1)).toEqual({ level: 'warn', text: LOG_CUT_NOTE });
    const bytes = kept.slice(0, -1).reduce((n, l) => n + l.text.length + 1, 0);
    expect(bytes).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(bytes).toBeGreaterThan(MAX_LOG_BYTES - 1024);
  });

  it('leaves small logs alone', () => {
    const lines = [{ level: 'info' as const, text: 'é' }];
    expect(capLogs(lines)).toEqual(lines);
  });
});
