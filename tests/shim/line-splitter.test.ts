// The one newline splitter every framed stream uses: bytes in, whole lines
// out, so a character split across chunks arrives whole; a line over the cap is dropped with its
// ends kept and the stream carries on.
import { describe, expect, it } from 'vitest';
import { LineSplitter, OVERSIZED_KEEP_BYTES, type OversizedLine } from '../../src-main/shim/line-splitter.mjs';

function collect(maxLineBytes: number) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const s = new LineSplitter({ maxLineBytes, onLine: (l) => lines.push(l.toString('utf8')), onOversized: (o) => oversized.push(o) });
  return { s, lines, oversized };
}

describe('LineSplitter', () => {
  it('keeps a multibyte character whole when a chunk boundary falls inside it, at every offset', () => {
    const text = '€'.repeat(1000) + ' a 😀 b ' + 'ü'.repeat(333);
    const bytes = Buffer.from(JSON.stringify({ text }) + '\n' + JSON.stringify({ n: 2 }) + '\n');
    for (const size of [1, 2, 3, 5, 7, 64, 1000]) {
      const { s, lines } = collect(1 << 20);
      for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
      expect(lines.map((l) => JSON.parse(l))).toEqual([{ text }, { n: 2 }]);
      expect(s.pendingBytes).toBe(0);
    }
  });

  it('hands over the bytes of a line only once its newline arrived, blank lines included', () => {
    const { s, lines } = collect(100);
    s.push(Buffer.from('ab'));
    expect(lines).toEqual([]);
    expect(s.pendingBytes).toBe(2);
    s.push(Buffer.from('c\n\nd'));
    expect(lines).toEqual(['abc', '']);
    s.push(Buffer.from('\n'));
    expect(lines).toEqual(['abc', '', 'd']);
  });

  it('drops a line over the cap, keeps its two ends, and carries on with the next line', () => {
    const { s, lines, oversized } = collect(1000);
    const big = '{"jsonrpc":"2.0","id":41,"result":"' + 'x'.repeat(5000) + '"}';
    s.push(Buffer.from('{"ok":1}\n' + big.slice(0, 700)));
    s.push(Buffer.from(big.slice(700, 3000)));
    expect(s.pendingBytes).toBe(0); // nothing of the oversized line is held
    s.push(Buffer.from(big.slice(3000) + '\n{"ok":2}\n'));
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(oversized).toHaveLength(1);
    expect(oversized[0]!.bytes).toBe(big.length);
    expect(oversized[0]!.head.toString()).toBe(big.slice(0, OVERSIZED_KEEP_BYTES));
    expect(oversized[0]!.tail.toString()).toBe(big.slice(-OVERSIZED_KEEP_BYTES));
  });

  it('treats a line of exactly the cap as fine and one byte more as oversized, in one chunk or many', () => {
    for (const chunked of [false, true]) {
      const { s, lines, oversized } = collect(10);
      const input = Buffer.from('0123456789\n0123456789A\nok\n');
      if (chunked) for (const b of input) s.push(Buffer.from([b]));
      else s.push(input);
      expect(lines).toEqual(['0123456789', 'ok']);
      expect(oversized.map((o) => o.bytes)).toEqual([11]);
    }
  });

  it('forgets a half line on reset (the stream was cut)', () => {
    const { s, lines } = collect(100);
    s.push(Buffer.from('half a li'));
    s.reset();
    s.push(Buffer.from('{"whole":true}\n'));
    expect(lines).toEqual(['{"whole":true}']);
  });

  it('refuses a cap that is not positive', () => {
    expect(() => new LineSplitter({ maxLineBytes: 0, onLine: () => {} })).toThrow(/maxLineBytes/);
  });
});
