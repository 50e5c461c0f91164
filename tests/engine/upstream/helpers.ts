// Shared set-up for the upstream tests: real fixture servers in a temp logs folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from '../../../src-shared/config/schema.ts';
import { Upstream, type UpstreamOptions } from '../../../src-main/engine/upstream/server-connection.ts';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/servers/', import.meta.url));
export const EVERYTHING = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

export function fixture(file: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  return { command: process.execPath, args: [path.join(FIXTURES, file)], ...extra };
}

/** Tracks what a test started so afterEach can stop it and remove its files. */
export class Scratch {
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'sb-upstream-'));
  readonly logsDir = path.join(this.dir, 'logs');
  readonly #owned: { dispose(): Promise<void> }[] = [];

  upstream(name: string, config: ServerConfig, opts: Partial<UpstreamOptions> = {}): Upstream {
    const up = new Upstream(name, config, { logsDir: this.logsDir, backoffInitialMs: 50, killGraceMs: 500, ...opts });
    this.#owned.push(up);
    up.start();
    return up;
  }

  own<T extends { dispose(): Promise<void> }>(x: T): T {
    this.#owned.push(x);
    return x;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.#owned.map((o) => o.dispose()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Alive means running: a zombie (exited, not yet reaped by a container's init) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

export async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function text(result: { content: unknown[] }): string {
  const first = result.content[0] as { type: string; text?: string };
  return first.type === 'text' ? (first.text ?? '') : '';
}
