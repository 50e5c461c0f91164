import { describe, expect, it } from 'vitest';
import { memoStrings } from '../../src-shared/memo.ts';

describe('memoStrings', () => {
  it('calls the function once per pair of arguments, telling an absent second one from an empty one', () => {
    const calls: string[] = [];
    const f = memoStrings((a, b) => {
      calls.push(`${a}|${b}`);
      return b === undefined ? `${a}!` : `${a}+${b}`;
    });
    expect([f('x'), f('x'), f('x', ''), f('x', ''), f('x', 'y'), f('x', 'y')]).toEqual(['x!', 'x!', 'x+', 'x+', 'x+y', 'x+y']);
    expect(calls).toEqual(['x|undefined', 'x|', 'x|y']);
  });

  it('keeps undefined results too, and forgets everything past its size', () => {
    let n = 0;
    const f = memoStrings(() => {
      n++;
      return undefined;
    }, 2);
    f('a');
    f('a');
    f('b');
    expect(n).toBe(2);
    f('c'); // the third: all forgotten, then kept
    f('c');
    expect(n).toBe(3);
    f('a');
    expect(n).toBe(4);
  });
});
