// The config.json written on first run: a demo that works offline, built from the reference MCP
// servers that ship with the app (docs/command-line.md, "A first run writes a default config.json").
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { APP_ROOT } from '../platform/app-root.ts';
import { SHIM_PATH_ENV } from '../platform/shim-entry.ts';
import { DEMO_PROFILES } from '../../../src-shared/config/starter-profiles.ts';

const require = createRequire(import.meta.url);

export interface DefaultConfigOptions {
  home: string;
  /**
   * Absolute path of the Node binary the servers run under (process.execPath). Under Electron
   * this is the Electron binary itself; the upstream supervisor sets ELECTRON_RUN_AS_NODE=1 for
   * such children so that they run as plain Node. Unused for a server the shim runs (see env).
   */
  nodePath: string;
  /**
   * Where SWITCHBOARD_SHIM_PATH is read; defaults to process.env. The desktop app sets it on the
   * engine it starts, and the demo servers then run under that binary (see demoServer).
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Folder of the bundles made by scripts/build-demo-servers.mjs; defaults to
   * defaultDemoServersDir().
   */
  demoServersDir?: string;
}

/** The demo folder's README, as the first run writes it: a folder holding only this is untouched. */
export const DEMO_README = `This folder is shared with the "files" demo server of Switchboard.
Tools of the "demo" and "demo-code" profiles can list, read and write files here, and nowhere else.
`;

/** Creates the demo folders in the home and returns the first-run config. */
export function defaultConfig(opts: DefaultConfigOptions): object {
  const demoDir = path.join(opts.home, 'demo');
  const filesDir = path.join(demoDir, 'files');
  mkdirSync(filesDir, { recursive: true, mode: 0o700 });
  const readme = path.join(filesDir, 'README.txt');
  // Made only where nothing is (O_EXCL): never written through a link planted under its name.
  try {
    writeFileSync(readme, DEMO_README, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }

  // Servers start by absolute path with our own Node, never through npx: no network, no PATH lookup.
  const servers = {
    everything: demoServer(opts, 'everything', 'stdio'),
    memory: { ...demoServer(opts, 'memory'), env: { MEMORY_FILE_PATH: path.join(demoDir, 'memory.jsonl') } },
    files: demoServer(opts, 'filesystem', filesDir),
  };
  const names = Object.keys(servers);
  return {
    servers,
    profiles: {
      [DEMO_PROFILES[0]]: { servers: names, surface: 'tools' },
      [DEMO_PROFILES[1]]: { servers: names, surface: 'code' },
    },
  };
}

/**
 * Whether `name`/`cfg` is one of the demo's servers in `home`: a reference server that ships with
 * the app (run by Node from node_modules, or by the shim from its bundle), with exactly the demo's
 * arguments and env. The program's path may differ between the desktop app, a checkout and an
 * update; what it is given (the demo folder) may not — a person's own memory server never is.
 */
export function isDemoServer(home: string, name: string, cfg: { command?: string; args?: string[]; env?: Record<string, unknown>; cwd?: string; url?: string }): boolean {
  const demoDir = path.join(home, 'demo');
  const shape: Record<string, { pkg: string; tail: string[]; env: Record<string, string> }> = {
    everything: { pkg: 'everything', tail: ['stdio'], env: {} },
    memory: { pkg: 'memory', tail: [], env: { MEMORY_FILE_PATH: path.join(demoDir, 'memory.jsonl') } },
    files: { pkg: 'filesystem', tail: [path.join(demoDir, 'files')], env: {} },
  };
  const want = Object.hasOwn(shape, name) ? shape[name]! : undefined;
  if (!want || cfg.command === undefined || cfg.url !== undefined || cfg.cwd !== undefined) return false;
  const args = cfg.args ?? [];
  const sep = String.raw`[\\/]`;
  const fromModules = new RegExp(`${sep}@modelcontextprotocol${sep}server-${want.pkg}${sep}`);
  const fromBundle = new RegExp(`${sep}demo-servers${sep}${want.pkg}\\.cjs$`);
  const rest =
    args.length > 0 && fromModules.test(args[0]!) ? args.slice(1)
    : args.length > 1 && args[0] === 'node' && fromBundle.test(args[1]!) ? args.slice(2)
    : null;
  return rest !== null && isDeepStrictEqual(rest, want.tail) && isDeepStrictEqual(cfg.env ?? {}, want.env);
}

/**
 * Where the app keeps the demo bundles. In the packaged app that is beside app.asar, in
 * app.asar.unpacked (electron-builder.yml, asarUnpack): the shim binary is plain Node and cannot
 * read inside an asar.
 */
export function defaultDemoServersDir(appRoot: string = APP_ROOT): string {
  return path.join(appRoot, 'out', 'demo-servers').replace(/app\.asar(?=[\\/]|$)/, 'app.asar.unpacked');
}

/**
 * How to start one reference server. In the packaged app the Electron binary cannot act as node
 * (its runAsNode fuse is off), so the installed shim binary runs the server's bundle instead.
 */
function demoServer(opts: DefaultConfigOptions, name: 'everything' | 'memory' | 'filesystem', ...args: string[]): { command: string; args: string[] } {
  const shim = (opts.env ?? process.env)[SHIM_PATH_ENV];
  const bundle = path.join(opts.demoServersDir ?? defaultDemoServersDir(), `${name}.cjs`);
  if (shim && existsSync(bundle)) return { command: shim, args: ['node', bundle, ...args] };
  return { command: opts.nodePath, args: [serverEntry(`@modelcontextprotocol/server-${name}`), ...args] };
}

/** Absolute path of a package's bin script (resolved from its package.json, which every package exports). */
function serverEntry(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  return path.join(path.dirname(manifestPath), bin ?? 'dist/index.js');
}
