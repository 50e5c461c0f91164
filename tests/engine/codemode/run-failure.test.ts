// The run-failure classifier: what a caller is told for an error read out of QuickJS,
// without starting QuickJS. The sandbox tests cover the same sentences end to end.
import { describe, expect, it } from 'vitest';
import { normalizeCode, type CodeForm } from '../../../src-shared/codemode/normalize-code.ts';
import {
  catalogBudgetFailure,
  clip,
  errorPlace,
  failureFrom,
  sandboxCrashFailure,
  startFailure,
  syntaxFailure,
} from '../../../src-main/engine/codemode/run-failure.ts';

function bodyForm(code: string): CodeForm {
  const n = normalizeCode(code);
  if (!n.ok) throw new Error(n.message);
  return n.forms[n.forms.length - 1]!;
}

// Lines of the evaluated source: 1 is the wrapper's, 2 and 3 the user's, 4 the wrapper's again.
const form = bodyForm('const x = 1;\nreturn github.list_isues(x);');
const context = { form, memoryMb: 32, globals: { github: ['list_issues', 'get_issue'] } };

describe('errorPlace', () => {
  it('maps a code.js frame to the line as sent, with its column', () => {
    expect(form.source.split('\n')[2]).toBe('return github.list_isues(x);');
    expect(errorPlace({ message: 'x', stack: '    at <anonymous> (code.js:3:25)\n' }, form)).toEqual({
      user: { line: 3 - form.lineOffset, column: 25 },
      raw: { line: 3, column: 25 },
    });
  });

  it('falls back to lineNumber, and names no place on the wrapper lines or outside code.js', () => {
    expect(errorPlace({ message: 'x', lineNumber: 2 }, form).user).toEqual({ line: 2 - form.lineOffset });
    expect(errorPlace({ message: 'x', lineNumber: 1 }, form)).toEqual({ user: {} });
    expect(errorPlace({ message: 'x', lineNumber: 4 }, form)).toEqual({ user: {} });
    expect(errorPlace({ message: 'x', stack: '    at install (setup.js:9:3)\n' }, form)).toEqual({ user: {} });
  });
});

describe('failureFrom', () => {
  it('calls running out of memory a memory failure with the cap, whatever QuickJS named it', () => {
    for (const message of ['out of memory', 'string too long', 'invalid array buffer length']) {
      const f = failureFrom({ name: 'InternalError', message }, context);
      expect(f).toMatchObject({ kind: 'memory', message: `the run used more than its 32 MB of memory (${message})` });
      expect(f.hint).toMatch(/budgets\.memoryMb/);
    }
  });

  it('hints at a loop for a stack overflow, and keeps the error name in the message', () => {
    expect(failureFrom({ name: 'InternalError', message: 'stack overflow' }, context)).toMatchObject({
      kind: 'runtime',
      message: 'InternalError: stack overflow',
      hint: 'The recursion went too deep; use a loop instead.',
    });
  });

  it('leaves a plain Error unnamed and cuts a long message', () => {
    const f = failureFrom({ name: 'Error', message: 'boom' }, context);
    expect(f).toEqual({ ok: false, kind: 'runtime', message: 'boom' });
    const long = failureFrom({ message: 'y'.repeat(5000) }, context).message;
    expect(long).toBe(clip('y'.repeat(5000)));
    expect(long.length).toBeLessThan(2100);
    expect(long.endsWith('… (message cut)')).toBe(true);
  });

  it('names the server globals for an unknown name', () => {
    const f = failureFrom({ name: 'ReferenceError', message: "'gihtub' is not defined", lineNumber: 3 }, context);
    expect(f).toMatchObject({ kind: 'runtime', message: "ReferenceError: 'gihtub' is not defined", line: 3 - form.lineOffset });
    expect(f.hint).toContain('github');
  });

  it('suggests the closest method when a call is not a function, from the code at the error', () => {
    const f = failureFrom({ name: 'TypeError', message: 'not a function', stack: '    at <anonymous> (code.js:3:25)\n' }, context);
    expect(f.hint).toContain('list_issues');
    // Without a place in the user's code there is nothing to read the callee from.
    expect(failureFrom({ name: 'TypeError', message: 'not a function' }, context).hint).toBeUndefined();
  });
});

describe('the other failures', () => {
  it('says TypeScript is not run when the fence named it', () => {
    const d = { name: 'SyntaxError', message: "unexpected token ':'", lineNumber: 2 };
    expect(syntaxFailure(d, form, 'ts').hint).toMatch(/plain JavaScript/);
    expect(syntaxFailure(d, form, null)).toMatchObject({ kind: 'syntax', message: "unexpected token ':'", line: 2 - form.lineOffset, hint: expect.stringMatching(/async arrow function/) });
  });

  it('tells a set-up that failed to run (memory) from one that failed to compile', () => {
    expect(startFailure('compile', 'x')).toEqual({ ok: false, kind: 'runtime', message: 'the sandbox could not start: x' });
    expect(startFailure('install', 'x').kind).toBe('memory');
  });

  it('calls a crashed sandbox out of memory only when its memory hit the cap, whatever the error says', () => {
    expect(sandboxCrashFailure({ type: 'out-of-memory' }, 64)).toEqual({ ok: false, kind: 'memory', message: 'the run used more than its 64 MB of memory' });
    const trap = new Error('RuntimeError: memory access out of bounds');
    expect(sandboxCrashFailure({ type: 'failed', error: trap }, 64)).toEqual({
      ok: false,
      kind: 'runtime',
      message: 'the sandbox failed: Error: RuntimeError: memory access out of bounds',
    });
  });

  it('counts results reads as catalog lookups in the budget message', () => {
    expect(catalogBudgetFailure(200, 'results').message).toBe('the run made more than 200 catalog lookups (results reads count as lookups)');
    expect(catalogBudgetFailure(200, 'search').message).toBe('the run made more than 200 catalog lookups');
  });
});
