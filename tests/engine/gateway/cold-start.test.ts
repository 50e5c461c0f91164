// The first minutes of a new user: a new home (the first run writes the demo profiles over the
// three bundled reference servers) and a first request that arrives while those servers are
// still starting. Real CLI, real shim, real engine, real servers.
import { afterAll, describe, expect, it } from 'vitest';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cleanupHomes, cli, makeHome, shimClient } from '../../helpers/home.ts';
import { serve } from '../../helpers/serve.ts';
import { LIST_CHANGED_WINDOW_MS } from '../../../src-main/engine/gateway/session-2025-11-25.ts';

afterAll(cleanupHomes);

const DEMO_SERVERS = ['everything', 'memory', 'files'];

describe('a cold engine on a new home', () => {
  it('runs the first exec against the demo servers on the first try', () => {
    const home = makeHome();
    const r = cli(home, ['exec', '--profile', 'demo-code', '-'], 'async () => everything.echo({ message: "hi" })');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Result:\n.*hi/);
  });

  it('runs code over HTTP (/api/exec and execute at /mcp/<profile>) right after serve starts', async () => {
    const s = await serve(makeHome());
    try {
      const code = 'async () => everything.echo({ message: "over http" })';
      const api = fetch(`${s.url}/api/exec`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ profile: 'demo-code', code }),
      }).then((r) => r.json() as Promise<{ result: { text: string; isError: boolean } }>);
      const client = new Client({ name: 'cold-http', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/demo-code`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }),
      );
      const mcp = (await client.callTool({ name: 'execute', arguments: { code } })) as CallToolResult;
      expect(mcp.isError).toBeFalsy();
      expect((mcp.content[0] as { text: string }).text).toContain('over http');
      const { result } = await api;
      expect(result.isError).toBe(false);
      expect(result.text).toContain('over http');
      await client.close();
    } finally {
      await s.stop();
    }
  });

  it("sizes a profile's catalog for the app right after serve starts, over every server", async () => {
    const s = await serve(makeHome());
    try {
      const r = await fetch(`${s.url}/api/profiles.catalog`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ profile: 'demo-code' }),
      });
      const { result } = (await r.json()) as { result: { declarations: string } };
      for (const server of DEMO_SERVERS) expect(result.declarations).toContain(`declare const ${server}:`);
    } finally {
      await s.stop();
    }
  });

  it('answers the first lists through the shim with every server, and sends no list_changed burst', async () => {
    const home = makeHome();
    const client = await shimClient(home, 'demo');
    const changed = { tools: 0, resources: 0, prompts: 0 };
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed.tools++);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => void changed.resources++);
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => void changed.prompts++);
    // All at once, right after initialize, as clients do; the prompt by a name the client knew
    // from an earlier session.
    const [tools, templates, resources, prompts, prompt] = await Promise.all([
      client.listTools(),
      client.listResourceTemplates(),
      client.listResources(),
      client.listPrompts(),
      client.getPrompt({ name: 'demo__everything__simple-prompt' }),
    ]);
    const servers = new Set(tools.tools.map((t) => t.name.split('__')[0]));
    expect([...servers].sort()).toEqual([...DEMO_SERVERS].sort());
    expect(templates.resourceTemplates.length).toBeGreaterThan(0);
    expect(resources.resources.length).toBeGreaterThan(0);
    expect(prompts.prompts.map((p) => p.name)).toContain('demo__everything__simple-prompt');
    expect(prompt.messages.length).toBeGreaterThan(0);
    const echo = (await client.callTool({ name: 'everything__echo', arguments: { message: 'x' } })) as CallToolResult;
    expect(echo.isError).toBeFalsy();
    // Anything still due has had several windows to arrive.
    await new Promise((r) => setTimeout(r, 5 * LIST_CHANGED_WINDOW_MS));
    expect(changed.tools).toBeLessThanOrEqual(1);
    expect(changed.resources).toBeLessThanOrEqual(1);
    expect(changed.prompts).toBeLessThanOrEqual(1);
    await client.close();
  });

  it('gives the code surface its full execute description and search on a cold start', async () => {
    const home = makeHome();
    const client = await shimClient(home, 'demo-code');
    const [list, search] = await Promise.all([
      client.listTools(),
      client.callTool({ name: 'search_tools', arguments: { query: 'echo' } }) as Promise<CallToolResult>,
    ]);
    const execute = list.tools.find((t) => t.name === 'execute')!;
    for (const s of DEMO_SERVERS) expect(execute.description).toContain(`\`${s}\``);
    // The demo's declarations (about 16,000 characters) are over the 12,000 inline limit.
    expect(list.tools.map((t) => t.name)).toContain('search_tools');
    expect((search!.content[0] as { text: string }).text).toContain('everything.echo');
    await client.close();
  });
});
