import { describe, expect, it } from 'vitest';
import { MAX_LEDGER_LINES, formatLedger } from '../../../src-shared/codemode/ledger.ts';
import { formatRunText } from '../../../src-shared/codemode/result-text.ts';
import { shapeOf } from '../../../src-shared/codemode/shapes.ts';

describe('the call ledger of a failed run', () => {
  it('lists each call with its outcome and duration, unfinished ones as such, and the last result shape', () => {
    const text = formatLedger(
      [
        { name: 'github.create_issue', argsJson: '{"title":"one"}', outcome: 'ok', durationMs: 12.345 },
        { name: 'github.create_issue', argsJson: '{"title":"two"}', outcome: 'error', durationMs: 3 },
        { name: 'slow.wait', argsJson: '{"ms":5000}', durationMs: 1500 },
      ],
      { name: 'github.create_issue', shape: shapeOf({ number: 1, url: 'https://x' }) },
    );
    expect(text).toBe(
      [
        'Calls: 3 started, 2 finished (1 ok, 1 error), 1 unfinished. A failed run does not undo them: when you retry, skip the calls that succeeded.',
        '  1. github.create_issue({"title":"one"}) → ok in 12.3 ms',
        '  2. github.create_issue({"title":"two"}) → error in 3 ms',
        '  3. slow.wait({"ms":5000}) → unfinished: cancelled when the run ended after 1.5 s, it may still have taken effect',
        'Last completed result (github.create_issue): { number: number; url: string }',
      ].join('\n'),
    );
  });

  it('is empty without calls and bounded with many', () => {
    expect(formatLedger([])).toBe('');
    const many = Array.from({ length: 500 }, (_, i) => ({ name: 'a.b', argsJson: JSON.stringify({ i, pad: 'x'.repeat(500) }), outcome: 'ok' as const, durationMs: 1 }));
    const text = formatLedger(many);
    expect(text.split('\n')).toHaveLength(MAX_LEDGER_LINES + 2);
    expect(text).toContain('… 480 more calls (all ok) …');
    expect(text).toContain('  500. a.b(');
    expect(text.length).toBeLessThan(3000);
  });

  it('goes after the kind, message and hint, before the logs', () => {
    const t = formatRunText(
      { ok: false, kind: 'runtime', message: 'Error: boom', line: 2, hint: 'try x', logs: [{ level: 'log', text: 'before' }], calls: 1 },
      1000,
      { ledger: formatLedger([{ name: 'a.b', outcome: 'ok', durationMs: 1 }]) },
    );
    expect(t.text).toMatch(/^runtime: Error: boom \(line 2\)\nHint: try x\n\nCalls: 1 started, 1 finished \(1 ok\)\..*\n  1\. a\.b\(\) → ok in 1 ms\n\nLogs:\nbefore$/s);
  });
});
