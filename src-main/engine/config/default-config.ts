// The config.json written on first run: a demo that works offline, built from the reference MCP
// servers that ship with the app (SPEC §4, "A first run writes a default config.json").
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export interface DefaultConfigOptions {
  home: string;
  /**
   * Absolute path of the Node binary the servers run under (process.execPath). Under Electron
   * this is the Electron binary itself; the upstream supervisor sets ELECTRON_RUN_AS_NODE=1 for
   * such children so that they run as plain Node.
   */
  nodePath: string;
}

const README = `This folder is shared with the "files" demo server of Switchboard.
Tools of the "demo" and "demo-code" profiles can list, read and write files here, and nowhere else.
`;

/** Creates the demo folders in the home and returns the first-run config. */
export function defaultConfig(opts: DefaultConfigOptions): object {
  const demoDir = path.join(opts.home, 'demo');
  const filesDir = path.join(demoDir, 'files');
  mkdirSync(filesDir, { recursive: true, mode: 0o700 });
  const readme = path.join(filesDir, 'README.txt');
  if (!existsSync(readme)) writeFileSync(readme, README, { mode: 0o600 });

  // Servers start by absolute path with our own Node, never through npx: no network, no PATH lookup.
  const servers = {
    everything: { command: opts.nodePath, args: [serverEntry('@modelcontextprotocol/server-everything'), 'stdio'] },
    memory: {
      command: opts.nodePath,
      args: [serverEntry('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: path.join(demoDir, 'memory.jsonl') },
    },
    files: { command: opts.nodePath, args: [serverEntry('@modelcontextprotocol/server-filesystem'), filesDir] },
  };
  const names = Object.keys(servers);
  return {
    servers,
    profiles: {
      demo: { servers: names, surface: 'tools' },
      'demo-code': { servers: names, surface: 'code' },
    },
  };
}

/** Absolute path of a package's bin script (resolved from its package.json, which every package exports). */
function serverEntry(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  return path.join(path.dirname(manifestPath), bin ?? 'dist/index.js');
}
