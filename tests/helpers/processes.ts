// Finding every process a test's programs started, however deep and whoever its parent is now:
// each is given an environment variable holding a mark, which its own children inherit.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** Linux only: the mark is read from /proc. */
export const CAN_FIND_MARKED = process.platform === 'linux';

/** The variable that carries the mark. */
export const MARK_VAR = 'SB_TEST_PROCESS_MARK';

export function newMark(): string {
  return `mark-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/**
 * The running processes whose environment holds `mark`. A zombie counts as gone: its parent may
 * be PID 1, which may never reap it here.
 */
export function markedProcesses(mark: string): number[] {
  const needle = `${MARK_VAR}=${mark}\0`;
  const found: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (!readFileSync(`/proc/${e}/environ`, 'latin1').includes(needle)) continue;
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') found.push(Number(e));
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return found;
}

/** Waits until no process holds `mark`; the ones still running after `timeoutMs`. */
export async function markedGone(mark: string, timeoutMs: number): Promise<number[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = markedProcesses(mark);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills what a failed test left, so that one failure does not leave processes for the next. */
export function killMarked(mark: string): void {
  for (const pid of markedProcesses(mark)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
}
