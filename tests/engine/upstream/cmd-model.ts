// A model of how cmd.exe reads `cmd.exe /d /s /c "<line>"` and an npm-style shim (`node cli.js %*`)
// hands its arguments on (percent expansion, then carets and quotes, where an unescaped
// & | < > outside quotes starts another command; read twice; then split by the program's own
// argv rules, MSVCRT). It follows the documented parsing phases
// (https://ss64.com/nt/syntax-esc.html, https://qntm.org/cmd); it is not cmd.exe itself.
import { expect } from 'vitest';

const ENV: Record<string, string> = { PATH: 'C:\\Windows\\system32', USERNAME: 'victim', CD: 'C:\\' };

/** Phase 1 (command line, not a batch file): %NAME% of a defined variable is replaced; anything else is left. */
function percentPhase(line: string): string {
  let out = '';
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '%') {
      const end = line.indexOf('%', i + 1);
      if (end > i + 1) {
        const name = line.slice(i + 1, end).toUpperCase();
        if (name in ENV) {
          out += ENV[name];
          i = end;
          continue;
        }
      }
    }
    out += line[i];
  }
  return out;
}

interface Parsed {
  text: string;
  /** Set when an unescaped & | < > outside quotes would start another command or redirect. */
  injection?: string;
  /** Length of the first token (the program), where unescaped spaces outside quotes end it. */
  firstToken: number;
}

/** Phase 2: `^` escapes the next character outside quotes; `"` toggles quoting unless escaped. */
function caretPhase(line: string): Parsed {
  let text = '';
  let quoted = false;
  let firstToken = -1;
  let injection: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (!quoted && c === '^') {
      i++;
      if (i < line.length) text += line[i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && '&|<>'.includes(c)) injection ??= line.slice(i);
    else if (!quoted && c === ' ' && firstToken < 0) firstToken = text.length;
    text += c;
  }
  return { text, injection, firstToken: firstToken < 0 ? text.length : firstToken };
}

/** How a Windows program splits its command line into argv (MSVCRT rules, 2008 and later). */
function msvcrtArgv(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      let n = 0;
      while (line[i] === '\\') {
        n++;
        i++;
      }
      if (line[i] === '"') {
        cur += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) cur += '"';
        else {
          quoted = !quoted;
        }
      } else {
        cur += '\\'.repeat(n);
        i--;
      }
      inArg = true;
      continue;
    }
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
      inArg = true;
      continue;
    }
    if (!quoted && (c === ' ' || c === '\t')) {
      if (inArg) out.push(cur);
      cur = '';
      inArg = false;
      continue;
    }
    cur += c;
    inArg = true;
  }
  if (inArg) out.push(cur);
  return out;
}

/** What `cmd.exe /d /s /c "<line>"` running an npm-style shim (`node cli.js %*`) hands to node. */
export function throughCmdAndShim(spawnArgs: string[]): { program: string; argv: string[]; injections: string[] } {
  expect(spawnArgs.slice(0, 3)).toEqual(['/d', '/s', '/c']);
  const quoted = spawnArgs[3]!;
  expect(quoted.startsWith('"') && quoted.endsWith('"')).toBe(true);
  const line = quoted.slice(1, -1); // /s: the outer quotes go, the rest is read as it is
  const outer = caretPhase(percentPhase(line));
  const program = outer.text.slice(0, outer.firstToken);
  const tail = outer.text.slice(outer.firstToken + 1);
  // In the batch file, %* is replaced by the tail (not expanded again), then read once more.
  const inner = caretPhase(tail);
  return { program, argv: msvcrtArgv(inner.text), injections: [outer.injection, inner.injection].filter((x): x is string => x !== undefined) };
}

export const ATTACKS = [
  '"&calc.exe',
  '&calc.exe',
  '" & calc.exe & "',
  '\\"&calc.exe',
  '\\\\"&calc.exe',
  'x"|calc.exe',
  '^',
  '^^"&calc',
  '|',
  '<in >out',
  '%PATH%',
  '%USERNAME%&calc',
  '%CD:~0,1%',
  '%',
  '%%',
  '!PATH!',
  '(x)',
  'a b',
  '',
  '"',
  '""',
  'trailing\\',
  'trail "\\',
  '\\\\server\\share\\',
  "it's",
  'semi;colon,comma=eq',
  '€ 😀 ü',
  '--flag=value with "quotes" and \\back\\slashes\\',
];
