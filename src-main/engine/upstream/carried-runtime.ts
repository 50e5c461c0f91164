// The Node (and npm) the app carries, for servers configured as `npx …` or `node …` on a computer
// where Node is not installed, or not on the PATH the app got ("spawn npx ENOENT").
//
// Policy: a person's own `node`/`npx` is used whenever it is found (their Node version, their
// npm settings: registry, proxy, certificates, cache); the carried runtime only stands in for a
// missing one. That keeps working setups exactly as they were, and makes the missing case work
// instead of failing. The carried folder is appended to the child's PATH, never prepended, so a
// server's own children (bins with a `#!/usr/bin/env node` line) also prefer the person's Node.
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { APP_ROOT } from '../platform/app-root.ts';
import { SHIM_PATH_ENV } from '../platform/shim-entry.ts';
import { readHomeText } from '../../shim/home-file.mjs';
import { writeFileAtomicSync } from '../config/atomic-file.ts';

export interface CarriedRuntime {
  /** The binary that runs JavaScript as Node: node itself, the Electron binary, or the packaged app's shim. */
  node: string;
  /** Arguments before the script: `node` for the packaged shim (`switchboard node SCRIPT …`); none otherwise. */
  nodeArgs?: string[];
  /** What that binary needs in its environment to act as node (ELECTRON_RUN_AS_NODE under Electron). */
  nodeEnv: Record<string, string>;
  /** npm's package folder (bin/npm-cli.js, bin/npx-cli.js), or null when none was found. */
  npmDir: string | null;
}

/** The commands the carried runtime can stand in for. */
export type CarriedCommand = 'node' | 'npx' | 'npm';

export interface CarriedRuntimeOptions {
  /** Defaults to process.execPath. */
  execPath?: string;
  /** Defaults to process.versions.electron !== undefined. */
  electron?: boolean;
  /** Where SWITCHBOARD_SHIM_PATH is read; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Folder npm is resolved from as a dependency; defaults to the app's root. */
  appRoot?: string;
}

/**
 * The runtime this process can lend to a server. In the packaged desktop app the Electron binary
 * cannot act as node (its runAsNode fuse is off, see electron-builder.yml; the app tells the
 * engine so by setting SWITCHBOARD_SHIM_PATH): there the shim lends the Node it carries, as
 * `switchboard node SCRIPT …` (the native shim hands that to switchboard-node beside it), and npm
 * is the app's own, unpacked beside app.asar.
 */
export function carriedRuntime(opts: CarriedRuntimeOptions = {}): CarriedRuntime | null {
  const execPath = opts.execPath ?? process.execPath;
  const electron = opts.electron ?? process.versions.electron !== undefined;
  const env = opts.env ?? process.env;
  const shim = env[SHIM_PATH_ENV];
  if (electron && shim) return { node: shim, nodeArgs: ['node'], nodeEnv: {}, npmDir: findNpm(opts.appRoot ?? APP_ROOT, null, opts.platform ?? process.platform) };
  return {
    node: execPath,
    nodeEnv: electron ? { ELECTRON_RUN_AS_NODE: '1' } : {},
    npmDir: findNpm(opts.appRoot ?? APP_ROOT, electron ? null : execPath, opts.platform ?? process.platform),
  };
}

/**
 * npm as a dependency of the app (what a packaged app must carry), else the npm that came with
 * this node (`<prefix>/lib/node_modules/npm`, or `node_modules\npm` beside node.exe on Windows).
 */
export function findNpm(appRoot: string, nodePath: string | null, platform: NodeJS.Platform = process.platform): string | null {
  try {
    // Node cannot run a script inside app.asar as a child's entry: the packaged app unpacks npm (electron-builder.yml).
    const dir = path.dirname(createRequire(path.join(appRoot, 'package.json')).resolve('npm/package.json')).replace(/app\.asar(?=[\\/]|$)/, 'app.asar.unpacked');
    if (existsSync(path.join(dir, 'bin', 'npx-cli.js'))) return dir;
  } catch {
    // not a dependency here
  }
  if (nodePath === null) return null;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const beside = platform === 'win32' ? p.join(p.dirname(nodePath), 'node_modules', 'npm') : p.join(p.dirname(p.dirname(nodePath)), 'lib', 'node_modules', 'npm');
  return existsSync(p.join(beside, 'bin', 'npx-cli.js')) ? beside : null;
}

