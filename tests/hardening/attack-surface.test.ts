// Local attack surface: the HTTP API and /mcp endpoints, the listening address, the
// token, the shim socket's folder, and what child servers inherit from the engine.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, fixtureServer, makeHome, shimClient, stopEngine } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine, type ServedEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

/** A raw request, so Host and Origin are exactly what an attacker would send. */
function rawRequest(base: string, opts: { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: Number(u.port), path: opts.path, method: opts.method ?? 'POST', headers: { 'content-type': 'application/json', ...opts.headers }, setHost: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body ?? '{}');
  });
}

const MCP_INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } });
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

describe('HTTP API and /mcp', () => {
  const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { main: { servers: ['basic'] } } });
  let engine: ServedEngine;
  let host: string;
  beforeAll(async () => {
    engine = await serveEngine(home);
    host = new URL(engine.url).host;
  });
  afterAll(() => engine?.stop());

  hardeningCase('attack', 'no token or a wrong token gets 401 on /api and /mcp', async (tally) => {
    const attempts: { path: string; auth?: string; body: string; headers?: Record<string, string> }[] = [];
    for (const auth of [undefined, 'Bearer ' + '0'.repeat(64), 'Bearer ' + engine.token.slice(0, -1) + 'x', engine.token, 'Basic ' + engine.token]) {
      attempts.push({ path: '/api/status', auth, body: '{}' });
      attempts.push({ path: '/api/config.text', auth, body: '{}' });
      attempts.push({ path: '/mcp/main', auth, body: MCP_INIT, headers: MCP_HEADERS });
    }
    for (const a of attempts) {
      tally.tried++;
      const r = await rawRequest(engine.url, { path: a.path, body: a.body, headers: { host, ...a.headers, ...(a.auth ? { authorization: a.auth } : {}) } });
      expect(r.status, `${a.path} with ${a.auth ?? 'no token'}`).toBe(401);
      expect(r.body).not.toContain('servers');
      tally.held++;
    }
    // The right token works, so the refusals above are the check and not a broken server.
    const ok = await rawRequest(engine.url, { path: '/api/status', headers: { host, authorization: `Bearer ${engine.token}` } });
    expect(ok.status).toBe(200);
  });

  hardeningCase('attack', 'a foreign Host or Origin gets 403 before any handler, even with the token', async (tally) => {
    const auth = { authorization: `Bearer ${engine.token}` };
    const before = readFileSync(path.join(home, 'config.json'), 'utf8');
    const port = new URL(engine.url).port;
    const cases: Record<string, string>[] = [
      // DNS rebinding: the browser sends the attacker's name as Host and, for a same-origin request, no Origin.
      { host: `evil.example:${port}` },
      { host: `evil.example` },
      { host: `127.0.0.1.nip.io:${port}` },
      { host: '' },
      { host, origin: 'http://evil.example' },
      { host, origin: `http://evil.example:${port}` },
      { host, origin: 'null' },
      { host, origin: `https://${host}` },
    ];
    for (const headers of cases) {
      for (const target of ['/api/config.set', '/mcp/main']) {
        tally.tried++;
        const body = target === '/mcp/main' ? MCP_INIT : JSON.stringify({ path: 'profiles.pwned', value: { servers: [] } });
        const r = await rawRequest(engine.url, { path: target, body, headers: { ...auth, ...(target === '/mcp/main' ? MCP_HEADERS : {}), ...headers } });
        expect(r.status, `${target} ${JSON.stringify(headers)}`).toBe(403);
        tally.held++;
      }
    }
    // No handler ran: the config.set above never reached the config.
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).toBe(before);
    const status = await engine.api<{ profiles: Record<string, unknown>; clients: unknown[] }>('status');
    expect(Object.keys(status.profiles)).toEqual(['main']);
    expect(status.clients).toEqual([]);
  });

  hardeningCase('attack', 'listens on 127.0.0.1 only, unreachable on other interfaces', async (tally) => {
    const port = Number(new URL(engine.url).port);
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    // Every listening socket on our port, from the kernel's own table.
    const listeners: string[] = [];
    for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of readFileSync(f, 'utf8').split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols.length > 3 && cols[3] === '0A' && cols[1]!.endsWith(':' + hex)) listeners.push(cols[1]!);
      }
    }
    tally.tried++;
    expect(listeners).toEqual([`0100007F:${hex}`]);
    tally.held++;
    const others = Object.values(os.networkInterfaces()).flat().filter((i) => i && !i.internal && i.family === 'IPv4').map((i) => i!.address);
    for (const addr of others) {
      tally.tried++;
      const refused = await new Promise<boolean>((resolve) => {
        const s = net.connect({ host: addr, port }, () => {
          s.destroy();
          resolve(false);
        });
        s.on('error', () => resolve(true));
        s.setTimeout(3000, () => {
          s.destroy();
          resolve(true);
        });
      });
      expect(refused, `connect via ${addr}`).toBe(true);
      tally.held++;
    }
  });

  hardeningCase('attack', 'the token has at least 128 bits and never reaches a file in the home but its own', async (tally) => {
    tally.tried++;
    expect(engine.token).toMatch(/^[0-9a-f]{32,}$/);
    expect(engine.token.length * 4).toBeGreaterThanOrEqual(128);
    expect(statSync(path.join(home, 'token')).mode & 0o777).toBe(0o600);
    // A session's worth of traffic: MCP calls, API calls, refused calls, a config change.
    const client = await shimClient(home, 'main');
    await client.callTool({ name: 'basic__echo', arguments: { text: 'hello' } });
    await client.callTool({ name: 'basic__fail', arguments: {} }).catch(() => undefined);
    await client.close();
    await engine.api('status');
    await engine.api('audit.list', {});
    await rawRequest(engine.url, { path: '/api/status', headers: { host, authorization: 'Bearer wrong' } });
    await engine.api('servers.restart', { name: 'basic' });
    const leaks: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else if (st.isFile() && p !== path.join(home, 'token') && readFileSync(p).includes(engine.token)) leaks.push(p);
      }
    };
    walk(home);
    expect(leaks).toEqual([]);
    // The engine's own log lines (stderr of serve) carry no token either; only the printed address does.
    const logLines = engine.output().split('\n').filter((l) => !l.startsWith('Switchboard is running:'));
    expect(logLines.join('\n')).not.toContain(engine.token);
    tally.held++;
  });
});

