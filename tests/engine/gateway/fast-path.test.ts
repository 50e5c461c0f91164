// The tools/call fast path (fast-calls.ts → call-pipeline.ts → direct-calls.ts) against
// the SDK path it stands in for: a real engine in this process, real fixture servers, a real
// SDK client on the engine's socket (as the shim connects). Each behaviour is run twice, with
// the fast path on and off, and must come out the same; the gateway's counters show which
// path each call took.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Engine } from '../../../src-main/engine/engine.ts';
import { LineTransport } from '../../../src-main/engine/gateway/line-transport.ts';
import type { AuditEntry } from '../../../src-shared/records.ts';
import { cleanupHomes, fixtureServer, makeHome, waitFor } from '../../helpers/home.ts';

let engine: Engine;

beforeAll(async () => {
  const home = makeHome({
    servers: {
      basic: fixtureServer('basic.mjs'),
      tight: fixtureServer('basic.mjs', { callTimeoutSec: 1 }),
      crashy: fixtureServer('crash-mid-call.mjs'),
      slow: fixtureServer('slow.mjs'),
      burst: fixtureServer('progress-burst.mjs'),
    },
    profiles: { p: { servers: ['basic', 'tight', 'crashy', 'slow', 'burst'] }, code: { servers: ['basic'], surface: 'code' } },
  });
  engine = await Engine.start({ home, port: null });
  // A stored secret that happens to be part of a tool's error text: the audit must not keep it.
  engine.secrets.set('FIXTURE_SECRET', 'always fails');
  for (const s of ['basic', 'tight', 'crashy', 'slow', 'burst']) await engine.supervisor.get(s)!.waitReady(30_000);
}, 60_000);

afterAll(async () => {
  await engine?.dispose();
  await cleanupHomes();
});

/** A client on the engine's socket, as the shim is: the hello line, then MCP lines. */
async function socketClient(profile: string): Promise<{ client: Client; raw: LineTransport }> {
  const sock = net.connect(engine.paths.socket);
  await new Promise<void>((resolve, reject) => sock.once('connect', resolve).once('error', reject));
  sock.write(JSON.stringify({ kind: 'mcp', profile, v: 1 }) + '\n');
  const raw = new LineTransport(sock);
  const client = new Client({ name: 'fast-path-test', version: '1.0.0' });
  await client.connect(raw);
  return { client, raw };
}

/** Runs `fn` with the fast path on or off; returns what it gave, the calls by path, and the audit entries it made. */
async function run<T>(fast: boolean, fn: (client: Client, raw: LineTransport) => Promise<T>): Promise<{ value: T; direct: number; viaSdk: number; audit: Partial<AuditEntry>[] }> {
  engine.gateway.knobs.fastPath = fast;
  const { client, raw } = await socketClient('p');
  const before = { ...engine.gateway.stats };
  const seen = new Set(engine.audit.list({ limit: 10_000 }).map((e) => e.id));
  try {
    const value = await fn(client, raw);
    // An audit entry is made after the reply is written: wait for it rather than assume it.
    const audit = await waitFor(() => {
      const fresh = engine.audit.list({ limit: 10_000 }).filter((e) => !seen.has(e.id));
      return fresh.length > 0 ? fresh : undefined;
    }, 10_000, 'the audit entry');
    return {
      value,
      direct: engine.gateway.stats.directCalls - before.directCalls,
      viaSdk: engine.gateway.stats.sdkCalls - before.sdkCalls,
      // What must match: every field but the id, the time and the duration.
      audit: audit.map(({ id: _i, time: _t, durationMs: _d, ...rest }) => rest),
    };
  } finally {
    await client.close();
    engine.gateway.knobs.fastPath = true;
  }
}

/** The same behaviour on both paths: the fast one taken when on, the SDK one when off, and equal outcomes. */
async function both<T>(fn: (client: Client, raw: LineTransport) => Promise<T>) {
  const fast = await run(true, fn);
  const sdk = await run(false, fn);
  expect(fast.direct).toBeGreaterThan(0);
  expect(fast.viaSdk).toBe(0);
  expect(sdk.direct).toBe(0);
  expect(sdk.viaSdk).toBeGreaterThan(0);
  expect(fast.value).toEqual(sdk.value);
  expect(fast.audit).toEqual(sdk.audit);
  return fast;
}

