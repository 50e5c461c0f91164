// An engine starting on a home that ran before answers a client's first tools/list (and the
// execute description of code mode) from the catalogs its servers last showed, kept with their
// pins, instead of waiting for them to start; a call to a server still starting waits for it.
// Real engine (started, stopped and started again on one home), real slow-starting servers, a
// real client over the SDK's in-memory transport.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Engine } from '../../../src-main/engine/engine.ts';
import { LIST_CHANGED_WINDOW_MS } from '../../../src-main/engine/gateway/session-2025-11-25.ts';
import { cleanupHomes, fixtureServer, makeHome, waitFor } from '../../helpers/home.ts';

afterAll(cleanupHomes);

const DELAY_MS = 3000;
const slow = (env: Record<string, string> = {}) => fixtureServer('slow-start.mjs', { env: { START_DELAY_MS: String(DELAY_MS), ...env } });
const profiles = { p: { servers: ['slow'] }, code: { servers: ['slow'], surface: 'code' } };

function configure(home: string, env: Record<string, string> = {}): void {
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ servers: { slow: slow(env) }, profiles }, null, 2) + '\n');
}

async function connect(engine: Engine, profile: string): Promise<{ client: Client; toolsChanged: () => number }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await engine.gateway.connect(profile, serverSide, { kind: 'socket' });
  const client = new Client({ name: 'boot-test', version: '1.0.0' });
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
  await client.connect(clientSide);
  return { client, toolsChanged: () => changed };
}

/** A home whose engine ran once: `slow` started, its tools were pinned, and the engine stopped. */
async function homeThatRanBefore(): Promise<string> {
  const home = makeHome();
  configure(home);
  await withEngine(home, async (engine) => {
    const { client } = await connect(engine, 'p');
    // A fresh home has no boot catalogs: its first list waits for the servers (SETTLE_WAIT_MS),
    // and a server slower than that (a loaded machine) is listed once ready.
    await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'slow__ping'), 30_000, 'slow__ping on the first run');
    await client.close();
  });
  return home;
}

/** Starts an engine on `home`, runs `fn` with it, and stops it. */
async function withEngine(home: string, fn: (engine: Engine) => Promise<void>): Promise<void> {
  const engine = await Engine.start({ home, port: null });
  try {
    await fn(engine);
  } finally {
    await engine.dispose();
  }
}

const text = (r: unknown) => (r as CallToolResult).content.map((c) => (c as { text: string }).text).join('');

describe('the boot answer from what was approved', () => {
  it('lists the tools of a known server while it starts, and its call waits for it', { timeout: 60_000 }, async () => {
    const home = await homeThatRanBefore();
    await withEngine(home, async (engine) => {
      const { client, toolsChanged } = await connect(engine, 'p');
      const t0 = Date.now();
      const { tools } = await client.listTools();
      const listedAfter = Date.now() - t0;
      expect(tools.map((t) => t.name)).toEqual(['slow__ping']);
      expect(tools[0]!.description).toBe('Answers "pong".');
      expect(engine.supervisor.get('slow')!.state).toBe('starting');
      expect(listedAfter).toBeLessThan(DELAY_MS);
      // The call is held until the server is up, then answered.
      expect(text(await client.callTool({ name: 'slow__ping', arguments: {} }))).toBe('pong');
      expect(engine.supervisor.get('slow')!.state).toBe('ready');
      // Its live tools are the ones shown: nothing to tell the client.
      await new Promise((r) => setTimeout(r, 4 * LIST_CHANGED_WINDOW_MS));
      expect(toolsChanged()).toBe(0);
      await client.close();
    });
  });

  it('describes execute with the known server\'s tools while it starts (code mode)', { timeout: 60_000 }, async () => {
    const home = await homeThatRanBefore();
    await withEngine(home, async (engine) => {
      const { client } = await connect(engine, 'code');
      const { tools } = await client.listTools();
      expect(engine.supervisor.get('slow')!.state).toBe('starting');
      const execute = tools.find((t) => t.name === 'execute')!;
      expect(JSON.stringify(execute)).toContain('ping');
      await client.close();
    });
  });

  it('tells the client once when the live tools differ from the ones it was shown', { timeout: 60_000 }, async () => {
    const home = await homeThatRanBefore();
    configure(home, { EXTRA_TOOL: 'pong_twice' });
    await withEngine(home, async (engine) => {
      const { client, toolsChanged } = await connect(engine, 'p');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['slow__ping']);
      await waitFor(() => toolsChanged() > 0, 20_000, 'tools list_changed');
      await new Promise((r) => setTimeout(r, 4 * LIST_CHANGED_WINDOW_MS));
      expect(toolsChanged()).toBe(1);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['slow__ping', 'slow__pong_twice']);
      await client.close();
    });
  });

  it('answers a call to a known server that fails to start with an error naming it', { timeout: 60_000 }, async () => {
    const home = await homeThatRanBefore();
    configure(home, { FAIL_AFTER_DELAY: '1' });
    await withEngine(home, async (engine) => {
      const { client, toolsChanged } = await connect(engine, 'p');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['slow__ping']);
      const t0 = Date.now();
      const r = (await client.callTool({ name: 'slow__ping', arguments: {} })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/The server "slow" is restarting/);
      expect(text(r)).toContain('could not load its index');
      // Bounded by its start: the call ended when the start did, not at a later timeout.
      expect(Date.now() - t0).toBeLessThan(DELAY_MS + 10_000);
      // Its tools are gone from the list, and the client is told.
      await waitFor(() => toolsChanged() > 0, 5000, 'tools list_changed');
      expect((await client.listTools()).tools).toEqual([]);
      await client.close();
    });
  });
});
