// A take-over as the app runs it after an update (`engine --take-over`), for the take-over tests
// (tests/engine/handover/) and the hardening row.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, cli, fixtureServer, makeHome } from './home.ts';
import type { Served } from './serve.ts';
import { MARK_VAR, newMark } from './processes.ts';

export const text = (r: unknown) => ((r as { content: { text: string }[] }).content.map((c) => c.text).join('\n'));
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** `mark` goes to the servers' env (they get only their configured env), so they can be found. */
export function homeWithServers(mark = newMark()): string {
  const env = { env: { [MARK_VAR]: mark } };
  return makeHome({
    servers: { basic: fixtureServer('basic.mjs', env), slow: fixtureServer('slow.mjs', env) },
    profiles: { demo: { servers: ['basic', 'slow'] }, code: { servers: ['slow'], surface: 'code' } },
  });
}

/** `engine --take-over` on `home`, as the app runs it after an update. */
export function takeOver(home: string, env: Record<string, string> = {}): { child: ChildProcess; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, 'engine', '--take-over', '--home', home], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  return { child, exit: new Promise((r) => child.on('exit', (code) => r(code))), stderr: () => err };
}

/** Resolves when the old engine said it hands over (its stderr), with the time it did. */
export function handingOver(old: Served): Promise<number> {
  return new Promise((resolve) => {
    let seen = '';
    old.child.stderr!.on('data', (c) => {
      seen += c;
      if (seen.includes('handing this home over')) resolve(Date.now());
    });
  });
}

export function status(home: string): { pid: number | null; version: string; profiles: Record<string, unknown> } {
  return JSON.parse(cli(home, ['status', '--json']).stdout);
}

