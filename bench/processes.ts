// The bench's look at processes it started (Linux /proc): a server an engine started, a file a
// process writes once it is up.
import { readdirSync, readFileSync } from 'node:fs';

/** The child of `ppid` whose command line contains `needle` (the engine's upstream server). */
export function childPid(ppid: number, needle: string): number | undefined {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== ppid) continue;
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(needle)) return Number(d);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/** Waits (up to 30 s) for `file` to exist. */
export async function waitFile(file: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      readFileSync(file);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${file} did not appear`);
}
