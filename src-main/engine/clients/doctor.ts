// `switchboard doctor`: how each stdio server's command resolves when the engine starts it, which
// Node it gets, and which clients are installed and connected. Read-only.
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ServerConfig } from '../../../src-shared/config/schema.ts';
import { validateConfigText } from '../../../src-shared/config/validate.ts';
import { readHomeFile } from '../../shim/home-file.mjs';
import { OWN_FILE_READ } from '../config/atomic-file.ts';
import { configUnreadable } from '../config/store.ts';
import { homePaths } from '../platform/home.ts';
import { buildChildEnv, pathKey } from '../upstream/child-env.ts';
import { carriedRuntime, lenderFor, type CarriedRuntime } from '../upstream/carried-runtime.ts';
import { loginShellPath, resolveCommand } from '../upstream/command-resolve.ts';
import { userHome, type ClientEnv } from './client-specs.ts';
import { listConnectors } from './connector.ts';
import { proposedBy } from '../trust/proposals.ts';

const run = promisify(execFile);

/** Commands that run on Node, for which the Node version matters. */
const NODE_COMMANDS = new Set(['node', 'npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'tsx']);

export interface ServerCheck {
  name: string;
  command: string;
  disabled: boolean;
  ok: boolean;
  /** Absolute path the engine will run, when found. */
  resolved: string | null;
  /** For node-based commands: the node binary and its `--version`, or why it could not be run. */
  node?: { path: string | null; version: string | null; problem?: string };
  /** Plain-words explanation and suggestion when something is off. */
  advice: string[];
}

export interface ClientCheck {
  id: string;
  displayName: string;
  installed: boolean;
  path: string;
  profiles: string[];
  problem?: string;
  /** 'copy-paste': no file (path is ''); `connect` prints steps for the client's own settings. */
  kind?: 'copy-paste';
  /** Older files the client still loads (Amazon Q's mcp.json), and Switchboard entries left in them. */
  legacy?: { file: string; entries: string[] }[];
}

export interface DoctorReport {
  configFile: string;
  configProblems: string[];
  servers: ServerCheck[];
  clients: ClientCheck[];
}

export interface DoctorOptions extends ClientEnv {
  home: string;
  /** The PATH the engine adds (the login shell's); defaults to loginShellPath(). */
  loginPath?: string;
  /** The Node the engine lends to `npx`/`node` servers when they are missing (carried-runtime.ts); defaults to carriedRuntime(), null for none. */
  runtime?: CarriedRuntime | null;
}

function stringEnv(env: ServerConfig['env']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

function bareName(command: string, platform: NodeJS.Platform): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.basename(command).replace(/\.(cmd|exe|bat|ps1)$/i, '').toLowerCase();
}

/** Install folders a GUI app's PATH usually lacks; nvm keeps one bin folder per Node version. */
async function extraNodeFolders(o: DoctorOptions): Promise<string[]> {
  const home = userHome(o);
  const dirs = ['/opt/homebrew/bin', '/usr/local/bin', path.join(home, '.volta', 'bin'), path.join(home, '.asdf', 'shims'), path.join(home, '.local', 'bin')];
  const nvm = path.join(o.env.NVM_DIR ?? path.join(home, '.nvm'), 'versions', 'node');
  try {
    for (const v of (await readdir(nvm)).sort().reverse()) dirs.push(path.join(nvm, v, 'bin'));
  } catch {
    // no nvm
  }
  return dirs;
}

async function findElsewhere(command: string, o: DoctorOptions): Promise<string | null> {
  if (/[\\/]/.test(command)) return null;
  for (const dir of await extraNodeFolders(o)) {
    const found = await resolveCommand(command, { env: { PATH: dir }, platform: o.platform });
    if (found.path) return found.path;
  }
  return null;
}

async function nodeVersion(nodePath: string): Promise<{ version: string | null; problem?: string }> {
  try {
    const { stdout } = await run(nodePath, ['--version'], { timeout: 10_000, windowsHide: true });
    return { version: stdout.trim() };
  } catch (err) {
    return { version: null, problem: `running "${nodePath} --version" failed: ${(err as Error).message.split('\n')[0]}` };
  }
}

/**
 * `beforeApproval`: the approval screen of an install (a registry entry, a bundle, a link), shown
 * before the user's yes. A command given as a path came from the entry, not from the user's PATH,
 * so nothing of it runs, not even `--version`; a bare name found on the user's PATH may.
 */
export async function checkServer(name: string, cfg: ServerConfig, o: DoctorOptions, loginPath: string, beforeApproval = false): Promise<ServerCheck> {
  const command = cfg.command!;
  const configured = stringEnv(cfg.env);
  const base = buildChildEnv({ configured, parentEnv: o.env, path: configured.PATH === undefined ? loginPath : undefined, platform: o.platform });
  const found = await resolveCommand(command, { env: base, cwd: cfg.cwd, platform: o.platform });
  const check: ServerCheck = { name, command, disabled: cfg.disabled === true, ok: found.path !== null, resolved: found.path, advice: [] };

  if (cfg.cwd) {
    const isDir = await stat(cfg.cwd).then((s) => s.isDirectory(), () => false);
    if (!isDir) {
      check.ok = false;
      check.advice.push(`The folder in "cwd" (${cfg.cwd}) does not exist; create it or fix "cwd".`);
    }
  }

  // Missing npx/node/npm: the engine runs them with the Node.js it carries, so the server starts.
  const lender = found.path ? undefined : lenderFor(command, o.runtime === undefined ? carriedRuntime() : o.runtime, o.platform);
  if (lender) {
    check.ok = true;
    check.resolved = lender;
    check.advice.push(`${command} is not installed on this computer; Switchboard runs it with the Node.js it comes with.`);
  } else if (!found.path) {
    // The approval screen is shown to people who are not developers (and in screenshots): the
    // folder count and where to see them; `doctor` lists the folders themselves.
    const folders = beforeApproval ? `${found.searched.length} folders; \`switchboard doctor\` lists them` : `${found.searched.length} folders: ${found.searched.join(path.delimiter) || 'none'}`;
    const where = /[\\/]/.test(command) ? `at ${found.searched.join(' or ')}` : `on the PATH the engine uses (${folders})`;
    check.advice.push(`"${command}" was not found ${where}.`);
    const elsewhere = await findElsewhere(command, o);
    if (elsewhere) check.advice.push(`Found ${elsewhere}: set "command" to that path to use it.`);
    else if (found.hint) check.advice.push(found.hint);
  } else if (!/[\\/]/.test(command)) {
    const appPath = o.env[pathKey(o.env, o.platform)] ?? '';
    const plain = await resolveCommand(command, { env: { PATH: appPath }, platform: o.platform });
    if (!plain.path) {
      check.advice.push(
        `"${command}" is only on your login shell's PATH, not on the one apps get; Switchboard adds that PATH, but a client that starts "${command}" itself may not find it. ${found.path} works everywhere.`,
      );
    }
  }

  // A server proposed from outside runs nothing before the user approves it, not even `--version`.
  const proposal = proposedBy(cfg);
  if (proposal !== undefined) {
    check.advice.push(`Proposed by ${proposal} and not approved yet, so not run: review it, then \`switchboard approve ${name}\`.`);
    return check;
  }
  if (beforeApproval && /[\\/]/.test(command)) {
    if (NODE_COMMANDS.has(bareName(command, o.platform))) check.advice.push(`${command} is not run before you approve it, so its Node version is not known yet.`);
    return check;
  }
  if (NODE_COMMANDS.has(bareName(command, o.platform)) && found.path) {
    const nodePath = bareName(command, o.platform) === 'node' ? found.path : (await resolveCommand('node', { env: base, platform: o.platform })).path;
    if (!nodePath) {
      check.ok = false;
      check.node = { path: null, version: null, problem: 'no "node" on the same PATH' };
      check.advice.push(`"${command}" needs node, but node was not found on the PATH the engine uses. Install Node.js or add its folder to PATH in this server's "env".`);
    } else {
      const v = await nodeVersion(nodePath);
      check.node = { path: nodePath, ...v };
      if (!v.version) {
        check.ok = false;
        check.advice.push(`${v.problem}.`);
      } else if (Number(/^v(\d+)/.exec(v.version)?.[1] ?? 0) < 18) {
        check.advice.push(`Node ${v.version} is old; most MCP servers need Node 18 or newer.`);
      }
    }
  }
  return check;
}

export async function runDoctor(o: DoctorOptions): Promise<DoctorReport> {
  const configFile = homePaths(o.home, o.platform).config;
  const report: DoctorReport = { configFile, configProblems: [], servers: [], clients: [] };
  let text: string | null = null;
  try {
    text = (await readHomeFile(configFile, OWN_FILE_READ)).toString('utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    report.configProblems.push(code === 'ENOENT' ? 'There is no config.json yet; start Switchboard once to create it.' : configUnreadable(code ?? (err as Error).message));
  }
  if (text !== null) {
    const v = validateConfigText(text);
    if (!v.ok) {
      report.configProblems = v.problems.map((p) => `${p.path || '(file)'}${p.line ? ` (line ${p.line}, column ${p.column})` : ''}: ${p.message}`);
    } else {
      const loginPath = o.loginPath ?? (await loginShellPath());
      for (const [name, cfg] of Object.entries(v.config.servers)) {
        if (cfg.command !== undefined) report.servers.push(await checkServer(name, cfg, o, loginPath));
      }
    }
  }
  for (const c of listConnectors(o)) {
    const entry: ClientCheck = { id: c.id, displayName: c.displayName, installed: c.installed(), path: c.configPath(), profiles: [], ...(c.kind === 'copy-paste' ? { kind: 'copy-paste' as const } : {}) };
    try {
      entry.profiles = await c.connectedProfiles();
      const legacy = await c.legacyEntries();
      if (legacy.length) entry.legacy = legacy;
    } catch (err) {
      entry.problem = (err as Error).message;
    }
    report.clients.push(entry);
  }
  return report;
}