const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('tools/call fast path', () => {
  it('takes plain calls and answers them as the SDK path does, audit entry included', async () => {
    const r = await both(async (c) => [await call(c, 'basic__echo', { text: 'hi' }), await call(c, 'basic__add', { a: 2, b: 3 })]);
    expect(r.value[0]!.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(r.value[1]!.structuredContent).toEqual({ sum: 5 });
    expect(r.audit.map((e) => [e.tool, e.outcome, e.argBytes, e.client])).toEqual([
      ['add', 'ok', 13, 'fast-path-test'],
      ['echo', 'ok', 13, 'fast-path-test'],
    ]);
  });

  it('answers concurrent calls by id when the server answers them out of order', async () => {
    const r = await both(async (c) => {
      const order: number[] = [];
      const results = await Promise.all([400, 50, 200].map((ms) => call(c, 'slow__wait', { ms }).then((x) => (order.push(ms), x))));
      return { order, texts: results.map((x) => (x.content[0] as { text: string }).text) };
    });
    expect(r.value).toEqual({ order: [50, 200, 400], texts: ['waited 400', 'waited 50', 'waited 200'] });
    expect(r.audit).toHaveLength(3);
  });

  it('relays a tool error, and its audit entry is redacted', async () => {
    const r = await both((c) => call(c, 'basic__fail', {}));
    expect(r.value.isError).toBe(true);
    expect(r.audit).toEqual([expect.objectContaining({ outcome: 'error', error: 'this tool [redacted]' })]);
  });

  it('relays progress with the client\'s own token', async () => {
    const r = await both(async (c, raw) => {
      // Read off the wire: the SDK's client drops progress it reads together with the result
      // (its handler runs a microtask late), which on a loaded machine says nothing of the gateway.
      const seen: { progress: number; token: unknown }[] = [];
      const inner = raw.onmessage!;
      raw.onmessage = (m) => {
        const msg = m as { method?: string; params?: { progress: number; progressToken?: unknown } };
        if (msg.method === 'notifications/progress') seen.push({ progress: msg.params!.progress, token: msg.params!.progressToken });
        inner(m);
      };
      const result = await c.callTool({ name: 'basic__progress', arguments: { steps: 3 } }, undefined, { onprogress: () => {} });
      // What came before the result: progress after it would be too late for any client.
      return { result, seen: [...seen] };
    });
    expect(r.value.seen.map((s) => s.progress)).toEqual([1, 2, 3]);
    // The client's own token: the SDK's is its request's id, a number (ours upstream are strings).
    expect(r.value.seen.every((s) => typeof s.token === 'number')).toBe(true);
  });

  it('sends every progress notification before the result when the server sends them in one read, on both paths', async () => {
    const STEPS = 200;
    for (const fast of [true, false]) {
      engine.gateway.knobs.fastPath = fast;
      const { client, raw } = await socketClient('p');
      // What reaches the client, in the order it comes off the socket.
      const wire: { progress?: number; token?: unknown; id?: unknown }[] = [];
      const inner = raw.onmessage!;
      raw.onmessage = (m) => {
        const msg = m as { method?: string; id?: unknown; params?: { progress?: number; progressToken?: unknown } };
        if (msg.method === 'notifications/progress') wire.push({ progress: msg.params?.progress, token: msg.params?.progressToken });
        else if ('id' in msg && !('method' in msg)) wire.push({ id: msg.id });
        inner(m);
      };
      const before = { ...engine.gateway.stats };
      try {
        const result = (await client.callTool({ name: 'burst__burst', arguments: { steps: STEPS } }, undefined, { onprogress: () => {} })) as CallToolResult;
        expect(result.content).toEqual([{ type: 'text', text: `burst of ${STEPS}` }]);
        const answer = wire.findIndex((w) => 'id' in w && w.token === undefined && typeof w.id === 'number' && w.id > 0);
        const sent = wire.slice(0, answer).filter((w) => w.progress !== undefined);
        // Every step, in order, under the client's own token (its request's id), before the answer.
        expect({ fast, progress: sent.map((w) => w.progress) }).toEqual({ fast, progress: Array.from({ length: STEPS }, (_, i) => i + 1) });
        expect(new Set(sent.map((w) => w.token))).toEqual(new Set([wire[answer]!.id]));
        expect(wire.slice(answer).filter((w) => w.progress !== undefined)).toEqual([]);
        expect(fast ? engine.gateway.stats.directCalls - before.directCalls : engine.gateway.stats.sdkCalls - before.sdkCalls).toBe(1);
      } finally {
        await client.close();
        engine.gateway.knobs.fastPath = true;
      }
    }
  });

  it('takes the first call of a resumed session, sent with the hello, as the client it is', async () => {
    const seen = new Set(engine.audit.list({ limit: 10_000 }).map((e) => e.id));
    const before = engine.gateway.stats.directCalls;
    const sock = net.connect(engine.paths.socket);
    await new Promise<void>((resolve, reject) => sock.once('connect', resolve).once('error', reject));
    try {
      // As a shim sends it after a boot answer or an engine restart: the hello, then the calls it held, in one write.
      const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'kilo', version: '7.7.7' } };
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'basic__echo', arguments: { text: 'first' } } };
      const answered = new Promise<string>((resolve) => {
        let buf = '';
        sock.on('data', (d: Buffer) => {
          buf += d.toString('utf8');
          const line = buf.split('\n').find((l) => l.startsWith('{"jsonrpc":"2.0","id":1,'));
          if (line) resolve(line);
        });
      });
      sock.write(`${JSON.stringify({ kind: 'mcp', profile: 'p', v: 1, resume: { initialize } })}\n${JSON.stringify(call)}\n`);
      expect(JSON.parse(await answered).result.content).toEqual([{ type: 'text', text: 'first' }]);
      const fresh = await waitFor(() => {
        const entries = engine.audit.list({ limit: 10_000 }).filter((e) => !seen.has(e.id));
        return entries.length > 0 ? entries : undefined;
      }, 10_000, 'the audit entry');
      expect(fresh.map((e) => [e.tool, e.client])).toEqual([['echo', 'kilo']]);
      expect(engine.gateway.stats.directCalls - before).toBe(1);
    } finally {
      sock.destroy();
    }
  });

  it('answers a call over callTimeoutSec with the timeout error, and tells the server', async () => {
    const r = await both((c) => call(c, 'tight__sleep', { ms: 4000 }));
    expect(r.value.isError).toBe(true);
    expect((r.value.content[0] as { text: string }).text).toBe('tight.sleep took longer than 1 s (callTimeoutSec) and was cancelled');
    expect(r.audit).toEqual([expect.objectContaining({ outcome: 'timeout' })]);
    await waitFor(() => engine.supervisor.get('tight')!.logTail(50).filter((l) => l.includes('sleep cancelled')).length >= 2, 10_000, 'both cancellations in the log');
    // The fast path's own ids (2^30 up) reached the server.
    expect(engine.supervisor.get('tight')!.logTail(50).some((l) => /sleep cancelled after request 10737418\d\d/.test(l))).toBe(true);
  });

  it('passes the client\'s cancellation on to the server and answers nothing', async () => {
    const log = () => engine.supervisor.get('basic')!.logTail(100).filter((l) => l.includes('sleep cancelled')).length;
    const r = await both(async (c) => {
      const n = log();
      const ctrl = new AbortController();
      setTimeout(() => ctrl.abort(), 300);
      const outcome = await c.callTool({ name: 'basic__sleep', arguments: { ms: 5000 } }, undefined, { signal: ctrl.signal }).then(
        () => 'answered',
        (err: Error) => (err.name === 'AbortError' || /abort/i.test(err.message) ? 'aborted' : err.message),
      );
      await waitFor(() => log() > n, 10_000, 'the server to hear of the cancellation');
      // The session still serves calls afterwards.
      return { outcome, after: await call(c, 'basic__echo', { text: 'after' }) };
    });
    expect(r.value.outcome).toBe('aborted');
    expect(r.audit.map((e) => e.outcome)).toEqual(['ok', 'cancelled']);
  });

  it('answers calls in flight when the server crashes', async () => {
    const r = await both(async (c) => {
      await engine.supervisor.get('crashy')!.waitReady(30_000);
      return call(c, 'crashy__boom', {});
    });
    expect(r.value.isError).toBe(true);
    expect((r.value.content[0] as { text: string }).text).toMatch(/crashy stopped while the call was running/);
    expect(r.audit).toEqual([expect.objectContaining({ outcome: 'error' })]);
  }, 60_000);

  it('leaves task-augmented calls, unknown names and the code surface\'s search to the SDK path', async () => {
    const before = { ...engine.gateway.stats };
    const { client } = await socketClient('p');
    await client.request({ method: 'tools/call', params: { name: 'basic__echo', arguments: { text: 'x' }, task: { ttl: 60_000 } } }, CallToolResultSchema).catch(() => undefined);
    await expect(call(client, 'basic__nope', {})).rejects.toThrow(/Unknown tool/);
    await client.close();
    const code = await socketClient('code');
    const listed = await code.client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain('execute');
    const ran = await code.client.callTool({ name: 'execute', arguments: { code: 'async () => (await basic.echo({ text: "c" }))' } });
    expect((ran.content as { text: string }[])[0]!.text).toMatch(/"c"|\bc\b/);
    await code.client.close();
    // Two upstream calls take the server's lane through the same pipeline (call-pipeline.ts): the
    // one the gateway makes for the task it runs itself (basic runs no tasks of its own: a plain
    // tools/call upstream), and the one the code makes.
    expect(engine.gateway.stats.directCalls).toBe(before.directCalls + 2);
    expect(engine.gateway.stats.fastExecutes).toBe(before.fastExecutes + 1);
  });

  it('runs a code profile\'s execute as the SDK path does: results, errors, run records and audit', async () => {
    const once = async (fast: boolean) => {
      engine.gateway.knobs.fastPath = fast;
      const before = engine.gateway.stats.fastExecutes;
      const { client } = await socketClient('code');
      try {
        const strip = (r: unknown) => {
          const { _meta, ...rest } = r as CallToolResult;
          return { ...rest, runId: typeof _meta?.['switchboard/runId'] };
        };
        const ok = strip(await client.callTool({ name: 'execute', arguments: { code: 'async () => (await basic.add({ a: 1, b: 2 })).sum' } }));
        const thrown = strip(await client.callTool({ name: 'execute', arguments: { code: 'async () => { throw new Error("no luck") }' } }));
        const syntax = strip(await client.callTool({ name: 'execute', arguments: { code: 'async () => {' } }));
        const noCode = await client.callTool({ name: 'execute', arguments: {} });
        return { ok, thrown, syntax, noCode, taken: engine.gateway.stats.fastExecutes - before };
      } finally {
        await client.close();
        engine.gateway.knobs.fastPath = true;
      }
    };
    const fast = await once(true);
    const sdk = await once(false);
    expect(fast.taken).toBe(3);
    expect(sdk.taken).toBe(0);
    expect(fast.ok).toMatchObject({ runId: 'string' });
    expect((fast.thrown as { isError?: boolean }).isError).toBe(true);
    expect((fast.noCode as CallToolResult).isError).toBe(true);
    const { taken: _f, ...f } = fast;
    const { taken: _s, ...s } = sdk;
    expect(f).toEqual(s);
  });

  it('ends a cancelled execute without an answer, as the SDK path does', async () => {
    const { client } = await socketClient('code');
    try {
      const ctrl = new AbortController();
      const pending = client.callTool({ name: 'execute', arguments: { code: 'async () => { while (true) {} }' } }, undefined, { signal: ctrl.signal });
      await new Promise((r) => setTimeout(r, 300));
      ctrl.abort();
      await expect(pending).rejects.toThrow(/abort/i);
      // The session goes on: the next run is answered.
      const next = await client.callTool({ name: 'execute', arguments: { code: 'async () => 7' } });
      expect((next.content as { text: string }[])[0]!.text).toMatch(/7/);
    } finally {
      await client.close();
    }
  });
});
