// The one wait before a cold engine answers (Supervisor.settle), and list_changed coalescing
// per session. Real fixture servers; a real client over the SDK's in-memory transport to a real
// engine in this process.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Supervisor } from '../../../src-main/engine/upstream/supervisor.ts';
import { Engine } from '../../../src-main/engine/engine.ts';
import { LIST_CHANGED_WINDOW_MS } from '../../../src-main/engine/gateway/session-2025-11-25.ts';
import { cleanupHomes, fixtureServer, makeHome, waitFor } from '../../helpers/home.ts';

const slow = (ms: number) => fixtureServer('slow-start.mjs', { env: { START_DELAY_MS: String(ms) } }) as never;

describe('Supervisor.settle', () => {
  let dir: string;
  let sup: Supervisor;
  afterEach(async () => {
    await sup.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  const make = () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sb-settle-'));
    sup = new Supervisor({ logsDir: path.join(dir, 'logs'), backoffInitialMs: 5000, killGraceMs: 500 });
    return sup;
  };

  it('ends as soon as a starting server is ready, long before its bound', async () => {
    make().apply({ soon: slow(300) });
    const t0 = Date.now();
    expect(await sup.settle(['soon'], 20_000)).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(sup.get('soon')!.state).toBe('ready');
  });

  it('ends at its bound and names the servers still starting', async () => {
    make().apply({ late: slow(60_000), soon: slow(0) });
    await sup.get('soon')!.waitReady(15_000);
    const t0 = Date.now();
    expect(await sup.settle(['late', 'soon', 'not-configured'], 200)).toEqual(['late']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
  });

  it('does not wait for a server retrying after a failed start', async () => {
    make().apply({ crashy: fixtureServer('crash-at-start.mjs') as never });
    await waitFor(() => sup.get('crashy')!.state === 'restarting', 15_000, 'the first failed start');
    const t0 = Date.now();
    expect(await sup.settle(['crashy'], 10_000)).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(100);
  });

  it('ends when the caller gives up, and when the supervisor stops', async () => {
    make().apply({ late: slow(60_000) });
    const ctrl = new AbortController();
    const aborted = sup.settle(['late'], 20_000, ctrl.signal);
    setTimeout(() => ctrl.abort(), 50);
    expect(await aborted).toEqual(['late']);
    const stopped = sup.settle(['late'], 20_000);
    const t0 = Date.now();
    await sup.dispose();
    expect(await stopped).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});

describe('list_changed per session', () => {
  let engine: Engine;
  let client: Client;
  const changed = { tools: 0, resources: 0, prompts: 0 };
  const windows = (n: number) => new Promise((r) => setTimeout(r, n * LIST_CHANGED_WINDOW_MS));

  beforeAll(async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    engine = await Engine.start({ home, port: null });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await engine.gateway.connect('p', serverSide, { kind: 'socket' });
    client = new Client({ name: 'list-changed-test', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed.tools++);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => void changed.resources++);
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => void changed.prompts++);
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    await engine?.dispose();
    await cleanupHomes();
  });

  it('sends one per list per window, and none for a list the client never asked for', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('basic__echo');
    for (let i = 0; i < 7; i++) engine.gateway.catalogChanged('basic');
    await windows(4);
    expect(changed).toEqual({ tools: 1, resources: 0, prompts: 0 });
    // A later change is told again: coalescing is per window, not once per session.
    await client.listPrompts();
    for (let i = 0; i < 7; i++) engine.gateway.catalogChanged('basic');
    await windows(4);
    expect(changed).toEqual({ tools: 2, resources: 0, prompts: 1 });
  });
});
