// Both protocol generations through a profile, end to end: real clients (v1 and v2 SDK) →
// the real shim or the HTTP endpoint → a real engine → v2-SDK and v1-SDK upstreams.
import { afterAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';

afterAll(cleanupHomes);

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe('modern upstreams through a profile', () => {
  const home = makeHome({
    servers: { modern: fixtureServer('v2-modern.mjs'), both: fixtureServer('v2-both.mjs'), legacy: fixtureServer('basic.mjs') },
    profiles: { main: { servers: ['modern', 'both', 'legacy'] } },
  });

  it("serves a modern-only upstream's tools to a 2025 client (was: failed to start, MCP error -32022)", async () => {
    const client = await shimClient(home, 'main', { capabilities: { elicitation: {} } });
    const { tools } = await waitFor(async () => {
      const r = await client.listTools();
      return r.tools.some((t) => t.name === 'modern__echo') && r.tools.some((t) => t.name === 'legacy__echo') ? r : undefined;
    }, 20_000, 'all servers to be ready');
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['modern__echo', 'modern__ask', 'both__echo', 'legacy__echo']));
    expect(text(await client.callTool({ name: 'modern__echo', arguments: { text: 'through the gateway' } }))).toBe('through the gateway');
    expect(text(await client.callTool({ name: 'legacy__echo', arguments: { text: 'old' } }))).toBe('old');
    await client.close();
  });

  it('shows the negotiated revision per server in status --json', async () => {
    const status = JSON.parse(cli(home, ['status', '--json']).stdout) as { servers: Record<string, { protocol: string | null }> };
    expect(status.servers.modern!.protocol).toBe('2026-07-28');
    expect(status.servers.both!.protocol).toBe('2026-07-28');
    expect(status.servers.legacy!.protocol).toBe('2025-11-25');
  });
});
