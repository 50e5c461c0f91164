import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING, Scratch, text, until } from './helpers.ts';

let s: Scratch;
let server: ChildProcess | undefined;
let port = 0;
let stderr = '';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
}

beforeEach(async () => {
  s = new Scratch();
  port = await freePort();
  stderr = '';
  server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await until(() => stderr.includes('listening'), 15_000, 'server-everything to listen');
});
afterEach(async () => {
  await s.dispose();
  server?.kill('SIGKILL');
});

describe('Upstream over Streamable HTTP', () => {
  it('connects to a remote server with resolved secret headers and calls a tool', async () => {
    const up = s.upstream(
      'remote',
      { url: `http://127.0.0.1:${port}/mcp`, headers: { 'X-Api-Key': { secret: 'REMOTE_KEY' } } },
      { resolveSecret: (n) => (n === 'REMOTE_KEY' ? 'k' : undefined) },
    );
    await up.waitReady(15_000);
    expect(up.status()).toMatchObject({ state: 'ready', kind: 'remote' });
    expect(text(await up.callTool({ name: 'echo', arguments: { message: 'over http' } }))).toContain('over http');
  });

  it('reports a server that cannot be reached', async () => {
    const closed = await freePort();
    const up = s.upstream('nowhere', { url: `http://127.0.0.1:${closed}/mcp` }, { maxFailedStarts: 2 });
    await expect(up.waitReady(10_000)).rejects.toMatchObject({ code: 'server-unavailable' });
    expect(up.lastError).toContain(`nowhere could not connect to http://127.0.0.1:${closed}/mcp`);
  });
});
