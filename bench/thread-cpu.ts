// CPU time of a process's live threads (Linux): /proc/PID/task/TID/schedstat, time on a CPU in
// ns, precise where /proc/PID/stat counts 10 ms ticks. Threads that exited drop out of the sum.
import { readdirSync, readFileSync } from 'node:fs';

/** Nanoseconds on a CPU of `pid`'s live threads, or undefined when /proc cannot say. */
export function threadsCpuNs(pid: number): number | undefined {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    return undefined;
  }
  return ns;
}
