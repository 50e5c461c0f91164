// Both protocol generations through a profile, end to end: real clients (v1 and v2 SDK) →
// the real shim or the HTTP endpoint → a real engine → v2-SDK and v1-SDK upstreams.
import { afterAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { auditEntryOf, cleanupHomes, cli, enginePid, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';

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

  it('relays progress from a modern upstream to a 2025 client, and cancels the upstream call when the client aborts', async () => {
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const client = await shimClient(home, 'main', { name: 'legacy-canceller', capabilities: { elicitation: {} } });
    // The question mid-call is never answered: the call waits until the client gives up.
    client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => {}));
    await waitFor(async () => ((await client.listTools()).tools.some((t) => t.name === 'modern__progress') ? true : undefined), 20_000, 'tools');
    const seen: number[] = [];
    await client.callTool({ name: 'modern__progress', arguments: { steps: 3 } }, undefined, { onprogress: (p) => void seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
    const ctrl = new AbortController();
    const call = client.callTool({ name: 'modern__ask', arguments: {} }, undefined, { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 500);
    await expect(call).rejects.toThrow();
    const entry = await auditEntryOf(home, 'legacy-canceller', 'ask');
    expect(entry.outcome).toBe('cancelled');
    await client.close();
  });

  it('shows the negotiated revision per server in status --json', async () => {
    const status = JSON.parse(cli(home, ['status', '--json']).stdout) as { servers: Record<string, { protocol: string | null }> };
    expect(status.servers.modern!.protocol).toBe('2026-07-28');
    expect(status.servers.both!.protocol).toBe('2026-07-28');
    expect(status.servers.legacy!.protocol).toBe('2025-11-25');
  });
});

describe('clients of both generations through the shim', () => {
  const home = makeHome({
    servers: { modern: fixtureServer('v2-modern.mjs'), legacy: fixtureServer('basic.mjs') },
    profiles: { main: { servers: ['modern', 'legacy'] }, code: { servers: ['modern', 'legacy'], surface: 'code' } },
  });

  for (const mode of ['legacy', 'auto', { pin: '2026-07-28' }] as const) {
    const label = typeof mode === 'string' ? mode : `pinned ${mode.pin}`;
    it(`serves a v2-SDK client in ${label} mode`, async () => {
      const client = await v2ShimClient(home, 'main', mode);
      const era = typeof mode === 'string' && mode === 'legacy' ? 'legacy' : 'modern';
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      const { tools } = await waitFor(async () => {
        const r = await client.listTools(undefined, { cacheMode: 'refresh' });
        return r.tools.some((t) => t.name === 'modern__echo') && r.tools.some((t) => t.name === 'legacy__echo') ? r : undefined;
      }, 20_000, 'both servers to be listed');
      const echo = tools.find((t) => t.name === 'modern__echo')!;
      expect(echo).toMatchObject({ title: 'Echo', _meta: { 'anthropic/alwaysLoad': true, ui: { resourceUri: 'ui://v2/panel' } } });
      expect(text(await client.callTool({ name: 'modern__echo', arguments: { text: label } }))).toBe(label);
      expect(text(await client.callTool({ name: 'legacy__echo', arguments: { text: 'x' } }))).toBe('x');
      await client.close();
    });
  }

  it("relays the servers' extensions capabilities (MCP Apps) to clients of both eras", async () => {
    const first = await v2ShimClient(home, 'main', 'legacy');
    await waitFor(async () => ((await first.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'modern__echo') ? true : undefined), 20_000, 'tools');
    await first.close();
    for (const mode of ['legacy', { pin: '2026-07-28' }] as const) {
      const client = await v2ShimClient(home, 'main', mode);
      // The tasks extension is the gateway's own, offered to 2026-07-28 clients (tasks.test.ts).
      const own = mode === 'legacy' ? {} : { 'io.modelcontextprotocol/tasks': {} };
      expect(client.getServerCapabilities()?.extensions, JSON.stringify(mode)).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, ...own });
      await client.close();
    }
  });

  it('answers server/discover with the profile and names the client from _meta.clientInfo in the audit', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' }, 'pinned-auditor');
    const discover = client.getDiscoverResult()!;
    expect(discover.supportedVersions).toContain('2026-07-28');
    expect(discover.capabilities.tools).toBeDefined();
    await waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'modern__echo') ? true : undefined), 20_000, 'tools');
    await client.callTool({ name: 'modern__echo', arguments: { text: 'audited' } });
    // On the shim's socket a 2026-07-28 client is a session: status names it from its _meta.
    const status = JSON.parse(cli(home, ['status', '--json']).stdout) as { clients: { name: string; transport: string; era?: string; stateless?: boolean }[] };
    expect(status.clients.find((c) => c.name === 'pinned-auditor')).toMatchObject({ transport: 'socket', era: 'modern' });
    expect(status.clients.find((c) => c.name === 'pinned-auditor')!.stateless).toBeUndefined();
    await client.close();
    const audit = await waitFor(() => {
      const r = cli(home, ['audit', '--json', '--limit', '20']);
      const entries = JSON.parse(r.stdout) as { client: string; tool: string }[];
      return entries.find((e) => e.client === 'pinned-auditor');
    }, 10_000, 'the audit entry');
    expect(audit.tool).toBe('echo');
  });

  it('runs execute for a modern client over a modern and a legacy upstream', async () => {
    const client = await v2ShimClient(home, 'code', { pin: '2026-07-28' });
    const r = await waitFor(async () => {
      const res = await client.callTool({
        name: 'execute',
        arguments: { code: 'async () => { const a = await modern.echo({ text: "m" }); const b = await legacy.echo({ text: "l" }); return [a, b]; }' },
      });
      return text(res).includes('Result:') && !(res as CallToolResult).isError ? res : undefined;
    }, 20_000, 'execute to succeed');
    expect(text(r)).toContain('"m"');
    expect(text(r)).toContain('"l"');
    await client.close();
  });
});

