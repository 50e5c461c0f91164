// A run's console within its budgets and its value as the engine gets it: the pure
// parts of the sandbox runner, without QuickJS.
import { describe, expect, it } from 'vitest';
import { LOG_CUT_NOTE, MAX_LOG_ENTRIES } from '../../../src-shared/codemode/result-text.ts';
import { MAX_KEPT_RESULT_CHARS } from '../../../src-shared/codemode/result-pages.ts';
import { MAX_LOG_BYTES } from '../../../src-shared/config/budgets.ts';
import { LogCap, resultFor } from '../../../src-main/engine/codemode/run-output.ts';

describe('LogCap', () => {
  it('passes console levels through and files anything else as log', () => {
    const cap = new LogCap();
    expect(cap.take('warn', 'w')).toEqual([{ level: 'warn', text: 'w' }]);
    expect(cap.take('trace', 't')).toEqual([{ level: 'log', text: 't' }]);
  });

  it('cuts the line that goes over the bytes to the room left, adds the note once, then drops everything', () => {
    const cap = new LogCap();
    const half = 'a'.repeat(MAX_LOG_BYTES / 2);
    expect(cap.take('log', half)).toHaveLength(1);
    const over = cap.take('info', half);
    // Each line costs its bytes plus one (the newline it would take in a record).
    expect(over).toEqual([
      { level: 'info', text: 'a'.repeat(MAX_LOG_BYTES / 2 - 2) },
      { level: 'warn', text: LOG_CUT_NOTE },
    ]);
    expect(cap.take('log', 'more')).toEqual([]);
  });

  it('stops at MAX_LOG_ENTRIES lines however short', () => {
    const cap = new LogCap();
    let kept = 0;
    for (let i = 0; i < MAX_LOG_ENTRIES; i++) kept += cap.take('log', '').length;
    expect(kept).toBe(MAX_LOG_ENTRIES);
    expect(cap.take('log', '')).toEqual([{ level: 'warn', text: LOG_CUT_NOTE }]);
    expect(cap.take('log', '')).toEqual([]);
  });
});

describe('resultFor', () => {
  const small = JSON.stringify({ a: 1 });
  const big = JSON.stringify({ list: Array.from({ length: 500 }, (_, i) => `item ${i}`) });

  it('hands over the JSON with the text when nothing is cut', () => {
    const r = resultFor(small, 1000, false, false);
    expect(r).toMatchObject({ ok: true, json: small });
    expect(r.text?.chars).toBeLessThanOrEqual(1000);
  });

  it('sends only the text of a cut result, unless the profile keeps results or the run wants the whole value', () => {
    const cut = resultFor(big, 100, false, false);
    expect(cut.json).toBeUndefined();
    expect(cut.keep).toBeUndefined();
    expect(cut.text!.chars).toBeGreaterThan(100);
    const kept = resultFor(big, 100, true, false);
    expect(kept.keep?.chars).toBe(big.length);
    expect(new TextDecoder().decode(kept.keep?.bytes)).toBe(big);
    expect(resultFor(big, 100, false, true).json).toBe(big);
  });

  it('keeps only the size of a result too large to keep', () => {
    const huge = JSON.stringify('x'.repeat(MAX_KEPT_RESULT_CHARS));
    expect(resultFor(huge, 100, true, false).keep).toEqual({ chars: huge.length });
  });
});
