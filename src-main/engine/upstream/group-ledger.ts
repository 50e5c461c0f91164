// The process groups of the servers an engine started, written down in the home (run/groups/,
// one file per group) so that the next engine can stop what an engine killed outright left
// running. An engine that stops, or exits on an error, kills its servers' groups itself
// (stdio-transport.ts); one killed with SIGKILL (the OOM killer, "End process", a crash of Node
// itself) cannot, and a server that ignores the end of its stdin then runs on for good.
//
// A group is stopped only when its engine is gone (an engine is its pid and its start time, so a
// reused pid is not it) and the group is the one written down: its leader still has the start
// time recorded, or the leader is gone and members remain (a process group's id is not reused
// while any member lives). Files are read with the home-file rules (a regular file of this user,
// bounded). Not on Windows: servers there are no process groups (taskkill /T walks the tree).
import { mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { readHomeFileSync } from '../../shim/home-file.mjs';
import { writeFileAtomic } from '../config/atomic-file.ts';
import { groupRunning, processStartTime, terminateGroup } from '../platform/process-tree.ts';

/** What one file of the ledger holds. */
interface GroupRecord {
  engine: { pid: number; start: string };
  pgid: number;
  start: string;
  /** The server's name, for the log line of the engine that stops it. */
  name: string;
}

const FILE_RE = /^[1-9]\d{0,9}\.json$/;
const MAX_RECORD_BYTES = 4096;

export class GroupLedger {
  readonly dir: string;
  readonly #self: Promise<string | undefined>;
  /** Each group's pending write: removing it waits for the write, so no entry outlives its group. */
  readonly #writes = new Map<number, Promise<void>>();

  constructor(dir: string) {
    this.dir = dir;
    this.#self = processStartTime(process.pid);
  }

  /** Writes down a group this engine started (best effort: a home that cannot be written only loses the sweep). */
  add(pgid: number, name: string): void {
    if (process.platform === 'win32') return;
    const write = (async () => {
      const [self, start] = await Promise.all([this.#self, processStartTime(pgid)]);
      if (self === undefined || start === undefined) return;
      const rec: GroupRecord = { engine: { pid: process.pid, start: self }, pgid, start, name: name.slice(0, 256) };
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.#file(pgid), JSON.stringify(rec));
    })().catch(() => undefined);
    this.#writes.set(pgid, write);
  }

  /** Strikes out a group that is gone (or being stopped by this engine). */
  remove(pgid: number): void {
    const write = this.#writes.get(pgid);
    this.#writes.delete(pgid);
    const unlink = () => {
      try {
        unlinkSync(this.#file(pgid));
      } catch {
        // never written, or already struck out
      }
    };
    if (write) void write.then(unlink);
    else unlink();
  }

  /**
   * Stops the groups that engines no longer running left behind, and strikes them out; leaves
   * those of a running engine (one handing the home over still runs its servers). Returns the
   * names of the servers stopped.
   */
  async sweep(): Promise<string[]> {
    if (process.platform === 'win32') return [];
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => FILE_RE.test(n));
    } catch {
      return [];
    }
    const stopped: string[] = [];
    await Promise.all(
      names.map(async (name) => {
        const file = path.join(this.dir, name);
        const rec = readRecord(file);
        if (rec === undefined) {
          unlinkQuietly(file);
          return;
        }
        if (rec.engine.pid === process.pid || (await processStartTime(rec.engine.pid)) === rec.engine.start) return;
        if (rec.pgid !== process.pid && (await isTheGroup(rec))) {
          await terminateGroup(rec.pgid);
          stopped.push(rec.name);
        }
        unlinkQuietly(file);
      }),
    );
    return stopped;
  }

  #file(pgid: number): string {
    return path.join(this.dir, `${pgid}.json`);
  }
}

/** Whether the group written down still runs: its leader with the recorded start, or members without it. */
async function isTheGroup(rec: GroupRecord): Promise<boolean> {
  const leader = await processStartTime(rec.pgid);
  if (leader !== undefined) return leader === rec.start;
  return groupRunning(rec.pgid);
}

function readRecord(file: string): GroupRecord | undefined {
  try {
    const v = JSON.parse(readHomeFileSync(file, { maxBytes: MAX_RECORD_BYTES }).toString('utf8')) as Partial<GroupRecord>;
    const okPid = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 1;
    if (!v || !v.engine || !okPid(v.engine.pid) || typeof v.engine.start !== 'string' || !okPid(v.pgid) || typeof v.start !== 'string') return undefined;
    if (path.basename(file) !== `${v.pgid}.json`) return undefined;
    return { engine: { pid: v.engine.pid, start: v.engine.start }, pgid: v.pgid, start: v.start, name: typeof v.name === 'string' ? v.name : '' };
  } catch {
    return undefined;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}
