// Why a code-mode run failed, in the words the caller gets (docs/protocol.md): from an error as it was read
// out of QuickJS (name, message, stack) to a RunFailure with its kind, its place in the code as
// sent and a hint. Pure: no QuickJS here, so every sentence is testable without WASM.
import type { CodeForm } from '../../../src-shared/codemode/normalize-code.ts';
import { calleeAt, unknownMethodHint, unknownNameHint } from './sandbox-hints.ts';
import type { RunFailure } from './sandbox-protocol.ts';

const MAX_MESSAGE_CHARS = 2000;

/** What a thrown value said, read out of its QuickJS handle (see Run's describe). */
export interface Described {
  name?: string;
  message: string;
  stack?: string;
  lineNumber?: number;
}

/** Where an error points, in the code as sent (`user`) and in the evaluated source (`raw`). */
export interface ErrorPlace {
  user: { line?: number; column?: number };
  raw?: { line: number; column?: number };
}

/** What the classifier needs of the run besides the error: the form that ran and the profile. */
export interface FailureContext {
  form: CodeForm;
  memoryMb: number;
  globals: Record<string, string[]>;
}

export function clip(s: string): string {
  return s.length > MAX_MESSAGE_CHARS ? `${s.slice(0, MAX_MESSAGE_CHARS)}… (message cut)` : s;
}

/** The place an error names in `form` (user code is evaluated as code.js), if it is in the user's lines. */
export function errorPlace(d: Described, form: CodeForm): ErrorPlace {
  let line: number | undefined;
  let column: number | undefined;
  const frame = d.stack ? /code\.js:(\d+)(?::(\d+))?/.exec(d.stack) : null;
  if (frame) {
    line = Number(frame[1]);
    column = frame[2] !== undefined ? Number(frame[2]) : undefined;
  } else if (d.lineNumber !== undefined) {
    line = d.lineNumber;
  }
  // The first and last lines of the source belong to the wrapper, not to the user.
  if (line === undefined || line < 2 || line > form.source.split('\n').length - 1) return { user: {} };
  const user = column !== undefined ? { line: line - form.lineOffset, column } : { line: line - form.lineOffset };
  return { user, raw: { line, column } };
}

/** A run that threw (or rejected): out of memory, or a runtime error with the hint that fits it. */
export function failureFrom(d: Described, c: FailureContext): RunFailure {
  const { user: where, raw } = errorPlace(d, c.form);
  const message = clip(d.name && d.name !== 'Error' ? `${d.name}: ${d.message}` : d.message);
  if (d.name === 'InternalError' && /out of memory|string too long|invalid array buffer length/i.test(d.message)) {
    return {
      ok: false,
      kind: 'memory',
      message: `the run used more than its ${c.memoryMb} MB of memory (${d.message})`,
      ...where,
      hint: 'Work on smaller pieces of data, or raise budgets.memoryMb for this profile.',
    };
  }
  const failure: RunFailure = { ok: false, kind: 'runtime', message, ...where };
  if (d.name === 'InternalError' && /stack overflow/i.test(d.message)) {
    failure.hint = 'The recursion went too deep; use a loop instead.';
  }
  const unknown = d.name === 'ReferenceError' ? /^'?([^' ]+)'? is not defined/.exec(d.message) : null;
  if (unknown) failure.hint = unknownNameHint(unknown[1]!, c.globals);
  if (d.name === 'TypeError' && /not a function/.test(d.message) && raw) {
    const callee = calleeAt(c.form.source, raw.line, raw.column ?? 1);
    const hint = callee && unknownMethodHint(callee.object, callee.property, c.globals);
    if (hint) failure.hint = hint;
  }
  return failure;
}

/** Code that does not compile; the hint depends on the language its fence named. */
export function syntaxFailure(d: Described, form: CodeForm, fenceLanguage: string | null): RunFailure {
  const failure: RunFailure = { ok: false, kind: 'syntax', message: clip(d.message), ...errorPlace(d, form).user };
  if (fenceLanguage === 'ts' || fenceLanguage === 'typescript' || fenceLanguage === 'tsx') {
    failure.hint = 'The sandbox runs plain JavaScript: leave out type annotations and other TypeScript syntax.';
  } else {
    failure.hint = 'Send an async arrow function such as async () => { … }, or a function body.';
  }
  return failure;
}

/** Code that compiles only because it closes its wrapper early (see CodeForm.probe). */
export function closesWrapperFailure(): RunFailure {
  return {
    ok: false,
    kind: 'syntax',
    message: 'the code closes the function it is wrapped in: an unmatched ")" or "}" ends it early, and what follows would run outside it',
    hint: 'Send one async arrow function such as async () => { … }, or one function body.',
  };
}

export function cancelledFailure(): RunFailure {
  return { ok: false, kind: 'aborted', message: 'the run was cancelled' };
}

export function timeoutFailure(timeoutMs: number): RunFailure {
  return {
    ok: false,
    kind: 'timeout',
    message: `the run took longer than ${timeoutMs} ms`,
    hint: 'Do less per run, or raise budgets.timeoutMs for this profile.',
  };
}

/** The run awaits a promise nothing can settle: no host call pending, no job queued. */
export function neverSettlesFailure(): RunFailure {
  return {
    ok: false,
    kind: 'timeout',
    message: 'the code waits for a promise that can never settle: no tool call or other work is still pending',
    hint: 'Every await must end in a tool call or a promise that resolves; there are no timers in the sandbox.',
  };
}

export function toolBudgetFailure(maxToolCalls: number): RunFailure {
  return {
    ok: false,
    kind: 'budget',
    message: `the run made more than ${maxToolCalls} tool calls`,
    hint: 'Batch the work into fewer calls, or raise budgets.maxToolCalls for this profile.',
  };
}

export function catalogBudgetFailure(maxCatalogCalls: number, kind: string | undefined): RunFailure {
  return { ok: false, kind: 'budget', message: `the run made more than ${maxCatalogCalls} catalog lookups${kind === 'results' ? ' (results reads count as lookups)' : ''}` };
}

/** The set-up script failed: to compile (`runtime`), or to run, which only running out of memory makes it do. */
export function startFailure(stage: 'compile' | 'install', message: string): RunFailure {
  return { ok: false, kind: stage === 'compile' ? 'runtime' : 'memory', message: `the sandbox could not start: ${message}` };
}

/**
 * How the sandbox itself failed (a WASM trap or abort, a QuickJS handle error), decided by the
 * runner from the module's state, not from the error's words.
 */
export type SandboxCrash =
  /** The linear memory refused to grow during the run (CappedModule.growthRefused). */
  | { type: 'out-of-memory' }
  | { type: 'failed'; error: unknown };

/** The sandbox itself failed: out of memory when its memory hit the cap, else a failed sandbox. */
export function sandboxCrashFailure(crash: SandboxCrash, memoryMb: number): RunFailure {
  if (crash.type === 'out-of-memory') return { ok: false, kind: 'memory', message: `the run used more than its ${memoryMb} MB of memory` };
  return { ok: false, kind: 'runtime', message: `the sandbox failed: ${String(crash.error)}` };
}
