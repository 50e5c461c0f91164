// Which engine lines answer a client request (engine-answers.mjs): decided by the line's
// top-level members, however the line is cut into chunks, never by a `"result":` found inside.
import { describe, expect, it } from 'vitest';
import { EngineAnswers } from '../../src-main/shim/engine-answers.mjs';

function answers(text: string, cut?: number[]): string[] {
  const ids: string[] = [];
  const s = new EngineAnswers({ onAnswer: (id) => ids.push(id) });
  const buf = Buffer.from(text);
  let at = 0;
  for (const c of [...(cut ?? []), buf.length]) {
    s.push(buf.subarray(at, c));
    at = c;
  }
  return ids;
}

const line = (m: string) => `${m}\n`;

describe('engine lines', () => {
  it('answer a request when they hold a top-level result or error and no method', () => {
    expect(answers(line('{"jsonrpc":"2.0","id":3,"result":{"x":1}}'))).toEqual(['3']);
    expect(answers(line('{"jsonrpc":"2.0","id":"a\\"b","error":{"code":-1,"message":"no"}}'))).toEqual(['"a\\"b"']);
    expect(answers(line('{"jsonrpc":"2.0","id":null,"error":{}}'))).toEqual(['null']);
    // A key written with escapes is the key JSON.parse reads.
    expect(answers(line('{"jsonrpc":"2.0","id":4,"\\u0072esult":{}}'))).toEqual(['4']);
  });

  it('do not answer one when "result" or "error" is anywhere but a top-level key', () => {
    for (const m of [
      // a server→client request with the id of a pending call and such a key in its params.
      '{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"say \\"result\\": 1","requestedSchema":{"type":"object","properties":{"result":{"type":"string"},"error":{}}}}}',
      '{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"result":{},"error":{}}}',
      '{"jsonrpc":"2.0","id":3,"result":{},"method":"x"}',
      '{"jsonrpc":"2.0","id":3,"result":{},"\\u006dethod":"x"}',
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"result":1}}',
      '{"jsonrpc":"2.0","id":3,"results":{}}',
      '{"jsonrpc":"2.0","id":3,"x":"\\"result\\":"}',
      '{"jsonrpc":"2.0","id":3,"result":{}} {"error":1}',
      '[{"jsonrpc":"2.0","id":3,"result":{}}]',
      '{"jsonrpc":"2.0","id":3,"result":{}',
      'not json "result":',
    ]) {
      expect(answers(line(m)), m).toEqual([]);
    }
  });

  it('are read the same however they are cut, a line after another', () => {
    const text = [
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"\\\\\\"result\\":","result":[{"error":"}"}]}}',
      '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"a \\"method\\": \\\\ {["}]}}',
      '{"jsonrpc":"2.0","id":"z","error":{"code":1,"message":"]}"}}',
    ]
      .map(line)
      .join('');
    for (let a = 0; a <= text.length; a++) {
      expect(answers(text, [a])).toEqual(['2', '"z"']);
    }
    expect(answers(text, Array.from({ length: text.length }, (_, i) => i))).toEqual(['2', '"z"']);
  });

  it('answer a line of 20 MB streamed in 64 KB chunks, and forget a line cut by a reset', () => {
    const big = Buffer.from(line(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"${'x\\"'.repeat(7_000_000)}"}]}}`));
    const ids: string[] = [];
    const s = new EngineAnswers({ onAnswer: (id) => ids.push(id) });
    for (let at = 0; at < big.length; at += 65_536) s.push(big.subarray(at, at + 65_536));
    expect(ids).toEqual(['7']);
    s.push(Buffer.from('{"jsonrpc":"2.0","id":8,"resu'));
    s.reset();
    s.push(Buffer.from('lt":{}}\n{"jsonrpc":"2.0","id":9,"result":{}}\n'));
    expect(ids).toEqual(['7', '9']);
  });
});