describe('change notifications across eras', () => {
  const home = makeHome({
    servers: { modern: fixtureServer('v2-modern.mjs'), legacy: fixtureServer('basic.mjs', { env: { FIXTURE_TOOLS_EXTRA: '1' } }) },
    profiles: { main: { servers: ['modern', 'legacy'] } },
  });

  it('relays resources/updated of a modern upstream to a 2025 client that subscribed (resources/subscribe → subscriptions/listen)', async () => {
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const client = await shimClient(home, 'main');
    await waitFor(async () => ((await client.listResources()).resources.some((r) => r.uri === 'v2://counter') ? true : undefined), 20_000, 'the modern resources');
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'v2://counter' });
    await client.callTool({ name: 'modern__touch', arguments: {} });
    await waitFor(() => (updated.includes('v2://counter') ? true : undefined), 10_000, 'resources/updated');
    await client.close();
  });

  it('delivers list changes and resource updates to a 2026-07-28 client on its listen stream', async () => {
    // A home of its own: no other client has subscribed the upstream to the resource before.
    const home = makeHome({
      servers: { modern: fixtureServer('v2-modern.mjs'), legacy: fixtureServer('basic.mjs', { env: { FIXTURE_TOOLS_EXTRA: '1' } }) },
      profiles: { main: { servers: ['modern', 'legacy'] } },
    });
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' });
    await waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'legacy__add_tool') ? true : undefined), 20_000, 'tools');
    const seen: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void seen.push('tools'));
    client.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(`updated ${n.params.uri}`));
    const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['v2://counter'] });
    await client.callTool({ name: 'modern__touch', arguments: {} });
    await waitFor(() => (seen.includes('updated v2://counter') ? true : undefined), 10_000, 'resources/updated on the stream');
    // A 2025 upstream's tools/list_changed reaches the modern client as well.
    await client.callTool({ name: 'legacy__add_tool', arguments: {} });
    await waitFor(() => (seen.includes('tools') ? true : undefined), 10_000, 'tools/list_changed on the stream');
    await sub.close();
    await client.close();
  });
});