/** True for a bare `node`, `npx` or `npm` (with .exe/.cmd on Windows), which the carried runtime can run. */
export function carriedCommand(command: string, platform: NodeJS.Platform = process.platform): CarriedCommand | undefined {
  if (/[\\/]/.test(command)) return undefined;
  const base = (platform === 'win32' ? command.toLowerCase().replace(/\.(exe|cmd|bat)$/, '') : command) as CarriedCommand;
  return base === 'node' || base === 'npx' || base === 'npm' ? base : undefined;
}

/**
 * How to start `command args` with the carried runtime, or undefined when it cannot (no runtime,
 * or npx/npm asked for and no npm found).
 */
export function carriedInvocation(rt: CarriedRuntime, command: CarriedCommand, args: readonly string[]): { command: string; args: string[] } | undefined {
  const lead = rt.nodeArgs ?? [];
  if (command === 'node') return { command: rt.node, args: [...lead, ...args] };
  if (rt.npmDir === null) return undefined;
  return { command: rt.node, args: [...lead, path.join(rt.npmDir, 'bin', `${command}-cli.js`), ...args] };
}

/** The binary that will run `command` when it is missing, or undefined when the carried runtime cannot stand in. */
export function lenderFor(command: string, rt: CarriedRuntime | null, platform: NodeJS.Platform = process.platform): string | undefined {
  const c = carriedCommand(command, platform);
  return c && rt && carriedInvocation(rt, c, []) ? rt.node : undefined;
}

/**
 * Writes `node`, `npx` and `npm` launchers for the carried runtime into `dir` (created owner-only)
 * and returns it: a server started through the carried runtime finds `node` there for its own
 * children, even under Electron, whose binary is not named node. Files are rewritten only when
 * their text changes (another app version, a moved app).
 */
export function writeLaunchers(dir: string, rt: CarriedRuntime, platform: NodeJS.Platform = process.platform): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files = platform === 'win32' ? windowsLaunchers(rt) : posixLaunchers(rt);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    // Read and replaced as home files: a pipe or a link planted under a launcher's name neither
    // blocks the engine nor has the launcher written where it points.
    if (readHomeText(file) !== text) writeFileAtomicSync(file, text, { mode: 0o700 });
  }
  return dir;
}

/** A private folder for the launchers of a process that was given none (tests, tools). */
let fallbackDir: string | undefined;
export function defaultLaunchersDir(): string {
  fallbackDir ??= mkdtempSync(path.join(os.tmpdir(), 'switchboard-runtime-'));
  return fallbackDir;
}

function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function posixLaunchers(rt: CarriedRuntime): Record<string, string> {
  const envs = Object.entries(rt.nodeEnv).map(([k, v]) => `${k}=${shQuote(v)} `).join('');
  const node = `${envs}exec ${[rt.node, ...(rt.nodeArgs ?? [])].map(shQuote).join(' ')}`;
  const out: Record<string, string> = { node: `#!/bin/sh\n${node} "$@"\n` };
  if (rt.npmDir !== null) {
    for (const c of ['npx', 'npm']) out[c] = `#!/bin/sh\n${node} ${shQuote(path.join(rt.npmDir, 'bin', `${c}-cli.js`))} "$@"\n`;
  }
  return out;
}

function windowsLaunchers(rt: CarriedRuntime): Record<string, string> {
  // %* hands the arguments on as cmd.exe received them; paths are quoted for spaces.
  const envs = Object.entries(rt.nodeEnv).map(([k, v]) => `@set "${k}=${v}"\r\n`).join('');
  const node = [`"${rt.node}"`, ...(rt.nodeArgs ?? [])].join(' ');
  const out: Record<string, string> = { 'node.cmd': `${envs}@${node} %*\r\n` };
  if (rt.npmDir !== null) {
    for (const c of ['npx', 'npm']) out[`${c}.cmd`] = `${envs}@${node} "${path.win32.join(rt.npmDir, 'bin', `${c}-cli.js`)}" %*\r\n`;
  }
  return out;
}
