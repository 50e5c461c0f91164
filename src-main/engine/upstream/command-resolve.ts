// Finding a server's command the way the user's terminal would. Apps started from a dock or
// tray get a minimal PATH (no Homebrew, nvm, volta, asdf), so `npx` works in a shell and not in
// the app; the login shell's PATH and the usual install folders close that gap.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathKey } from '../platform/path-search.ts';

// The search itself (PATHEXT, the executable bit, path-like commands) is the one every caller
// uses: platform/path-search.ts. This module adds the PATH a terminal would have.
export { resolveCommand, type ResolvedCommand } from '../platform/path-search.ts';

const LOGIN_SHELL_TIMEOUT_MS = 3000;
const MARK = '__SWITCHBOARD_PATH__';
let cached: Promise<string> | undefined;

/**
 * The PATH a terminal would have: the login shell's PATH, then this process's, then the usual
 * install folders that exist. Computed once per process (the login shell can take a while).
 */
export function loginShellPath(): Promise<string> {
  cached ??= computeLoginShellPath();
  return cached;
}

async function computeLoginShellPath(): Promise<string> {
  const platform = process.platform;
  const sep = platform === 'win32' ? ';' : ':';
  const own = process.env[pathKey(process.env, platform)] ?? '';
  if (platform === 'win32') return own;

  const fromShell = await readShellPath();
  const home = os.homedir();
  const wellKnown = ['/opt/homebrew/bin', '/usr/local/bin', path.join(home, '.volta', 'bin'), path.join(home, '.asdf', 'shims')];
  const nvmBin = process.env.NVM_BIN ?? path.join(process.env.NVM_DIR ?? path.join(home, '.nvm'), 'current', 'bin');
  wellKnown.push(nvmBin);

  const dirs: string[] = [];
  for (const d of [...fromShell.split(sep), ...own.split(sep)]) if (d && !dirs.includes(d)) dirs.push(d);
  for (const d of wellKnown) {
    if (dirs.includes(d)) continue;
    try {
      if ((await stat(d)).isDirectory()) dirs.push(d);
    } catch {
      // not installed here
    }
  }
  return dirs.join(sep);
}

function readShellPath(): Promise<string> {
  const shell = process.env.SHELL;
  if (!shell) return Promise.resolve('');
  return new Promise((resolve) => {
    execFile(
      shell,
      ['-ilc', `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`],
      // A minimal env keeps our own NODE_OPTIONS etc. out of the user's rc files.
      { timeout: LOGIN_SHELL_TIMEOUT_MS, env: { HOME: os.homedir(), USER: process.env.USER ?? '', SHELL: shell, TERM: 'dumb' }, encoding: 'utf8' },
      (_err, stdout) => {
        // rc files may print banners (or fail after setting PATH); the markers find the value.
        const m = typeof stdout === 'string' ? stdout.split(MARK) : [];
        resolve(m.length >= 3 ? m[1]!.trim() : '');
      },
    );
  });
}

// --- Running a .cmd/.bat server on Windows ---
//
// Node refuses to spawn .cmd/.bat files without a shell (CVE-2024-27980), so they run as
// `cmd.exe /d /s /c "<line>"`. cmd.exe does not know `\"`: it toggles its quote state at every
// `"`, so an argument like `"&calc.exe` would end the quoted text and run calc (the "BatBadBut"
// class). The rules used here (those of cross-spawn, after https://qntm.org/cmd):
//   1. quote each argument for the program's own argv parser (MSVCRT rules: backslashes before
//      a `"` are doubled and the `"` is written `\"`; trailing backslashes are doubled);
//   2. then put `^` before every cmd.exe metacharacter, quotes included, so cmd.exe treats the
//      whole line as literal text and never sees a quote it would toggle on;
//   3. do that twice for the arguments: the batch file hands them on through `%*` / `%1`, and
//      cmd.exe parses that expansion once more (npm's .cmd shims all do this);
//   4. `%` is escaped as `^%`: with the caret in the way, `%PATH%` names the variable `PATH^`,
//      which does not exist, so it is left as text and the caret then removed.
// Control characters (newlines above all: cmd.exe ends the command at one) cannot be passed
// through cmd.exe safely at all, so an argument with one is refused.

/** cmd.exe's metacharacters (with the space and the quote), each escaped with `^`. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/** Why an argument cannot go through cmd.exe, or undefined when it can. */
export function cmdArgProblem(arg: string): string | undefined {
  const bad = /[\u0000-\u001f]/.exec(arg);
  if (!bad) return undefined;
  return `it contains a control character (U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}${bad[0] === '\n' ? ', a newline' : bad[0] === '\r' ? ', a carriage return' : ''}), which cmd.exe cannot pass on safely`;
}

function cmdEscapeArg(arg: string, times: number): string {
  let s = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1');
  s = `"${s}"`;
  for (let i = 0; i < times; i++) s = s.replace(CMD_META, '^$1');
  return s;
}

/**
 * The arguments for `spawn(comspec, …, { windowsVerbatimArguments: true })` that run a .cmd or
 * .bat `command` with `args` exactly. Throws with a clear message for an argument that cannot
 * be passed safely.
 */
export function cmdShellArgs(command: string, args: readonly string[]): string[] {
  for (const [i, a] of [command, ...args].entries()) {
    const problem = cmdArgProblem(a);
    if (problem) {
      throw new Error(
        `${i === 0 ? 'The command' : `Argument ${i}`} ${JSON.stringify(a)} cannot be given to a .cmd/.bat server: ${problem}. Remove it from the server's args, or run the program the .cmd starts directly.`,
      );
    }
  }
  const line = [command.replace(CMD_META, '^$1'), ...args.map((a) => cmdEscapeArg(a, 2))].join(' ');
  return ['/d', '/s', '/c', `"${line}"`];
}
