// How the engine, the shims, the app and the CLI touch files, as a rule over the source: every file of the home (or
// of the person: config.json, clients' files) is opened through src-main/shim/home-file.mjs or
// the atomic writer, never with a bare read, open or write. A bare one waits forever on a named
// pipe planted under the file's name (freezing the event loop, or holding a thread of Node's pool
// and with it the process's exit past any stop deadline), or writes through a planted link.
// The files below use one anyway, each for a reason that keeps it out of the home.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCANNED = ['src-main/engine', 'src-main/shim', 'src-main/electron', 'src-main/cli'];
const BARE = /\b(readFileSync|readFile|openSync|createReadStream|writeFileSync|appendFileSync|createWriteStream)\(/;

/** Files allowed a bare call, and why. */
const ALLOWED: Record<string, string> = {
  'src-main/shim/home-file.mjs': 'the one home-file reader itself',
  'src-main/engine/config/atomic-file.ts': 'opens only its own new temp files (O_EXCL) and folders',
  'src-main/engine/config/file-lock.ts': "writes only its own new temp file (O_EXCL), read back through home-file.mjs",
  'src-main/shim/engine-launch.mjs': 'the start claim is created with O_EXCL and read through home-file.mjs',
  'src-main/engine/config/default-config.ts': "reads the app's own package manifests; the demo README is created with O_EXCL",
  'src-main/engine/platform/process-tree.ts': 'reads /proc',
  'src-main/engine/platform/app-root.ts': "reads the app's own package.json",
  'src-main/engine/http/ui-build.ts': "reads and writes the app's own build folder",
  'src-main/engine/http/static-files.ts': "serves the app's own build folder",
  'src-main/cli/commands/secret.ts': 'reads standard input',
  'src-main/cli/commands/exec.ts': 'reads standard input or the file the person names on the command line',
  'src-main/cli/commands/install.ts': 'reads the bundle file the person names on the command line',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(ts|mjs)$/.test(name) ? [rel] : [];
  });
}

describe('home files are opened through home-file.mjs or the atomic writer', () => {
  // src-main: the engine, both shims' shared code, the Electron shell and the command line.
  const files = SCANNED.flatMap(sourceFiles);

  it('no other file of src-main reads, opens or writes a file with a bare call', () => {
    const found = files.flatMap((f) =>
      readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .map((line, i) => ({ line: line.trim(), at: `${f}:${i + 1}` }))
        .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && BARE.test(line) && !(f in ALLOWED))
        .map(({ line, at }) => `${at}: ${line}`),
    );
    expect(found, 'open home files with readHomeFile/readHomeFileSync/openHomeAppendSync (home-file.mjs) or write them with writeFileAtomic').toEqual([]);
  });

  it('every allowed file still has a bare call (an entry with none is dropped)', () => {
    for (const f of Object.keys(ALLOWED)) expect(BARE.test(readFileSync(path.join(ROOT, f), 'utf8')), f).toBe(true);
  });
});
