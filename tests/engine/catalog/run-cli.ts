// Runs the real CLI as its own process (stdin piped, stdout and stderr kept apart), for the tests
// that need what a user sees in order, an environment of their own, or a process to kill.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, ROOT } from '../../helpers/home.ts';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function startCli(home: string, args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): { child: ChildProcess; done: Promise<CliRun> } {
  const t0 = Date.now();
  const child = spawn(process.execPath, [BIN, ...args, '--home', home], { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(opts.input ?? '');
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 })));
  return { child, done };
}

export function runCli(home: string, args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  return startCli(home, args, opts).done;
}