describe('shim socket', () => {
  hardeningCase('attack', 'the socket folder is 0700 and another user cannot connect', async (tally) => {
    const home = makeHome({ servers: {}, profiles: { main: { servers: [] } } });
    // Open the home itself so that only the run folder's own mode stands between "nobody" and the socket.
    chmodSync(home, 0o755);
    const client = await shimClient(home, 'main');
    try {
      const sock = path.join(home, 'run', 'engine.sock');
      expect(statSync(path.join(home, 'run')).mode & 0o777).toBe(0o700);
      expect(statSync(sock).mode & 0o777).toBe(0o600);
      const probe = `const s=require('net').connect(${JSON.stringify(sock)});s.on('connect',()=>{console.log('CONNECTED');process.exit(0)});s.on('error',e=>{console.log(e.code);process.exit(0)})`;
      // The same probe as root connects, so a refusal below is the permission and not a dead socket.
      expect(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).trim()).toBe('CONNECTED');
      tally.tried++;
      const r = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '-e', probe], { encoding: 'utf8', cwd: '/' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('EACCES');
      tally.held++;
      // Listing the folder is refused too, so the socket's name is not even discoverable.
      tally.tried++;
      const ls = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'ls', path.join(home, 'run')], { encoding: 'utf8', cwd: '/' });
      expect(ls.status).not.toBe(0);
      tally.held++;
    } finally {
      await client.close();
      await stopEngine(home);
    }
  });
});

describe('child server environment', () => {
  hardeningCase('attack', 'children never get NODE_OPTIONS, ELECTRON_*, LD_PRELOAD or another server\'s env', async (tally) => {
    const home = makeHome({
      servers: {
        a: fixtureServer('basic.mjs', { env: { A_ONLY_SECRET: 'a-secret-value-123456' } }),
        b: fixtureServer('basic.mjs'),
      },
      profiles: { main: { servers: ['a', 'b'] } },
    });
    const hostile = {
      ...process.env,
      NODE_OPTIONS: '--max-old-space-size=4096',
      ELECTRON_RUN_AS_NODE: '1',
      ELECTRON_ENABLE_LOGGING: '1',
      LD_PRELOAD: '/nonexistent/libsb-hook.so',
      ENGINE_PRIVATE_TOKEN: 'engine-only-secret-987654',
      A_ONLY_SECRET: 'engine-copy',
    };
    const engine = await serveEngine(home, hostile);
    try {
      const client = await shimClient(home, 'main');
      const names = async (server: string) =>
        JSON.parse((((await client.callTool({ name: `${server}__env`, arguments: {} })) as CallToolResult).content[0] as { text: string }).text) as string[];
      const a = await names('a');
      const b = await names('b');
      for (const v of ['NODE_OPTIONS', 'ELECTRON_RUN_AS_NODE', 'ELECTRON_ENABLE_LOGGING', 'LD_PRELOAD', 'ENGINE_PRIVATE_TOKEN']) {
        tally.tried += 2;
        expect(a, v).not.toContain(v);
        expect(b, v).not.toContain(v);
        tally.held += 2;
      }
      tally.tried += 2;
      expect(a).toContain('A_ONLY_SECRET');
      expect(b).not.toContain('A_ONLY_SECRET');
      expect(a).toContain('PATH');
      tally.held += 2;
      await client.close();
    } finally {
      await engine.stop();
    }
  });
});
