// Turns what a model sends to `execute` into source the sandbox can evaluate (docs/code-mode.md: an async
// arrow function, a bare function body, or either wrapped in a Markdown fence). Pure.

/** One way of reading the code. Evaluating `source` yields a promise for the run's value. */
export interface CodeForm {
  source: string;
  /**
   * Subtract from a line of `source` to get the line in the code as sent (a stripped fence's
   * lines count, so numbers match what the model wrote).
   */
  lineOffset: number;
  /**
   * The same code in a differently shaped wrapper, to compile (never run) before `source` runs.
   * Code that closes its wrapper early (`0)); evil(); ((0`) still compiles inside `source`, and
   * its middle would then run outside the function; it cannot also compile inside `probe`. For
   * the expression form the probe's bracket is of another kind (`[`), so the `)` that closes the
   * wrapper early is a mismatch. For the body form the probe is a function declaration: after a
   * `}` that closes it early only a statement may follow, while closing the wrapper's arrow
   * early needs a `,` or `)` next. The declaration keeps a function body's scoping, so code that
   * is a valid body compiles in both.
   */
  probe: string;
}

export type NormalizedCode =
  | {
      ok: true;
      /**
       * Try in order; the first that compiles (with its probe) is the run. Compile them before
       * running any: a SyntaxError thrown while code runs is the code's own error. The expression form comes first so
       * that `async () => {…}` is called rather than merely created by a body.
       */
      forms: [expression: CodeForm, body: CodeForm];
      /** Which form's syntax error to report when none compiles: the one the code looks like. */
      likelyForm: 0 | 1;
      /** The fence's language tag when the code came fenced, lower-cased ("" for a bare fence). */
      fenceLanguage: string | null;
    }
  | { ok: false; message: string };

export const EMPTY_CODE_MESSAGE = 'the code is empty; send an async arrow function such as async () => { … }';

const JS_FENCE_LANGUAGES = new Set(['', 'js', 'javascript', 'jsx', 'mjs', 'cjs', 'ts', 'typescript', 'tsx']);

const FENCE_OPEN_RE = /^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/;

/** Drops a Markdown fence around the code, keeping count of the lines dropped before it. */
function stripFence(code: string): { code: string; linesBefore: number; language: string | null } | { error: string } {
  const lines = code.split(/\r?\n/);
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  const open = FENCE_OPEN_RE.exec(lines[first] ?? '');
  if (!open) return { code, linesBefore: 0, language: null };
  const marker = open[1]!;
  const language = open[2]!.toLowerCase();
  if (!JS_FENCE_LANGUAGES.has(language)) {
    return { error: `the fenced code is marked as "${open[2]}"; send JavaScript, such as async () => { … }` };
  }
  let close = lines.length;
  for (let i = first + 1; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (t.startsWith(marker[0]!.repeat(marker.length)) && /^(`{3,}|~{3,})$/.test(t)) {
      close = i;
      break;
    }
  }
  return { code: lines.slice(first + 1, close).join('\n'), linesBefore: first + 1, language };
}

/** Leading comments and whitespace, which say nothing about the code's form. */
const LEADING_NOISE_RE = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/;
const FUNCTION_LIKE_RE = /^(?:async\b|function\b|\(|[A-Za-z_$][\w$]*\s*=>)/;

/**
 * `inputJson` (a skill's call, docs/code-mode.md): JSON text bound to `input` around the code, and passed
 * to the function the code evaluates to, on the wrapper's own lines so line numbers stay.
 */
export function normalizeCode(raw: string, opts: { inputJson?: string } = {}): NormalizedCode {
  if (raw.trim() === '') return { ok: false, message: EMPTY_CODE_MESSAGE };
  const fenced = stripFence(raw);
  if ('error' in fenced) return { ok: false, message: fenced.error };
  const code = fenced.code;
  if (code.trim() === '') return { ok: false, message: EMPTY_CODE_MESSAGE };

  // A trailing `;` would end the expression form early (`async () => {…};` is common).
  const expression = code.replace(/[\s;]+$/, '');
  const head = code.replace(LEADING_NOISE_RE, '');
  // The newline after the user's code keeps a trailing line comment from eating the wrapper.
  const probes = { expression: `(async () => [\n${expression}\n])`, body: `async function probe() {\n${code}\n}` };
  const forms: [CodeForm, CodeForm] =
    opts.inputJson === undefined
      ? [
          {
            source: `(async () => (\n${expression}\n))().then((f) => (typeof f === 'function' ? f() : f))`,
            lineOffset: 1 - fenced.linesBefore,
            probe: probes.expression,
          },
          { source: `(async () => {\n${code}\n})()`, lineOffset: 1 - fenced.linesBefore, probe: probes.body },
        ]
      : [
          {
            source: `((input) => (async () => (\n${expression}\n))().then((f) => (typeof f === 'function' ? f(input) : f)))(${opts.inputJson})`,
            lineOffset: 1 - fenced.linesBefore,
            probe: probes.expression,
          },
          { source: `((input) => (async () => {\n${code}\n})())(${opts.inputJson})`, lineOffset: 1 - fenced.linesBefore, probe: probes.body },
        ];
  return { ok: true, forms, likelyForm: FUNCTION_LIKE_RE.test(head) ? 0 : 1, fenceLanguage: fenced.language };
}
