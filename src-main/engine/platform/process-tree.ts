// Stopping a program together with everything it started. A child spawned `detached` (not on
// Windows) leads a process group of its own, which its children join unless they leave it, so
// the group is signalled as one; on Windows, taskkill /T walks the tree.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Signals the process group `pgid`; false when no process of it is left. */
export function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

export function groupAlive(pgid: number): boolean {
  return killGroup(pgid, 0);
}

/**
 * Whether a process of the group still runs (not a zombie). A member whose parent died is
 * reparented to PID 1, which may never reap it here, so on Linux zombies count as gone; elsewhere
 * this is groupAlive.
 */
export function groupRunning(pgid: number): boolean {
  if (process.platform !== 'linux') return groupAlive(pgid);
  if (!groupAlive(pgid)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const fields = procStat(e);
    if (!fields) continue; // gone meanwhile
    const [state, , pgrp] = fields;
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/**
 * The fields of /proc/<pid>/stat after the command's name (state, ppid, pgrp, …; Linux only), or
 * undefined when the process is gone. The name may hold spaces and parentheses: the fields start
 * after the last ')'.
 */
function procStat(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When the process `pid` started, as the system tells it (Linux: clock ticks since boot, the
 * 22nd field of /proc/<pid>/stat; macOS and the BSDs: `ps -o lstart`), or undefined when it does
 * not run or cannot be told. With its pid it names one process: a reused pid has another start.
 */
export async function processStartTime(pid: number): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
  if (process.platform === 'linux') {
    const start = procStat(pid)?.[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  }
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'lstart=', '-p', String(pid)], { timeout: 5_000 }, (err, stdout) => {
      const text = typeof stdout === 'string' ? stdout.trim() : '';
      resolve(err || !text ? undefined : text);
    });
  });
}

/** SIGKILL is delivered, not done: "killed" means the group is gone, so this waits (up to 2 s) for it. */
export async function killGroupAndWait(pgid: number): Promise<void> {
  killGroup(pgid, 'SIGKILL');
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline && groupRunning(pgid)) await new Promise((r) => setTimeout(r, 10));
}

/** SIGTERM to the group, `graceMs` for all of it to go, then SIGKILL (awaited). */
export async function terminateGroup(pgid: number, graceMs = 2_000): Promise<void> {
  killGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupRunning(pgid)) await new Promise((r) => setTimeout(r, 50));
  if (groupRunning(pgid)) await killGroupAndWait(pgid);
}

/** Kills the Windows process `pid` and every process it started. */
export function taskkillTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => resolve());
  });
}

/**
 * Kills at once the tree of a child spawned `detached` (its own group; any child on Windows) and
 * waits for it to be gone.
 */
export function killTree(pid: number): Promise<void> {
  return process.platform === 'win32' ? taskkillTree(pid) : killGroupAndWait(pid);
}
