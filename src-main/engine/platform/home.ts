// Where a home's files live (docs/command-line.md). Everything that touches the home resolves paths here.
// Where the home is and its engine's socket are the shims' rules too: src-main/shim/home-paths.mjs.
import { mkdirSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { APP_DIR_NAME, defaultHome, resolveHome, shortRunDir, socketPath } from '../../shim/home-paths.mjs';

export { APP_DIR_NAME, defaultHome, resolveHome, shortRunDir };

export interface HomePaths {
  home: string;
  config: string;
  /** Owner-only folder for the socket and discovery file. */
  runDir: string;
  socket: string;
  /** Discovery file: pid, socket, http url (owner-only). */
  engineInfo: string;
  lock: string;
  token: string;
  logsDir: string;
  auditDir: string;
  runsDir: string;
  secretsFile: string;
  pinsFile: string;
  skillsFile: string;
  engineLog: string;
  quarantineDir: string;
  /** Results kept past maxResultChars (code mode's result handles), one folder per profile. */
  resultsDir: string;
  /** Shapes of recent tool results, for return types learned in code mode. */
  learnedTypesFile: string;
}

export function homePaths(home: string, platform: NodeJS.Platform = process.platform): HomePaths {
  const runDir = path.join(home, 'run');
  return {
    home,
    config: path.join(home, 'config.json'),
    runDir,
    socket: socketPath(home, platform),
    engineInfo: path.join(runDir, 'engine.json'),
    lock: path.join(runDir, 'engine.lock'),
    token: path.join(home, 'token'),
    logsDir: path.join(home, 'logs'),
    auditDir: path.join(home, 'audit'),
    runsDir: path.join(home, 'runs'),
    secretsFile: path.join(home, 'secrets.json'),
    pinsFile: path.join(home, 'pins.json'),
    skillsFile: path.join(home, 'skills.json'),
    engineLog: path.join(home, 'logs', 'engine.log'),
    quarantineDir: path.join(home, 'quarantine'),
    resultsDir: path.join(home, 'results'),
    learnedTypesFile: path.join(home, 'learned-types.json'),
  };
}

/** Creates a folder readable only by its owner (0700), tightening it if it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
}

export function ensureHome(p: HomePaths): void {
  mkdirSync(p.home, { recursive: true, mode: 0o700 });
  ensurePrivateDir(p.runDir);
  if (process.platform !== 'win32') ensurePrivateDir(path.dirname(p.socket));
  mkdirSync(p.logsDir, { recursive: true, mode: 0o700 });
}
