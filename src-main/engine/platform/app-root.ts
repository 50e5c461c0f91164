// The app's own folder (package.json, bin/, out/, node_modules/), found from wherever this
// module runs: the TypeScript sources or the bundle in out/bundle.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = path.dirname(start);
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'switchboard') return dir;
      } catch {
        // Not ours; keep looking.
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`Cannot find Switchboard's package.json above ${start}`);
    dir = up;
  }
}

export const APP_ROOT = findRoot(fileURLToPath(import.meta.url));
export const APP_BIN = path.join(APP_ROOT, 'bin', 'switchboard.mjs');
/**
 * True when running compiled JavaScript (out/bundle for the CLI, out/electron in the desktop
 * app) rather than the TypeScript sources; compiled code starts the bundled sandbox worker.
 */
export const BUNDLED = !import.meta.url.endsWith('.ts');
