// Upstreams of both protocol generations: each is reached in the best era it offers and
// `protocol` names the negotiated revision. Real servers: the v2-SDK fixtures (modern-only,
// both eras, over stdio and Streamable HTTP), a v1-SDK fixture and server-everything over SSE.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING, FIXTURES, fixture, Scratch, text, until } from './helpers.ts';

let s: Scratch;
const children: ChildProcess[] = [];
beforeEach(() => {
  s = new Scratch();
});
afterEach(async () => {
  await s.dispose();
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** Starts the v2 HTTP fixture; resolves with its URL. */
async function v2Http(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [path.join(FIXTURES, 'v2-http.mjs')], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => out.includes('listening '), 15_000, 'the v2 HTTP fixture to listen');
  return out.split('listening ')[1]!.trim();
}

const answerElicitation = async (_server: string, req: { method: string }) => {
  if (req.method === 'elicitation/create') return { action: 'accept', content: { name: 'Ada' } };
  return { roots: [] };
};

describe('era negotiation', () => {
  it('connects to a modern-only stdio server in 2026-07-28 and calls its tools (was: failed to start, -32022)', async () => {
    const up = s.upstream('modern', fixture('v2-modern.mjs'), { onServerRequest: answerElicitation });
    await up.waitReady(15_000);
    expect(up.status()).toMatchObject({ state: 'ready', protocol: '2026-07-28', lastError: null });
    expect(text(await up.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    const era = JSON.parse(text(await up.callTool({ name: 'era', arguments: {} }))) as { era: string; client: string };
    expect(era).toEqual({ era: 'modern', client: 'switchboard' });
  });

  it('prefers 2026-07-28 with a server that speaks both, and uses initialize with a 2025 server', async () => {
    const both = s.upstream('both', fixture('v2-both.mjs'));
    const legacy = s.upstream('legacy', fixture('basic.mjs'));
    await Promise.all([both.waitReady(15_000), legacy.waitReady(15_000)]);
    expect(both.protocol).toBe('2026-07-28');
    expect(legacy.protocol).toBe('2025-11-25');
    expect(text(await legacy.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('old');
  });

  it('reports protocol null until connected and again after a stop', async () => {
    const up = s.upstream('modern', fixture('v2-modern.mjs'));
    expect(up.status().protocol).toBeNull();
    await up.waitReady(15_000);
    expect(up.status().protocol).toBe('2026-07-28');
    await up.restart();
    expect(up.status().protocol).toBeNull();
    await up.waitReady(15_000);
    expect(up.status().protocol).toBe('2026-07-28');
  });

  it('connects to a modern-only Streamable HTTP server and a both-eras one', async () => {
    const [modernUrl, bothUrl] = await Promise.all([v2Http(), v2Http({ V2_LEGACY: 'stateless' })]);
    const modern = s.upstream('mh', { url: modernUrl }, { onServerRequest: answerElicitation });
    const both = s.upstream('bh', { url: bothUrl });
    await Promise.all([modern.waitReady(15_000), both.waitReady(15_000)]);
    expect(modern.protocol).toBe('2026-07-28');
    expect(both.protocol).toBe('2026-07-28');
    expect(text(await modern.callTool({ name: 'echo', arguments: { text: 'over http' } }))).toBe('over http');
    expect(text(await modern.callTool({ name: 'ask', arguments: {} }))).toBe('hello Ada');
  });

  it('still reaches a 2025 server over SSE', async () => {
    const port = 31000 + Math.floor(Math.random() * 2000);
    const child = spawn(process.execPath, [EVERYTHING, 'sse'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await until(() => /listening|running/i.test(err), 15_000, 'server-everything (sse) to listen');
    const up = s.upstream('sse', { url: `http://127.0.0.1:${port}/sse`, transport: 'sse' });
    await up.waitReady(15_000);
    expect(up.protocol).toMatch(/^20\d\d-\d\d-\d\d$/);
    expect(text(await up.callTool({ name: 'echo', arguments: { message: 'sse' } }))).toContain('sse');
  });
});

describe('features over a modern upstream', () => {
  it('keeps tool _meta, icons, title and annotations, and result _meta, untouched', async () => {
    const up = s.upstream('modern', fixture('v2-modern.mjs'));
    await up.waitReady(15_000);
    const echo = up.tools().find((t) => t.name === 'echo')!;
    expect(echo).toMatchObject({
      title: 'Echo',
      annotations: { readOnlyHint: true, title: 'Echo (annotated)' },
      icons: [{ mimeType: 'image/svg+xml' }],
      _meta: { 'anthropic/alwaysLoad': true, ui: { resourceUri: 'ui://v2/panel' } },
    });
    const result = await up.callTool({ name: 'echo', arguments: { text: 'abc' } });
    expect(result._meta).toMatchObject({ 'fixture/echoed': 3 });
    expect(up.resources().map((r) => r.uri)).toEqual(expect.arrayContaining(['ui://v2/panel', 'v2://counter']));
    const read = await up.request('resources/read', { uri: 'ui://v2/panel' });
    expect(read.contents).toEqual([{ uri: 'ui://v2/panel', mimeType: 'text/html;profile=mcp-app', text: '<p>panel</p>' }]);
  });

  it('turns an input_required result into an elicitation/create tied to the call that got it', async () => {
    const asked: { method: string; call: unknown; calls: unknown[]; message?: unknown }[] = [];
    const up = s.upstream('modern', fixture('v2-modern.mjs'), {
      onServerRequest: async (_server, req, extra) => {
        asked.push({ method: req.method, call: extra.call, calls: extra.calls, message: req.params?.message });
        return { action: 'accept', content: { name: 'Grace' } };
      },
    });
    await up.waitReady(15_000);
    expect(text(await up.callTool({ name: 'ask', arguments: {} }, { context: 'client-A' }))).toBe('hello Grace');
    expect(asked).toEqual([{ method: 'elicitation/create', call: { context: 'client-A' }, calls: [], message: 'What is your name?' }]);
  });

  it('relays progress from a modern upstream', async () => {
    const up = s.upstream('modern', fixture('v2-modern.mjs'));
    await up.waitReady(15_000);
    const progress: number[] = [];
    expect(text(await up.callTool({ name: 'progress', arguments: { steps: 3 } }, { onProgress: (p) => progress.push(p.progress) }))).toBe('done');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('turns resources/subscribe into a subscriptions/listen stream and relays resources/updated', async () => {
    const notes: { method: string; params?: Record<string, unknown> }[] = [];
    const up = s.upstream('modern', fixture('v2-modern.mjs'), { onNotification: (_s, n) => notes.push(n) });
    await up.waitReady(15_000);
    expect(await up.request('resources/subscribe', { uri: 'v2://counter' })).toEqual({});
    await up.callTool({ name: 'touch', arguments: {} });
    await until(() => notes.some((n) => n.method === 'notifications/resources/updated'), 5000, 'resources/updated');
    const updated = notes.find((n) => n.method === 'notifications/resources/updated')!;
    // The listen stream's subscription id belongs to the gateway's stream, not to any client.
    expect(updated.params).toEqual({ uri: 'v2://counter' });
    await up.request('resources/unsubscribe', { uri: 'v2://counter' });
    const seen = notes.length;
    await up.callTool({ name: 'touch', arguments: {} });
    await new Promise((r) => setTimeout(r, 300));
    expect(notes.slice(seen).filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
  });
});

describe('the era verdict', () => {
  it('connects with initialize at once to a 2025 server that exits on server/discover, and remembers it', async () => {
    const openings = path.join(s.dir, 'openings.txt');
    const up = s.upstream('strict', fixture('strict-legacy.mjs', { env: { FIXTURE_OPENINGS: openings } }));
    await up.waitReady(15_000);
    expect(up.status()).toMatchObject({ state: 'ready', protocol: '2025-06-18', lastError: null });
    expect(text(await up.callTool({ name: 'hello', arguments: {} }))).toBe('hello from 2025');
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(openings, 'utf8').trim().split('\n')).toEqual(['server/discover', 'initialize']);
    // A crash restarts it with the remembered verdict: no second probe.
    process.kill(up.pid!, 'SIGKILL');
    await until(() => up.state !== 'ready', 5000, 'the crash to be seen');
    await up.waitReady(15_000);
    expect(readFileSync(openings, 'utf8').trim().split('\n')).toEqual(['server/discover', 'initialize', 'initialize']);
  });

  it('re-probes when a remembered verdict no longer works (the server changed generation)', async () => {
    const { writeFileSync, readFileSync } = await import('node:fs');
    const flip = path.join(s.dir, 'flip');
    const openings = path.join(s.dir, 'openings.txt');
    const up = s.upstream('flip', fixture('era-flip.mjs', { env: { FLIP_FILE: flip, FIXTURE_OPENINGS: openings } }));
    await up.waitReady(15_000);
    expect(up.protocol).toBe('2026-07-28');
    writeFileSync(flip, '');
    process.kill(up.pid!, 'SIGKILL');
    await until(() => up.protocol === '2025-06-18' && up.state === 'ready', 20_000, 'the server to be reached as 2025');
    // First the remembered 2026 verdict (no probe: tools/list first), which fails; then a probe,
    // which the strict server exits on; then initialize.
    expect(readFileSync(openings, 'utf8').trim().split('\n')).toEqual(['tools/list', 'server/discover', 'initialize']);
    expect(text(await up.callTool({ name: 'hello', arguments: {} }))).toBe('hello from 2025');
  });
});