describe('mid-call input across eras', () => {
  const home = makeHome({
    servers: { modern: fixtureServer('v2-modern.mjs'), legacy: fixtureServer('basic.mjs') },
    profiles: { main: { servers: ['modern', 'legacy'] }, code: { servers: ['modern', 'legacy'], surface: 'code' } },
  });
  const ready = async (client: { listTools: (p?: undefined, o?: never) => Promise<{ tools: { name: string }[] }> }, name: string) =>
    waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' } as never)).tools.some((t) => t.name === name) ? true : undefined), 20_000, name);

  it('2025 client ↔ modern server: input_required becomes elicitation/create to the caller', async () => {
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const client = await shimClient(home, 'main', { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (r) => {
      asked.push(String(r.params.message));
      return { action: 'accept', content: { name: 'Lin' } };
    });
    await ready(client as never, 'modern__ask');
    expect(text(await client.callTool({ name: 'modern__ask', arguments: {} }))).toBe('hello Lin');
    expect(asked).toEqual(['What is your name?']);
    await client.close();
  });

  it('modern client ↔ 2025 server: elicitation/create becomes input_required, the retry answers it', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' });
    await ready(client as never, 'legacy__elicit');
    const r = await client.callTool({ name: 'legacy__elicit', arguments: {} });
    expect(JSON.parse(text(r))).toEqual({ action: 'accept', content: { name: 'Ada' } });
    await client.close();
  });

  it('modern client ↔ 2025 server: sampling/createMessage becomes input_required too', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' });
    await ready(client as never, 'legacy__sample');
    expect(text(await client.callTool({ name: 'legacy__sample', arguments: {} }))).toBe('sampled hi');
    await client.close();
  });

  it('modern client ↔ modern server: the question goes through the gateway and back', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' });
    await ready(client as never, 'modern__ask');
    expect(text(await client.callTool({ name: 'modern__ask', arguments: {} }))).toBe('hello Ada');
    await client.close();
  });

  it('execute: a tool inside code that asks for input is relayed to a modern caller', async () => {
    const client = await v2ShimClient(home, 'code', { pin: '2026-07-28' });
    await ready(client as never, 'execute');
    const r = await waitFor(async () => {
      const res = await client.callTool({ name: 'execute', arguments: { code: 'async () => { const a = await legacy.elicit({}); const b = await modern.ask({}); return [a, b]; }' } });
      return text(res).includes('Result:') ? res : undefined;
    }, 20_000, 'execute to run');
    expect(text(r)).toContain('Ada');
    expect(text(r)).toContain('hello Ada');
    await client.close();
  });

  it('execute: a modern tool asking mid-call inside code reaches a 2025 caller, and is declined for one that cannot answer', async () => {
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const able = await shimClient(home, 'code', { capabilities: { elicitation: {} } });
    able.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Lin' } }));
    const unable = await shimClient(home, 'code');
    const src = 'async () => (await modern.ask({}))';
    const run = (c: typeof able) =>
      waitFor(async () => {
        const res = await c.callTool({ name: 'execute', arguments: { code: src } });
        return text(res).includes('Result:') ? text(res) : undefined;
      }, 20_000, 'execute to run');
    expect(await run(able)).toContain('hello Lin');
    // No client that can answer: the server hears "declined" and says so in its result.
    expect(await run(unable)).toContain('no name (decline)');
    await able.close();
    await unable.close();
  });

  it('refuses a requestState it did not issue', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' });
    await ready(client as never, 'modern__echo');
    await expect(
      client.request({ method: 'tools/call', params: { name: 'modern__echo', arguments: { text: 'x' }, requestState: 'forged', inputResponses: {} } }),
    ).rejects.toThrow(/requestState/);
    await client.close();
  });
});

