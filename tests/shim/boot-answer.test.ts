// The boot answer: a shim that finds no engine answers its client's initialize and
// first lists from what the last engine answered that same client, starts the engine, and hands
// the session over to it. Real shims (both kinds), a real engine started late on purpose (the
// late-engine fixture waits before it starts), a real server. That the answers came from the
// shim is shown by the engine not running yet when they arrived, not by timing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { bootKey, listDigest, type BootFile } from '../../src-main/engine/gateway/boot-answers.ts';
import { answerFromBoot, initializeFromBoot, bootKey as shimBootKey } from '../../src-main/shim/boot-answer.mjs';
import { NATIVE_SHIM_UNAVAILABLE, ROOT, SHIM_KINDS, cleanupHomes, cli, enginePid, existsSync, fixtureServer, makeHome, shimCommand, stopEngine, waitFor, type ShimKind } from '../helpers/home.ts';

afterAll(cleanupHomes);

const LATE_ENGINE = path.join(ROOT, 'tests/fixtures/engine/late-engine.mjs');
/** Long enough that a client answered before it ends was answered by the shim. */
const ENGINE_DELAY_MS = 4000;
const CLIENT = 'boot-test-client';

function bootFiles(home: string): string[] {
  try {
    return readdirSync(path.join(home, 'run', 'boot')).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
}

function client(kind: ShimKind, home: string, delayMs: number, shimArgs: string[] = []): { client: Client; transport: StdioClientTransport } {
  const cmd = shimCommand(kind, home, 'p');
  const env = { PATH: process.env.PATH ?? '', SWITCHBOARD_ENGINE_COMMAND: JSON.stringify([process.execPath, LATE_ENGINE, String(delayMs)]) };
  const transport = new StdioClientTransport({ command: cmd.command, args: [...cmd.args, ...shimArgs], env, stderr: 'pipe' });
  return { client: new Client({ name: CLIENT, version: '1.0.0' }), transport };
}

const engineRuns = (home: string) => enginePid(home) !== undefined || existsSync(path.join(home, 'run', 'engine.sock'));

/** A home whose engine answered CLIENT once (so its boot answer is written), then stopped. */
async function knownHome(kind: ShimKind, shimArgs: string[] = []): Promise<{ home: string; tools: string[]; file: string }> {
  const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
  const { client: c, transport } = client(kind, home, 0, shimArgs);
  await c.connect(transport);
  const tools = (await c.listTools()).tools.map((t) => t.name);
  expect(tools).toContain('basic__echo');
  const [file] = await waitFor(() => (bootFiles(home).length ? bootFiles(home) : undefined), 10_000, 'the boot answer');
  await c.close();
  await stopEngine(home);
  await waitFor(() => !engineRuns(home), 10_000, 'the engine to stop');
  return { home, tools, file: path.join(home, 'run', 'boot', file!) };
}

describe.each(SHIM_KINDS)('the %s shim with no engine running', (kind) => {
  const skip = kind === 'native' && NATIVE_SHIM_UNAVAILABLE;

  it.skipIf(skip)('answers initialize and tools/list from the boot answer, then hands the session to the engine', { timeout: 60_000 }, async () => {
    const { home, tools, file } = await knownHome(kind, ['--client', 'cursor']);
    const boot = JSON.parse(readFileSync(file, 'utf8')) as BootFile;
    expect(path.basename(file)).toBe(`${bootKey('p', 'cursor', CLIENT)}.json`);
    expect(boot).toMatchObject({ profile: 'p', connector: 'cursor', clientName: CLIENT });

    const { client: c, transport } = client(kind, home, ENGINE_DELAY_MS, ['--client', 'cursor']);
    try {
      await c.connect(transport);
      const listed = (await c.listTools()).tools.map((t) => t.name);
      // Both came before any engine ran.
      expect(engineRuns(home)).toBe(false);
      expect(listed).toEqual(tools);
      expect(c.getServerVersion()?.name).toBe('switchboard-p');
      // A call waits for the engine, which takes the session over as the client's own.
      const r = await c.callTool({ name: 'basic__echo', arguments: { text: 'after the handover' } });
      expect(r.content).toEqual([{ type: 'text', text: 'after the handover' }]);
      expect(enginePid(home)).toBeTypeOf('number');
    } finally {
      await c.close();
      await stopEngine(home);
    }
  });

  it.skipIf(skip)('records the client by its own name for calls made before the engine took the session over', { timeout: 60_000 }, async () => {
    const { home } = await knownHome(kind);
    const { client: c, transport } = client(kind, home, ENGINE_DELAY_MS);
    try {
      await c.connect(transport);
      expect(engineRuns(home)).toBe(false);
      // Sent while no engine runs: they reach it right behind the shim's hello, as a resumed
      // session's first lines; then one more once it runs.
      const early = await Promise.all(['one', 'two', 'three'].map((text) => c.callTool({ name: 'basic__echo', arguments: { text } })));
      expect(early.map((r) => (r.content as { text: string }[])[0]!.text)).toEqual(['one', 'two', 'three']);
      await c.callTool({ name: 'basic__echo', arguments: { text: 'later' } });
      const entries = await waitFor(() => {
        const all = JSON.parse(cli(home, ['audit', '--json', '--limit', '20']).stdout) as { client: string; tool: string }[];
        const echo = all.filter((e) => e.tool === 'echo');
        return echo.length >= 4 ? echo : undefined;
      }, 10_000, 'four audit entries');
      expect(entries.map((e) => e.client)).toEqual([CLIENT, CLIENT, CLIENT, CLIENT]);
    } finally {
      await c.close();
      await stopEngine(home);
    }
  });

  it.skipIf(skip)('answers a call with what to do when the engine it started never comes up', { timeout: 90_000 }, async () => {
    const { home } = await knownHome(kind);
    const cmd = shimCommand(kind, home, 'p');
    // An engine command that ends at once: the shim keeps trying for 20 s, then gives up.
    const env = { PATH: process.env.PATH ?? '', SWITCHBOARD_ENGINE_COMMAND: JSON.stringify([process.execPath, '-e', 'process.exit(1)']) };
    const c = new Client({ name: CLIENT, version: '1.0.0' });
    await c.connect(new StdioClientTransport({ command: cmd.command, args: cmd.args, env, stderr: 'pipe' }));
    try {
      expect((await c.listTools()).tools.map((t) => t.name)).toContain('basic__echo');
      await expect(c.callTool({ name: 'basic__echo', arguments: { text: 'x' } })).rejects.toThrow(
        new RegExp(`engine did not start; see ${path.join(home, 'logs', 'engine.out.log').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
    } finally {
      await c.close();
    }
  });

  it.skipIf(skip)('waits for the engine when config.json changed since the boot answer was written', { timeout: 60_000 }, async () => {
    const { home } = await knownHome(kind);
    const cfg = path.join(home, 'config.json');
    writeFileSync(cfg, readFileSync(cfg, 'utf8') + '\n');
    const { client: c, transport } = client(kind, home, 1500);
    try {
      await c.connect(transport);
      // initialize was the engine's: it runs by the time the answer came.
      expect(enginePid(home)).toBeTypeOf('number');
    } finally {
      await c.close();
      await stopEngine(home);
    }
  });

  it.skipIf(skip)('tells the client when the engine\'s list differs from the one the boot answer gave', { timeout: 60_000 }, async () => {
    const { home, tools, file } = await knownHome(kind);
    // As an older engine would have left it: one tool fewer, and that list's digest.
    const boot = JSON.parse(readFileSync(file, 'utf8')) as BootFile;
    const older = { tools: (boot.lists.tools as { tools: { name: string }[] }).tools.filter((t) => t.name !== 'basic__echo') };
    writeFileSync(file, JSON.stringify({ ...boot, lists: { ...boot.lists, tools: older }, digests: { ...boot.digests, tools: listDigest(older) } }));

    const { client: c, transport } = client(kind, home, ENGINE_DELAY_MS);
    let changed = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    try {
      await c.connect(transport);
      const first = (await c.listTools()).tools.map((t) => t.name);
      expect(engineRuns(home)).toBe(false);
      expect(first).not.toContain('basic__echo');
      await waitFor(() => changed > 0, 30_000, 'tools/list_changed');
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(tools);
      // The engine's answer replaced the older one.
      await waitFor(() => JSON.parse(readFileSync(file, 'utf8')).digests.tools !== listDigest(older), 10_000, 'the boot answer rewritten');
    } finally {
      await c.close();
      await stopEngine(home);
    }
  });
});

describe('boot answer lines', () => {
  const boot = {
    v: 1, profile: 'p', connector: '', clientName: 'c', config: '-', protocolVersions: ['2025-11-25', '2025-06-18'], latest: '2025-11-25',
    initialize: { capabilities: { tools: {} }, serverInfo: { name: 'switchboard-p', version: '1' } },
    lists: { tools: { tools: [{ name: 'a' }] } }, digests: { tools: 'd' },
  };

  it('negotiates the protocol version as the SDK server does', () => {
    const asked = (v: unknown) => JSON.parse(initializeFromBoot({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: v } }, boot)).result.protocolVersion;
    expect(asked('2025-06-18')).toBe('2025-06-18');
    expect(asked('1999-01-01')).toBe('2025-11-25');
    expect(asked(undefined)).toBe('2025-11-25');
  });

  it('answers a first page it holds and ping; relays a next page, a list it lacks and everything else', () => {
    expect(answerFromBoot({ jsonrpc: '2.0', id: 'x', method: 'tools/list' }, boot)).toEqual({ reply: '{"jsonrpc":"2.0","id":"x","result":{"tools":[{"name":"a"}]}}\n', served: 'tools' });
    expect(answerFromBoot({ jsonrpc: '2.0', id: 2, method: 'ping' }, boot)?.reply).toBe('{"jsonrpc":"2.0","id":2,"result":{}}\n');
    expect(answerFromBoot({ jsonrpc: '2.0', method: 'notifications/initialized' }, boot)).toEqual({ drop: true });
    expect(answerFromBoot({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'n' } }, boot)).toBeUndefined();
    expect(answerFromBoot({ jsonrpc: '2.0', id: 4, method: 'prompts/list' }, boot)).toBeUndefined();
    expect(answerFromBoot({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'a' } }, boot)).toBeUndefined();
    expect(answerFromBoot({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }, boot)).toBeUndefined();
  });

  it('names the file the same way in the engine and the shim', () => {
    expect(bootKey('p', undefined, 'Claude Code')).toBe(shimBootKey('p', '', 'Claude Code'));
    expect(bootKey('p', 'cursor', 'x')).not.toBe(bootKey('p', '', 'x'));
    expect(bootKey('p', 'cursor', 'x')).toMatch(/^[0-9a-f]{32}$/);
  });
});
