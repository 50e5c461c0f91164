// Test homes with real engines: a temp folder with a config.json, clients over the real shim,
// and a clean stop of every engine a test started.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildNativeShim, haveCargo } from '../../scripts/build-native-shim.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = path.join(ROOT, 'bin/switchboard.mjs');
export const FIXTURES = path.join(ROOT, 'tests/fixtures/servers');

export function fixtureServer(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [path.join(FIXTURES, name)], ...extra };
}

export function referenceServer(pkg: 'everything' | 'memory' | 'filesystem', args: string[] = []): Record<string, unknown> {
  const main = path.join(ROOT, 'node_modules/@modelcontextprotocol', `server-${pkg}`, 'dist/index.js');
  return { command: process.execPath, args: [main, ...args] };
}

const homes: string[] = [];

export function makeHome(config?: unknown): string {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-test-'));
  homes.push(home);
  if (config !== undefined) writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2) + '\n');
  return home;
}

export function enginePid(home: string): number | undefined {
  try {
    return JSON.parse(readFileSync(path.join(home, 'run', 'engine.json'), 'utf8')).pid;
  } catch {
    return undefined;
  }
}

/** The pid in the engine lock: an engine still starting has it before engine.json. */
function lockPid(home: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(home, 'run', 'engine.lock'), 'utf8').trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export async function stopEngine(home: string): Promise<void> {
  const pid = enginePid(home) ?? lockPid(home);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone.
  }
}

export async function cleanupHomes(): Promise<void> {
  for (const h of homes.splice(0)) {
    await stopEngine(h);
    rmSync(h, { recursive: true, force: true });
  }
}

/** The two shims, which must behave the same: the Node one (bin/switchboard.mjs shim) and the
 * native one (native/shim). */
export type ShimKind = 'node' | 'native';
export const SHIM_KINDS: ShimKind[] = ['node', 'native'];
/** Why the native shim cannot be tested here, or undefined when it can. */
export const NATIVE_SHIM_UNAVAILABLE = haveCargo() ? undefined : 'cargo is not installed, so the native shim cannot be built';
if (NATIVE_SHIM_UNAVAILABLE) console.log(`native shim tests skipped: ${NATIVE_SHIM_UNAVAILABLE}`);

let nativeBinary: string | undefined;

/**
 * The native shim, built on first use (cargo, offline; a second or so when nothing changed)
 * into a test folder of cargo's target, with the engine-command.json of a checkout build: so a
 * fresh machine tests it, and out/native-shim (which client configs use) is left alone.
 */
export function nativeShim(): string {
  nativeBinary ??= buildNativeShim({ outDir: path.join(ROOT, 'native', 'shim', 'target', 'test-shim'), log: () => undefined }).binary;
  return nativeBinary;
}

/** The command and arguments that run `kind` of shim for a profile. */
export function shimCommand(kind: ShimKind, home: string, profile: string): { command: string; args: string[] } {
  const args = ['shim', '--profile', profile, '--home', home];
  return kind === 'native' ? { command: nativeShim(), args } : { command: process.execPath, args: [BIN, ...args] };
}

/**
 * A stand-in for the desktop app at <app>/switchboard-desktop (where a packaged shim at
 * <app>/resources/bin/ looks for it): records its arguments in the returned file, runs the engine.
 */
export function writeStandInApp(app: string, home: string): string {
  const argsFile = path.join(home, 'app-args.json');
  const fakeApp = path.join(app, 'switchboard-desktop');
  writeFileSync(
    fakeApp,
    `#!${process.execPath}\n` +
      `const { writeFileSync } = require('node:fs');\n` +
      `const { spawn } = require('node:child_process');\n` +
      `const argv = process.argv.slice(2);\n` +
      `writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify(argv));\n` +
      `const home = argv[argv.indexOf('--home') + 1];\n` +
      `spawn(${JSON.stringify(process.execPath)}, [${JSON.stringify(BIN)}, 'engine', '--home', home], { stdio: 'inherit' }).on('exit', (c) => process.exit(c ?? 0));\n`,
  );
  chmodSync(fakeApp, 0o755);
  return argsFile;
}

export interface ShimClientOptions {
  /** Which shim; the Node one unless given. */
  shim?: ShimKind;
  name?: string;
  /** More shim arguments, e.g. `['--client', 'cursor']` as a connector's entry has. */
  shimArgs?: string[];
  capabilities?: ConstructorParameters<typeof Client>[1] extends infer O ? (O extends { capabilities?: infer C } ? C : never) : never;
}

/** A real MCP client talking to the real shim for `profile` in `home`. */
export async function shimClient(home: string, profile: string, opts: ShimClientOptions = {}): Promise<Client> {
  const client = new Client({ name: opts.name ?? 'test-client', version: '1.0.0' }, { capabilities: opts.capabilities ?? {} });
  const cmd = shimCommand(opts.shim ?? 'node', home, profile);
  const transport = new StdioClientTransport({ command: cmd.command, args: [...cmd.args, ...(opts.shimArgs ?? [])], stderr: 'pipe' });
  await client.connect(transport);
  return client;
}

/** Runs the CLI and returns its output and exit code. */
export function cli(home: string, args: string[], input?: string, env?: NodeJS.ProcessEnv): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [BIN, ...args, '--home', home], {
      encoding: 'utf8',
      input,
      ...(env ? { env } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr: '' };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

export async function waitFor<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export { existsSync };

/** The newest audit entry of `client` calling `tool` (waits until it is written). */
export function auditEntryOf(home: string, client: string, tool: string): Promise<{ client: string; tool: string; outcome: string }> {
  return waitFor(() => {
    const entries = JSON.parse(cli(home, ['audit', '--json', '--limit', '20']).stdout) as { client: string; tool: string; outcome: string }[];
    return entries.find((e) => e.client === client && e.tool === tool);
  }, 10_000, `the audit entry of ${client} calling ${tool}`);
}
