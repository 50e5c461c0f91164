// Temp user homes for client tests: a fake $HOME with a client's file copied in from fixtures.
import { mkdtempSync, mkdirSync, copyFileSync, rmSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConnector, type Connector } from '../../../src-main/engine/clients/connector.ts';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/clients/', import.meta.url));

export interface TempUser {
  root: string;
  userHome: string;
  sbHome: string;
  env: NodeJS.ProcessEnv;
  connector(id: string): Connector;
  /** Copies a fixture to `id`'s config path and returns that path. */
  place(id: string, fixture: string): string;
  cleanup(): void;
}

export function tempUser(extraEnv: NodeJS.ProcessEnv = {}): TempUser {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-clients-'));
  const userHome = path.join(root, 'user home');
  const sbHome = path.join(root, 'sb home');
  mkdirSync(userHome, { recursive: true });
  const env: NodeJS.ProcessEnv = { HOME: userHome, PATH: '', ...extraEnv };
  const connector = (id: string) => getConnector(id, { home: sbHome, env, platform: 'linux' });
  return {
    root,
    userHome,
    sbHome,
    env,
    connector,
    place(id, fixture) {
      const target = connector(id).configPath();
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(path.join(FIXTURES, fixture), target);
      return target;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Asserts-friendly view of how `after` differs from `before`: one inserted run of text, or not. */
export function singleInsertion(before: string, after: string): string | null {
  let pre = 0;
  while (pre < before.length && before[pre] === after[pre]) pre++;
  let suf = 0;
  while (suf < before.length - pre && before[before.length - 1 - suf] === after[after.length - 1 - suf]) suf++;
  if (pre + suf !== before.length) return null;
  return after.slice(pre, after.length - suf);
}

export function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.includes('.switchboard-') && n.endsWith('.tmp'));
}

export const SHIM = {
  command: '/opt/Switch Board/node',
  args: ['/opt/Switch Board/bin/switchboard.mjs', 'shim', '--profile', 'demo'],
};

/**
 * Starts a real MCP client (SDK Client over stdio) exactly as a client app would from its entry,
 * and returns the tool names once `expect` is listed (the engine may still be starting upstream).
 */
export async function toolsFromEntry(
  launch: { command: string; args: string[]; env?: Record<string, string> },
  cwd: string,
  expectTool: string,
): Promise<string[]> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { getDefaultEnvironment, StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { waitFor } = await import('../../helpers/home.ts');
  const client = new Client({ name: 'entry-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: launch.command, args: launch.args, env: { ...getDefaultEnvironment(), ...launch.env }, cwd, stderr: 'pipe' }));
  try {
    return await waitFor(async () => {
      const n = (await client.listTools()).tools.map((t) => t.name);
      return n.includes(expectTool) && n;
    }, 20_000, `${expectTool} to be listed`);
  } finally {
    await client.close();
  }
}