describe('progress, cancellation and resources for a modern client', () => {
  const home = makeHome({
    servers: { modern: fixtureServer('v2-modern.mjs'), legacy: fixtureServer('basic.mjs') },
    profiles: { main: { servers: ['modern', 'legacy'] } },
  });

  it('relays progress from servers of both eras', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' });
    await waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'legacy__progress') ? true : undefined), 20_000, 'tools');
    for (const name of ['legacy__progress', 'modern__progress']) {
      const seen: number[] = [];
      await client.callTool({ name, arguments: { steps: 3 } }, { onprogress: (p) => void seen.push(p.progress) });
      expect(seen, name).toEqual([1, 2, 3]);
    }
    await client.close();
  });

  it('cancels the upstream call when the modern client aborts', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' }, 'canceller');
    await waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'legacy__sleep') ? true : undefined), 20_000, 'tools');
    const ctrl = new AbortController();
    const call = client.callTool({ name: 'legacy__sleep', arguments: { ms: 30_000 } }, { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 300);
    await expect(call).rejects.toThrow();
    const entry = await auditEntryOf(home, 'canceller', 'sleep');
    expect(entry.outcome).toBe('cancelled');
    await client.close();
  });

  it('lists and reads a ui:// resource and gets a prompt of a 2025 server', async () => {
    const client = await v2ShimClient(home, 'main', { pin: '2026-07-28' });
    const { resources } = await waitFor(async () => {
      const r = await client.listResources(undefined, { cacheMode: 'refresh' });
      return r.resources.some((x) => x.uri === 'ui://v2/panel') && r.resources.some((x) => x.uri === 'fixture://readme') ? r : undefined;
    }, 20_000, 'resources of both');
    expect(resources.find((r) => r.uri === 'ui://v2/panel')).toMatchObject({ mimeType: 'text/html;profile=mcp-app', _meta: { ui: { prefersBorder: true } } });
    const read = await client.readResource({ uri: 'ui://v2/panel' }, { cacheMode: 'bypass' });
    expect(read.contents[0]).toMatchObject({ uri: 'ui://v2/panel', text: '<p>panel</p>' });
    const prompts = await client.listPrompts(undefined, { cacheMode: 'refresh' });
    const greet = prompts.prompts.find((p) => p.name.endsWith('greet'))!;
    const got = await client.getPrompt({ name: greet.name, arguments: { who: 'Ada' } });
    expect(JSON.stringify(got.messages)).toContain('Hello Ada');
    await client.close();
  });
});

describe('a 2026-07-28 client across an engine restart', () => {
  it('keeps working after the engine dies: nothing to resume in a stateless era', async () => {
    const home = makeHome({ servers: { modern: fixtureServer('v2-modern.mjs'), legacy: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['modern', 'legacy'] } } });
    const client = await v2ShimClient(home, 'p', { pin: '2026-07-28' });
    await waitFor(async () => ((await client.listTools(undefined, { cacheMode: 'refresh' })).tools.some((t) => t.name === 'modern__echo') ? true : undefined), 20_000, 'tools');
    const pid = enginePid(home)!;
    process.kill(pid, 'SIGKILL');
    const r = await waitFor(async () => {
      try {
        return await client.callTool({ name: 'modern__echo', arguments: { text: 'after' } });
      } catch {
        return undefined;
      }
    }, 20_000, 'a call after the restart');
    expect(text(r)).toBe('after');
    expect(enginePid(home)).not.toBe(pid);
    // The new engine names the client from the request's own _meta, with no initialize to replay.
    const entries = JSON.parse(cli(home, ['audit', '--json', '--limit', '5']).stdout) as { client: string; tool: string }[];
    expect(entries.find((e) => e.tool === 'echo')?.client).toBe('v2-test-client');
    await client.close();
  });
});

async function v2ShimClient(home: string, profile: string, mode: 'legacy' | 'auto' | { pin: string }, name = 'v2-test-client') {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const { BIN } = await import('../../helpers/home.ts');
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode }, capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled hi' } }));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'shim', '--profile', profile, '--home', home], stderr: 'pipe' }));
  return client;
}
