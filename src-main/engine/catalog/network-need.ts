// Whether a server about to be added needs the internet, said before adding: a package that npx
// has not fetched before is downloaded on its first start (and cannot start offline), and a
// remote server runs on the internet.
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InstallPlan } from './install-plan.ts';

/** The sentence to show, or undefined when the server is already on this computer. */
export function networkNeed(plan: InstallPlan, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (plan.kind === 'remote') return 'It runs on the internet: it works only while this computer is online.';
  const pkg = plan.entry.packages.find((p) => plan.source.startsWith(`${p.registryType} package ${p.identifier}`));
  if (!pkg) return undefined;
  if (pkg.registryType === 'npm' && npxHas(pkg.identifier, env, platform)) return undefined;
  const from = pkg.registryType === 'npm' ? 'npm' : pkg.registryType === 'pypi' ? 'PyPI' : pkg.registryType === 'oci' ? 'its image registry' : pkg.registryType;
  return `Its first start downloads ${pkg.identifier} from the internet (${from}), so this computer must be online then; after that it starts without a connection.`;
}

/** npm's cache folder: npm_config_cache, else ~/.npm (%LOCALAPPDATA%\npm-cache on Windows). */
function npmCache(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (env.npm_config_cache) return env.npm_config_cache;
  if (platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'), 'npm-cache');
  return path.join(env.HOME ?? os.homedir(), '.npm');
}

/** True when `npx` has run the package before: it keeps each in `_npx/<hash>/node_modules`. */
function npxHas(identifier: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  const root = path.join(npmCache(env, platform), '_npx');
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return false;
  }
  return dirs.some((d) => existsSync(path.join(root, d, 'node_modules', ...identifier.split('/'), 'package.json')));
}
