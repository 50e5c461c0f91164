// Tool names that always fit (docs/clients.md): every client whose model API caps tool names gets the
// 117 GitHub tools under names that fit its cap with its own prefix (Claude Code's
// mcp__switchboard-demo__ and so on), all distinct, the same every session, and each one calls
// the right upstream tool — on the fast path and on the SDK path. A real engine in this process,
// the catalog fixture server, real SDK clients on the engine's socket as the shim connects.
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Engine } from '../../../src-main/engine/engine.ts';
import { LineTransport } from '../../../src-main/engine/gateway/line-transport.ts';
import { CLIENT_LIMITS, LIMITED_CLIENT_IDS, type LimitedClientId } from '../../../src-shared/client-limits.ts';
import { cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';

const GITHUB = path.resolve(__dirname, '../../fixtures/catalogs/github.json');
// The default profile's name in the issue: Claude Code's prefix mcp__switchboard-demo__ is 23 characters.
const PROFILE = 'demo';
let engine: Engine;

beforeAll(async () => {
  const home = makeHome({
    servers: { github: fixtureServer('catalog.mjs', { env: { CATALOG_FILE: GITHUB } }) },
    profiles: { [PROFILE]: { servers: ['github'] }, code: { servers: ['github'], surface: 'code' } },
  });
  engine = await Engine.start({ home, port: null });
  await engine.supervisor.get('github')!.waitReady(30_000);
}, 60_000);

afterAll(async () => {
  await engine?.dispose();
  await cleanupHomes();
});

/** A client on the engine's socket as a shim started from `connect CLIENT`'s entry is (`--client CLIENT`). */
async function asClient(profile: string, connector: string | undefined, name = 'some-agent'): Promise<Client> {
  const sock = net.connect(engine.paths.socket);
  await new Promise<void>((resolve, reject) => sock.once('connect', resolve).once('error', reject));
  sock.write(JSON.stringify({ kind: 'mcp', profile, v: 1, ...(connector ? { client: connector } : {}) }) + '\n');
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new LineTransport(sock));
  return client;
}

async function namesFor(connector: string | undefined, name?: string): Promise<string[]> {
  const c = await asClient(PROFILE, connector, name);
  try {
    return (await c.listTools()).tools.map((t) => t.name);
  } finally {
    await c.close();
  }
}

describe.each(LIMITED_CLIENT_IDS.map((id) => [id] as const))('%s', (id: LimitedClientId) => {
  const limits = CLIENT_LIMITS[id];
  const entry = `switchboard-${PROFILE}`;

  it('gets all 117 tools under names that fit its cap with its prefix, distinct and the same every session', async () => {
    const names = await namesFor(id);
    expect(names).toHaveLength(117);
    expect(new Set(names).size).toBe(117);
    for (const n of names) {
      const composed = limits.composedName(entry, n);
      expect(composed.length, composed).toBeLessThanOrEqual(limits.maxNameChars);
      expect(composed, composed).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]*$/);
    }
    // A name that fits is left as it is.
    expect(names).toContain('github__get_me');
    expect(await namesFor(id)).toEqual(names);
  });

  it('calls the right upstream tool for every name, on the fast path and on the SDK path', { timeout: 60_000 }, async () => {
    const c = await asClient(PROFILE, id);
    try {
      const tools = (await c.listTools()).tools;
      const upstream = (await engine.supervisor.get('github')!.tools()).map((t) => t.name).sort();
      for (const fast of [true, false]) {
        engine.gateway.knobs.fastPath = fast;
        const before = { ...engine.gateway.stats };
        const called: string[] = [];
        for (const t of tools) {
          const res = (await c.callTool({ name: t.name, arguments: { probe: t.name } })) as CallToolResult;
          expect(res.isError, `${t.name}: ${JSON.stringify(res.content)}`).toBeFalsy();
          const echoed = JSON.parse((res.content[0] as { text: string }).text) as { tool: string; args: { probe: string } };
          expect(echoed.args.probe).toBe(t.name);
          called.push(echoed.tool);
        }
        expect(called.sort()).toEqual(upstream);
        const direct = engine.gateway.stats.directCalls - before.directCalls;
        expect(direct).toBe(fast ? tools.length : 0);
      }
    } finally {
      engine.gateway.knobs.fastPath = true;
      await c.close();
    }
  });
});

describe('whom names are shortened for', () => {
  it("Claude Code's 65-character name from the issue is shortened, readable, for Claude Code only", async () => {
    const claude = await namesFor('claude-code');
    const plain = await namesFor(undefined);
    // The profile's own names: what a client with no known cap gets.
    const long = plain.filter((n) => `mcp__switchboard-demo__${n}`.length > 64);
    expect(long.length).toBeGreaterThan(0);
    for (const n of long) expect(claude).not.toContain(n);
    const short = claude.filter((n) => !plain.includes(n));
    expect(short).toHaveLength(long.length);
    // Readable: the start of the server and tool name, then a short hash.
    for (const s of short) expect(s).toMatch(/^github__[a-z_]+_[0-9a-f]{8}$/);
  });

  it('knows the client from its clientInfo too (Claude Code says "claude-code")', async () => {
    expect(await namesFor(undefined, 'claude-code')).toEqual(await namesFor('claude-code'));
  });

  it('the control API and status say which names are shortened', async () => {
    const c = await asClient(PROFILE, 'claude-code');
    try {
      await c.listTools();
      const r = (await engine.control.handle('profiles.clientLimits', { profile: PROFILE, client: 'claude-code' })) as { warnings: string[]; shortened?: string; limits: unknown };
      expect(r.warnings).toEqual([]);
      expect(r.shortened).toMatch(/^Claude Code takes tool names of at most 64 characters with its prefix "mcp__switchboard-demo__", so \d+ names of profile "demo" are shortened for it \("github__/);
      expect(r.limits).toEqual({ client: 'claude-code', maxNameChars: 64 });
    } finally {
      await c.close();
    }
  });

  it('code mode needs no shortening: its few tools fit every client', async () => {
    const c = await asClient('code', 'cursor');
    try {
      const names = (await c.listTools()).tools.map((t) => t.name);
      for (const n of names) expect(`switchboard-code_${n}`.length).toBeLessThanOrEqual(60);
    } finally {
      await c.close();
    }
  });
});
