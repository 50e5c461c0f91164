// The tools surface end to end: a real MCP client → the real shim → a real engine → real
// upstream servers (fixtures and the reference server).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CreateMessageRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { NATIVE_SHIM_UNAVAILABLE, SHIM_KINDS, cleanupHomes, cli, enginePid, fixtureServer, makeHome, referenceServer, shimClient, shimCommand, waitFor, type ShimKind } from '../../helpers/home.ts';

afterAll(cleanupHomes);

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe('tools surface through the shim', () => {
  const home = makeHome({
    servers: {
      basic: fixtureServer('basic.mjs'),
      everything: referenceServer('everything', ['stdio']),
      broken: fixtureServer('crash-at-start.mjs'),
      missing: { command: 'definitely-not-a-command-sb' },
    },
    profiles: {
      main: { servers: ['basic', 'everything', 'broken', 'missing'], tools: { basic: { deny: ['fail'] }, everything: { allow: ['echo', 'get-sum'] } } },
      solo: { servers: ['basic'], namespace: false },
    },
  });

  it('lists allowed tools as <server>__<tool> with their definitions unchanged', async () => {
    const client = await shimClient(home, 'main');
    const { tools } = await waitFor(async () => {
      const r = await client.listTools();
      return r.tools.some((t) => t.name.startsWith('everything__')) ? r : undefined;
    }, 20_000, 'everything to be ready');
    const names = tools.map((t) => t.name);
    expect(names).toContain('basic__echo');
    expect(names).toContain('basic__add');
    expect(names).toContain('everything__echo');
    expect(names).not.toContain('basic__fail');
    expect(names.filter((n) => n.startsWith('everything__')).sort()).toEqual(['everything__echo', 'everything__get-sum']);
    const add = tools.find((t) => t.name === 'basic__add')!;
    expect(add.outputSchema).toBeDefined();
    expect(add.description).toBe('Adds two numbers.');
    await client.close();
  });

  it('calls a tool and relays its result unchanged', async () => {
    const client = await shimClient(home, 'main');
    const r = (await client.callTool({ name: 'basic__add', arguments: { a: 2, b: 3 } })) as CallToolResult;
    expect(r.structuredContent).toEqual({ sum: 5 });
    expect(text(await client.callTool({ name: 'basic__echo', arguments: { text: 'hi' } }))).toBe('hi');
    await client.close();
  });

  it('refuses a denied tool as if it did not exist', async () => {
    const client = await shimClient(home, 'main');
    await expect(client.callTool({ name: 'basic__fail', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it('answers a call to a server that cannot take calls with why, not "unknown tool"', async () => {
    const client = await shimClient(home, 'main');
    const broken = await client.callTool({ name: 'broken__echo', arguments: {} });
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(/The server "broken" (failed to start|is (starting|restarting))/);
    const missing = await client.callTool({ name: 'missing__echo', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('"missing"');
    // A ready server's tool that is not there is still unknown.
    await expect(client.callTool({ name: 'basic__nope', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it('keeps upstream names with "namespace": false', async () => {
    const client = await shimClient(home, 'solo');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'x' } }))).toBe('x');
    await client.close();
  });

  it('answers an unknown profile with an MCP error naming the known profiles', async () => {
    await expect(shimClient(home, 'nope')).rejects.toThrow(/Unknown profile "nope".*main, solo/);
  });

  it('relays progress notifications to the calling client', async () => {
    const client = await shimClient(home, 'main');
    const seen: number[] = [];
    await client.callTool({ name: 'basic__progress', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    await client.close();
  });

  it('relays a sampling request to the client that made the call', async () => {
    const client = await shimClient(home, 'main', { name: 'sampler', capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'sampled by the test client' },
    }));
    const r = await client.callTool({ name: 'basic__sample', arguments: {} });
    expect(text(r)).toContain('sampled by the test client');
    await client.close();
  });

  it('reports failing servers in status without blocking the others', async () => {
    const r = cli(home, ['status', '--json']);
    expect(r.code).toBe(0);
    const st = JSON.parse(r.stdout);
    expect(st.pid).toBe(enginePid(home));
    expect(st.http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(st.http.token).toMatch(/^[0-9a-f]{64}$/);
    expect(st.servers.basic.state).toBe('ready');
    expect(st.servers.basic.tools).toBeGreaterThan(3);
    const missing = await waitFor(() => {
      const s = JSON.parse(cli(home, ['status', '--json']).stdout).servers.missing;
      return s.state === 'failed' ? s : undefined;
    });
    expect(missing.lastError).toMatch(/not found/i);
    expect(st.config).toEqual({ valid: true, problems: [], file: path.join(home, 'config.json') });
    expect(st.profiles.main.surface).toBe('tools');
  });

  it('writes one audit entry per call with the client name', async () => {
    const client = await shimClient(home, 'main', { name: 'audited-client' });
    await client.callTool({ name: 'basic__echo', arguments: { text: 'audit me' } });
    await client.close();
    const entries = await waitFor(() => {
      const list = JSON.parse(cli(home, ['audit', '--json', '--limit', '50']).stdout) as { client: string; tool: string }[];
      return list.some((e) => e.client === 'audited-client') ? list : undefined;
    });
    const e = entries.find((x) => x.client === 'audited-client') as Record<string, unknown>;
    expect(e).toMatchObject({ profile: 'main', server: 'basic', tool: 'echo', outcome: 'ok' });
    expect(typeof e.durationMs).toBe('number');
    expect(e.argBytes).toBeGreaterThan(0);
  });
});

/** A shim driven by hand: raw lines in, the lines it prints collected. */
function rawShim(home: string, profile: string, kind: ShimKind) {
  const { command, args } = shimCommand(kind, home, profile);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buf = '';
  child.stdout.on('data', (c) => {
    buf += c;
    let nl;
    while ((nl = buf.indexOf('\n')) !== -1) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  });
  return { child, lines };
}

// The shim's own part (relaying, reconnecting, one engine for many) is run against both shims.
describe.each(SHIM_KINDS)('live config and resilience (%s shim)', (kind) => {
  const skip = kind === 'native' && NATIVE_SHIM_UNAVAILABLE;
  it.skipIf(skip)('applies hand edits without a restart and tells clients the tool list changed', async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    const client = await shimClient(home, 'p', { shim: kind });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('basic__echo');
    const file = path.join(home, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    cfg.profiles.p.tools = { basic: { allow: ['add'] } };
    writeFileSync(file, JSON.stringify(cfg, null, 2));
    await waitFor(async () => ((await client.listTools()).tools.map((t) => t.name).join() === 'basic__add' ? true : undefined));
    await waitFor(() => changed > 0);
    // An invalid edit keeps the last valid config serving.
    writeFileSync(file, '{ "servers": { ');
    await waitFor(() => JSON.parse(cli(home, ['status', '--json']).stdout).config.valid === false || undefined);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['basic__add']);
    expect(readFileSync(file, 'utf8')).toBe('{ "servers": { ');
    await client.close();
  });

  it.skipIf(skip)('answers malformed JSON on stdin with a parse error and keeps the session', async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    const { child, lines } = rawShim(home, 'p', kind);
    child.stdin.write('this is not json\n');
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) + '\n');
    await waitFor(() => lines.length >= 2);
    expect(JSON.parse(lines[0]!).error.code).toBe(-32700);
    expect(JSON.parse(lines[1]!).result.serverInfo.name).toBe('switchboard-p');
    child.kill();
  });

  it.skipIf(skip)('drops a message over 64 MB with a clear error and keeps the connection', async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    const { child, lines } = rawShim(home, 'p', kind);
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'basic__echo', arguments: { text: 'x'.repeat(65 * 1024 * 1024) } } });
    child.stdin.write(huge + '\n');
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) + '\n');
    await waitFor(() => lines.length >= 2, 30_000);
    const messages = lines.map((l) => JSON.parse(l));
    expect(messages).toHaveLength(2);
    expect(messages[0].error.message).toMatch(/larger than 64 MB/);
    expect(messages[1]).toMatchObject({ id: 8, result: {} });
    child.kill();
  });

  it.skipIf(skip)('reconnects after the engine dies: the in-flight call errors and calls work again', async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    const client = await shimClient(home, 'p', { shim: kind });
    await client.callTool({ name: 'basic__echo', arguments: { text: 'before' } });
    const pid = enginePid(home)!;
    const inflight = client.callTool({ name: 'basic__sleep', arguments: { ms: 20_000 } });
    await new Promise((r) => setTimeout(r, 200));
    process.kill(pid, 'SIGKILL');
    await expect(inflight).rejects.toThrow(/engine stopped/);
    const t0 = Date.now();
    const r = await waitFor(async () => {
      try {
        return await client.callTool({ name: 'basic__echo', arguments: { text: 'after' } });
      } catch {
        return undefined;
      }
    }, 15_000);
    expect(text(r)).toBe('after');
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(enginePid(home)).not.toBe(pid);
    await client.close();
  });

  it.skipIf(skip)('starts one engine when two shims start at the same moment', async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    const [a, b] = await Promise.all([shimClient(home, 'p', { shim: kind }), shimClient(home, 'p', { shim: kind })]);
    expect(text(await a.callTool({ name: 'basic__echo', arguments: { text: 'a' } }))).toBe('a');
    expect(text(await b.callTool({ name: 'basic__echo', arguments: { text: 'b' } }))).toBe('b');
    const st = JSON.parse(cli(home, ['status', '--json']).stdout);
    expect(st.clients.length).toBe(2);
    await a.close();
    await b.close();
  });
});
