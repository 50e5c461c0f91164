// An engine killed outright (SIGKILL: the OOM killer, "End process") cannot stop its servers, and
// a server that ignores SIGTERM and the end of its stdin runs on. The next engine on the home
// stops what the dead one wrote down (run/groups/), and nothing else: not a process whose pid a
// record names with another start time, not the groups of an engine that still runs. Real
// engines, a real hostile server with two children, real decoy processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { processStartTime } from '../../src-main/engine/platform/process-tree.ts';
import { cleanupHomes, fixtureServer, makeHome, waitFor } from '../helpers/home.ts';
import { CAN_FIND_MARKED, killMarked, MARK_VAR, markedGone, markedProcesses, newMark } from '../helpers/processes.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

/** A program of someone else's, in a process group of its own, carrying `mark`. */
function decoy(mark: string): ChildProcess {
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: { ...process.env, [MARK_VAR]: mark } });
  child.unref();
  return child;
}

describe.skipIf(!CAN_FIND_MARKED)('servers an engine killed outright left running', () => {
  hardeningCase('fault', 'the next engine stops the servers (and their children) an engine killed with SIGKILL left, and no other program', async (tally) => {
    const serverMark = newMark();
    const decoyMark = newMark();
    const home = makeHome({
      servers: { stubborn: fixtureServer('ignore-sigterm.mjs', { env: { [MARK_VAR]: serverMark, PID_FILE: path.join(os.tmpdir(), `sb-left-${serverMark}.json`) } }) },
      profiles: { p: { servers: ['stubborn'] } },
    });
    const groups = path.join(home, 'run', 'groups');
    const decoys: ChildProcess[] = [];
    let second: Awaited<ReturnType<typeof serveEngine>> | undefined;
    try {
      const first = await serveEngine(home);
      // The server and its two children run, and the group is written down.
      await waitFor(() => (markedProcesses(serverMark).length >= 3 ? true : undefined), 30_000, 'the server and its two children');
      await waitFor(() => (existsSync(groups) && readdirSync(groups).length === 1 ? true : undefined), 10_000, 'the group written down');
      const exited = new Promise((r) => first.proc.once('exit', r));
      first.proc.kill('SIGKILL');
      await exited;
      await new Promise((r) => setTimeout(r, 500));
      const left = markedProcesses(serverMark);
      // The fault itself: nothing stopped them. The two children ignore everything; the server
      // itself may have died of writing to the dead engine's pipe (then its group outlives it).
      expect(left.length).toBeGreaterThanOrEqual(2);

      // Records of other programs: a pid with another start time; a group whose engine still runs (this test's process).
      const stranger = decoy(decoyMark);
      const ofLiveEngine = decoy(decoyMark);
      decoys.push(stranger, ofLiveEngine);
      const self = { pid: process.pid, start: (await processStartTime(process.pid))! };
      writeFileSync(path.join(groups, `${stranger.pid}.json`), JSON.stringify({ engine: { pid: 999_999_999, start: '1' }, pgid: stranger.pid, start: '12345', name: 'stranger' }), { mode: 0o600 });
      writeFileSync(path.join(groups, `${ofLiveEngine.pid}.json`), JSON.stringify({ engine: self, pgid: ofLiveEngine.pid, start: await processStartTime(ofLiveEngine.pid!), name: 'live' }), { mode: 0o600 });

      // Its start waits for them to go (a server must not run twice at once).
      const t0 = Date.now();
      second = await serveEngine(home);
      await tally.attempt('the dead engine\'s server and its two children (all ignoring SIGTERM) are gone within 10 s of the next engine', async () => {
        const stillThere = await waitFor(() => (left.every((pid) => !markedProcesses(serverMark).includes(pid)) ? true : undefined), 10_000, 'the left processes to go').catch(() => false);
        expect(stillThere, `still running: ${left.filter((pid) => markedProcesses(serverMark).includes(pid)).join(', ')}`).toBe(true);
        expect(Date.now() - t0).toBeLessThan(10_000);
        // Said in the engine's log once the sweep is done.
        await waitFor(() => (/stopped 1 server an engine that was killed had left running: stubborn/.test(second!.output()) ? true : undefined), 5_000, 'the log line');
        tally.notes!.push(`${left.length} processes left by the killed engine, gone, and the next engine serving, ${Date.now() - t0} ms after it was started`);
      });
      await tally.attempt('a process named by a record with another start time, and one of an engine still running, are left alone', async () => {
        await new Promise((r) => setTimeout(r, 2_500));
        expect(markedProcesses(decoyMark).sort()).toEqual([stranger.pid, ofLiveEngine.pid].sort());
      });
      await tally.attempt("the new engine's own server runs, written down under its group", async () => {
        await waitFor(() => (markedProcesses(serverMark).length >= 3 ? true : undefined), 30_000, 'the new server and its children');
        const names = readdirSync(groups);
        expect(names).not.toContain(`${left[0]}.json`);
        expect(names).not.toContain(`${stranger.pid}.json`);
        expect(names).toContain(`${ofLiveEngine.pid}.json`);
      });
      await second.stop();
      await tally.attempt('an engine that stops as it should strikes its groups out and leaves none of its processes', async () => {
        expect(await markedGone(serverMark, 5_000)).toEqual([]);
        expect(readdirSync(groups).sort()).toEqual([`${ofLiveEngine.pid}.json`]);
      });
    } finally {
      await second?.stop();
      killMarked(serverMark);
      killMarked(decoyMark);
      rmSync(path.join(os.tmpdir(), `sb-left-${serverMark}.json`), { force: true });
    }
  }, 120_000);
});
