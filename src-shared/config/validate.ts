// Text → validated config, or every problem with its path (and line/column for syntax errors).
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { SwitchboardConfig, crossProblems } from './schema.ts';
import { formatConfigPath } from './paths.ts';

export interface ConfigProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export type ValidationResult =
  | { ok: true; config: SwitchboardConfig; raw: Record<string, unknown> }
  | { ok: false; problems: ConfigProblem[]; raw?: unknown };

const SYNTAX_HINTS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end of the JSON',
  InvalidCommentToken: 'comments are not allowed in config.json',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses strict JSON (no comments, no trailing commas) and reports the first syntax error's position. */
export function parseConfigText(text: string): { ok: true; value: unknown } | { ok: false; problems: ConfigProblem[] } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') {
    return { ok: false, problems: [{ path: '', message: 'the file is empty; it should hold a JSON object such as {"servers": {}, "profiles": {}}', line: 1, column: 1 }] };
  }
  const errors: ParseError[] = [];
  const value = parseJsonc(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const code = printParseErrorCode(first.error);
    const where = lineColumn(body, first.offset);
    return {
      ok: false,
      problems: [{ path: '', message: `JSON syntax error: ${SYNTAX_HINTS[code] ?? code}`, ...where }],
    };
  }
  return { ok: true, value };
}

export function validateConfigValue(value: unknown): ValidationResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problems: [{ path: '', message: 'expected a JSON object with "servers" and "profiles"' }], raw: value };
  }
  const parsed = SwitchboardConfig.safeParse(value);
  const problems: ConfigProblem[] = parsed.success ? [] : parsed.error.issues.map((i) => ({ path: formatConfigPath(i.path), message: i.message }));
  for (const c of crossProblems(value)) problems.push({ path: formatConfigPath(c.path), message: c.message });
  if (!parsed.success || problems.length > 0) return { ok: false, problems, raw: value };
  return { ok: true, config: parsed.data, raw: value as Record<string, unknown> };
}

export function validateConfigText(text: string): ValidationResult {
  const p = parseConfigText(text);
  if (!p.ok) return { ok: false, problems: p.problems };
  return validateConfigValue(p.value);
}
