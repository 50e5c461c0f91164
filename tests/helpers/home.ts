// Test homes with real engines: a temp folder with a config.json, clients over the real shim,
// and a clean stop of every engine a test started.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

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

export interface ShimClientOptions {
  name?: string;
  capabilities?: ConstructorParameters<typeof Client>[1] extends infer O ? (O extends { capabilities?: infer C } ? C : never) : never;
}

/** A real MCP client talking to the real shim for `profile` in `home`. */
export async function shimClient(home: string, profile: string, opts: ShimClientOptions = {}): Promise<Client> {
  const client = new Client({ name: opts.name ?? 'test-client', version: '1.0.0' }, { capabilities: opts.capabilities ?? {} });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'shim', '--profile', profile, '--home', home],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** Runs the CLI and returns its output and exit code. */
export function cli(home: string, args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [BIN, ...args, '--home', home], {
      encoding: 'utf8',
      input,
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
