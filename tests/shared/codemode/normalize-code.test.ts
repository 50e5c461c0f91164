import { describe, expect, it } from 'vitest';
import { EMPTY_CODE_MESSAGE, normalizeCode } from '../../../src-shared/codemode/normalize-code.ts';

// Evaluates a form the way the sandbox does (source → promise) to check what the code means.
async function evaluate(code: string): Promise<unknown> {
  const n = normalizeCode(code);
  if (!n.ok) throw new Error(n.message);
  let lastError: unknown;
  for (const form of n.forms) {
    let promise: Promise<unknown>;
    try {
      promise = (0, eval)(form.source) as Promise<unknown>;
    } catch (err) {
      lastError = err;
      continue;
    }
    return promise;
  }
  throw lastError;
}

describe('normalizeCode', () => {
  it('calls an async arrow function and awaits it', async () => {
    expect(await evaluate('async () => { return 1 + 1; }')).toBe(2);
    expect(await evaluate('async () => 3;')).toBe(3);
  });

  it('runs a bare function body with await and return', async () => {
    expect(await evaluate('const x = await Promise.resolve(4);\nreturn x;')).toBe(4);
  });

  it('awaits a single expression', async () => {
    expect(await evaluate('Promise.resolve(5)')).toBe(5);
  });

  it('runs a body that starts with a helper function declaration', async () => {
    expect(await evaluate('async function main() { return 6; }\nreturn main();')).toBe(6);
  });

  it('takes the code out of a Markdown fence in js, javascript, ts or no language', async () => {
    for (const lang of ['js', 'javascript', 'ts', '']) {
      expect(await evaluate(`\`\`\`${lang}\nasync () => 7\n\`\`\``)).toBe(7);
    }
  });

  it('keeps a trailing line comment from swallowing the wrapper', async () => {
    expect(await evaluate('async () => 8 // done')).toBe(8);
  });

  it('refuses empty code with the seed wording', () => {
    expect(normalizeCode('  \n\t')).toEqual({ ok: false, message: EMPTY_CODE_MESSAGE });
    expect(normalizeCode('```js\n\n```')).toEqual({ ok: false, message: EMPTY_CODE_MESSAGE });
  });

  it('refuses a fence marked as another language', () => {
    const n = normalizeCode('```python\nprint(1)\n```');
    expect(n.ok).toBe(false);
    expect(!n.ok && n.message).toContain('python');
  });

  it('says which form the code looks like, for syntax errors', () => {
    const fn = normalizeCode('async () => {');
    const body = normalizeCode('const x = ;');
    expect(fn.ok && fn.likelyForm).toBe(0);
    expect(body.ok && body.likelyForm).toBe(1);
  });

  it('maps source lines back to the lines as sent, fence included', () => {
    const n = normalizeCode('```js\nasync () => {\n  oops(\n}\n```');
    if (!n.ok) throw new Error('expected code');
    // The user's line 3 ("  oops(") is line 3 of the source after the one wrapper line minus the fence line.
    const form = n.forms[0];
    const sourceLine = form.source.split('\n').findIndex((l) => l === '  oops(') + 1;
    expect(sourceLine - form.lineOffset).toBe(3);
  });
});
