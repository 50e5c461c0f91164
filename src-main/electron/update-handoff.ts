// The note one app version leaves the next when it restarts to install an update
// (docs/updates.md): `<home>/run/update-handoff.json`, owner-only. The new app reads it once, at
// its first engine start, and starts that engine with `--take-over` so it takes the home over
// from the engine the old app left running, instead of finding it busy.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readHomeFileSync } from '../shim/home-file.mjs';
import { writeFileAtomicSync } from '../engine/config/atomic-file.ts';

export const HANDOFF_FILE = 'update-handoff.json';
/** A note older than this (ms) is stale: the install failed or was never started. 15 minutes. */
export const HANDOFF_STALE_MS = 15 * 60 * 1000;
/** The engine's flag (docs/updates.md, `switchboard engine --take-over`). */
export const TAKE_OVER_FLAG = '--take-over';

export interface HandOffNote {
  /** The version that restarted. */
  from: string;
  /** The version it installs. */
  to: string;
  /** When (ms since the epoch). */
  at: number;
  /** The engine it left running, when known. */
  enginePid?: number;
}

export const handOffFile = (home: string): string => path.join(home, 'run', HANDOFF_FILE);

export function writeHandOffNote(home: string, note: HandOffNote): void {
  mkdirSync(path.join(home, 'run'), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(handOffFile(home), JSON.stringify(note) + '\n', { mode: 0o600 });
}

/**
 * The extra engine arguments for this start, consuming the note: `--take-over` when a fresh
 * note is there (whichever version wrote it: the engine itself refuses to take over a newer one),
 * none otherwise. Only the first start after an update takes over; restarts after a crash do not.
 */
export function takeOverArgs(home: string, now: number): string[] {
  const file = handOffFile(home);
  let note: Partial<HandOffNote> | undefined;
  try {
    // A home file: a pipe planted under its name must not freeze the app at its start.
    note = JSON.parse(readHomeFileSync(file, { maxBytes: 4096 }).toString('utf8')) as Partial<HandOffNote>;
  } catch {
    // Missing, or no note of ours (unreadable, a pipe, a link): consumed all the same.
    rmSync(file, { force: true });
    return [];
  }
  rmSync(file, { force: true });
  const fresh = typeof note?.at === 'number' && now - note.at >= 0 && now - note.at <= HANDOFF_STALE_MS;
  return fresh ? [TAKE_OVER_FLAG] : [];
}

/**
 * "Restart to update"'s hand-off (docs/updates.md): the engine is asked to outlive the app (a
 * refusal throws, and nothing is noted), then the note tells the next version to take over.
 */
export async function handOffForUpdate(supervisor: { release(): Promise<void> }, home: string, note: HandOffNote): Promise<void> {
  await supervisor.release();
  writeHandOffNote(home, note);
}
