// Finding a program the way a shell would, with one set of rules for everything that looks for
// one: a server's command (upstream/), a client's program or CLI (clients/), the doctor. Which
// PATH to search is the caller's (the upstream adds the login shell's, upstream/command-resolve.ts);
// the rules are these:
//  - a command with a path separator is taken relative to `cwd`, never searched for;
//  - PATH is read under its own name, in any case on Windows (`Path`, `PATH`), empty entries skipped;
//  - on Windows a bare name gets each PATHEXT extension (default .COM;.EXE;.BAT;.CMD), never
//    itself: npm puts an extensionless sh script next to each .cmd shim, and Windows cannot run
//    it; a name that already has an extension is taken as written;
//  - a match is a regular file (not a folder of that name) and, outside Windows, executable.
import { accessSync, constants, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

export interface PathSearchOptions {
  env: NodeJS.ProcessEnv;
  /** What a path-like command is relative to; defaults to this process's working folder. */
  cwd?: string;
  platform?: NodeJS.Platform;
}

export interface ResolvedCommand {
  /** Absolute path of the executable, or null when it was not found. */
  path: string | null;
  /** Folders (or, for a path-like command, the files) that were looked at, in order. */
  searched: string[];
  /** The PATH value that was searched. */
  pathEnv: string;
  /** What the user can do about a command that was not found. */
  hint?: string;
}

/** The name PATH goes by in `env`: any case on Windows. */
export function pathKey(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return 'PATH';
  return Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'Path';
}

interface SearchPlan {
  pathEnv: string;
  /** For a path-like command, the files to try; else undefined. */
  files?: string[];
  /** For a bare name, each PATH folder with the files to try in it. */
  dirs: { dir: string; files: string[] }[];
  notFound: string;
}

/** Where `command` may be, in the order a shell looks (see the rules above). */
export function searchPlan(command: string, opts: PathSearchOptions): SearchPlan {
  const platform = opts.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const pathEnv = opts.env[pathKey(opts.env, platform)] ?? '';
  const exts = platform === 'win32' ? windowsExtensions(command, opts.env) : [''];
  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    const base = p.resolve(opts.cwd ?? process.cwd(), command);
    return { pathEnv, files: exts.map((e) => base + e), dirs: [], notFound: `Check that ${base} exists and is executable.` };
  }
  const dirs = pathEnv
    .split(platform === 'win32' ? ';' : ':')
    .filter((d) => d !== '')
    .map((dir) => ({ dir, files: exts.map((e) => p.join(dir, command + e)) }));
  return { pathEnv, dirs, notFound: notFoundHint(command) };
}

function windowsExtensions(command: string, env: NodeJS.ProcessEnv): string[] {
  if (path.win32.extname(command) !== '') return [''];
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATHEXT');
  const pathext = (key && env[key]) || '.COM;.EXE;.BAT;.CMD';
  return pathext.split(';').filter(Boolean).map((e) => e.toLowerCase());
}

/** Finds `command` (see the rules above). */
export async function resolveCommand(command: string, opts: PathSearchOptions): Promise<ResolvedCommand> {
  const platform = opts.platform ?? process.platform;
  const plan = searchPlan(command, opts);
  const { pathEnv } = plan;
  if (plan.files) {
    for (const c of plan.files) if (await isExecutable(c, platform)) return { path: c, searched: plan.files, pathEnv };
    return { path: null, searched: plan.files, pathEnv, hint: plan.notFound };
  }
  const searched: string[] = [];
  for (const { dir, files } of plan.dirs) {
    searched.push(dir);
    for (const c of files) if (await isExecutable(c, platform)) return { path: c, searched, pathEnv };
  }
  return { path: null, searched, pathEnv, hint: plan.notFound };
}

/**
 * resolveCommand for callers that cannot wait (a client's "is it installed" check); the same
 * rules, blocking on a stat per candidate. The path of what was found, or null.
 */
export function findCommandSync(command: string, opts: PathSearchOptions): string | null {
  const platform = opts.platform ?? process.platform;
  const plan = searchPlan(command, opts);
  for (const c of plan.files ?? plan.dirs.flatMap((d) => d.files)) if (isExecutableSync(c, platform)) return c;
  return null;
}

async function isExecutable(file: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    if (platform !== 'win32') await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isExecutableSync(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function notFoundHint(command: string): string {
  const base = command.toLowerCase();
  if (base === 'npx' || base === 'node' || base === 'npm') {
    return 'Install Node.js (it provides node and npx), or put the absolute path of the command in "command".';
  }
  if (base === 'uvx' || base === 'uv') return 'Install uv (it provides uvx), or put the absolute path of the command in "command".';
  if (base === 'docker') return 'Install Docker Desktop and start it once, or put the absolute path of docker in "command".';
  return 'Install it, or put its absolute path in "command".';
}
