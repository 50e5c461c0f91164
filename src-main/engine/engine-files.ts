// The files in a home's run folder that say an engine serves it: the engine lock (held for the
// engine's life), the access token of the HTTP server and UI, and engine.json (what it serves).
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { SwitchboardError } from '../../src-shared/errors.ts';
import { writeFileAtomicSync } from './config/atomic-file.ts';
import { tryLock } from './config/file-lock.ts';
import { readHomeFileSync } from '../shim/home-file.mjs';

export class EngineRunningError extends SwitchboardError {
  constructor(readonly pid: number) {
    super('io-error', `Another Switchboard engine (pid ${pid}) is already serving this home.`);
  }
}

/** Takes the home's engine lock and returns its release; a live owner means another engine serves the home. */
export function acquireEngineLock(file: string): () => void {
  const attempt = tryLock(file, { reclaimOwnPid: true });
  if (attempt.ok) return attempt.release;
  if (attempt.owner !== undefined) throw new EngineRunningError(attempt.owner);
  throw new SwitchboardError('io-error', `Could not take the engine lock ${file}; remove it if no engine runs.`);
}

/** The home's token, made on first run; it survives restarts so the UI's address keeps working. */
export function readOrCreateToken(file: string): string {
  try {
    const t = readHomeFileSync(file).toString('utf8').trim();
    if (/^[0-9a-f]{32,}$/.test(t)) return t;
  } catch {
    // First run.
  }
  // 256 random bits; at least 128 are asked for.
  const token = randomBytes(32).toString('hex');
  writeFileAtomicSync(file, token + '\n', { mode: 0o600 });
  return token;
}

/** engine.json: written once the engine serves, removed when it stops. */
export interface EngineInfo {
  pid: number;
  socket: string;
  http: { url: string } | null;
  version: string;
  startedAt: string;
}

export function writeEngineInfo(file: string, info: EngineInfo): void {
  // Atomic: `status` and the tests read it while the engine may be writing it.
  writeFileAtomicSync(file, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
}

/** engine.json as the running engine wrote it, or undefined (none, or unreadable). */
export function readEngineInfo(file: string): EngineInfo | undefined {
  try {
    const info = JSON.parse(readHomeFileSync(file).toString('utf8')) as EngineInfo;
    return info && typeof info === 'object' && typeof info.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

export function removeEngineInfo(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
