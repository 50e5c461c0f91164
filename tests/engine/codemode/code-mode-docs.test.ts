// Every statement of the code-mode docs page (docs/code-mode.md), each as a test
// named after it, through a real MCP client, the real shim and a real engine.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, cli, fixtureServer, makeHome, referenceServer, shimClient, waitFor } from '../../helpers/home.ts';

const GITHUB = path.resolve(__dirname, '../../fixtures/catalogs/github.json');

afterAll(cleanupHomes);

let home: string;
let client: Client;

beforeAll(async () => {
  home = makeHome({
    servers: {
      basic: fixtureServer('basic.mjs'),
      'beta-2': fixtureServer('basic.mjs'),
      slow: fixtureServer('slow.mjs', { callTimeoutSec: 1 }),
      everything: referenceServer('everything', ['stdio']),
      github: fixtureServer('catalog.mjs', { env: { CATALOG_FILE: GITHUB } }),
    },
    profiles: {
      code: {
        servers: ['basic', 'beta-2', 'slow', 'everything'],
        surface: 'code',
        tools: { basic: { deny: ['fail'] }, everything: { allow: ['get-tiny-image', 'get-structured-content', 'echo'] } },
      },
      big: { servers: ['github', 'basic'], surface: 'code' },
      tight: {
        servers: ['basic', 'slow'],
        surface: 'code',
        budgets: { timeoutMs: 1500, maxToolCalls: 3, maxSourceBytes: 200, maxResultChars: 100, memoryMb: 16 },
      },
      direct: { servers: ['basic'] },
    },
  });
  client = await shimClient(home, 'code', { name: 'docs-client' });
  // Wait until every server of the profile is up.
  await waitFor(async () => {
    const r = await run('async () => typeof everything.get_tiny_image');
    return r.text.includes('"function"') || undefined;
  }, 30_000, 'servers ready');
}, 60_000);

async function run(code: string, c: Client = client): Promise<{ text: string; isError: boolean; raw: CallToolResult }> {
  const raw = (await c.callTool({ name: 'execute', arguments: { code } }, undefined, { timeout: 60_000 })) as CallToolResult;
  return { text: (raw.content[0] as { text: string }).text, isError: Boolean(raw.isError), raw };
}

function resultOf(text: string): unknown {
  const i = text.indexOf('Result:\n');
  expect(i, text).toBeGreaterThanOrEqual(0);
  return JSON.parse(text.slice(i + 'Result:\n'.length));
}

describe('code mode, as the docs page says', () => {
  it('With "surface": "code", a profile exposes one tool, execute, which takes a single argument, code', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['execute']);
    expect(Object.keys((tools[0]!.inputSchema as { properties: object }).properties)).toEqual(['code']);
  });

  it('The model writes an async arrow function that calls tools and returns a result; each server is a global, each tool a method', async () => {
    const r = await run(`async () => {
      const sum = await basic.add({ a: 2, b: 3 });
      const echoed = await basic.echo({ text: 'hi' });
      return { sum, echoed };
    }`);
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toEqual({ sum: { sum: 5 }, echoed: 'hi' });
  });

  it('A bare function body, or code wrapped in a Markdown fence, is accepted too', async () => {
    expect(resultOf((await run('const r = await basic.add({ a: 1, b: 1 });\nreturn r.sum;')).text)).toBe(2);
    expect(resultOf((await run('```js\nasync () => 40 + 2\n```')).text)).toBe(42);
  });

  it('Global and method names replace characters not valid in identifiers with _: a server named beta-2 is the global beta_2', async () => {
    expect(resultOf((await run('async () => await beta_2.echo({ text: "b2" })')).text)).toBe('b2');
    expect(resultOf((await run('async () => (await everything.get_structured_content({ location: "New York" })) !== undefined')).text)).toBe(true);
  });

  it('When the declarations of every tool fit in 12,000 characters, they are included in the execute description', async () => {
    const { tools } = await client.listTools();
    const d = tools[0]!.description!;
    expect(d).toContain('declare const basic');
    expect(d).toContain('declare const beta_2');
    expect(d).toMatch(/add\(args: \{[^}]*a: number/);
    // `fail` is denied for basic, but beta-2 (the same program) allows it.
    const basicBlock = d.slice(d.indexOf('declare const basic'), d.indexOf('};', d.indexOf('declare const basic')));
    expect(basicBlock).toContain('echo(');
    expect(basicBlock).not.toContain('fail(');
    expect(d).toContain('fail(');
  });

  it('For larger profiles they are left out, and search_tools and get_schema are listed next to execute with names as written in code', async () => {
    const big = await shimClient(home, 'big');
    const { tools } = await waitFor(async () => {
      const r = await big.listTools();
      return r.tools.length === 3 ? r : undefined;
    }, 20_000);
    expect(tools.map((t) => t.name).sort()).toEqual(['execute', 'get_schema', 'search_tools']);
    expect(tools.find((t) => t.name === 'execute')!.description).not.toContain('declare const github');
    const found = (await big.callTool({ name: 'search_tools', arguments: { query: 'create issue', limit: 5 } })) as CallToolResult;
    const hits = JSON.parse((found.content[0] as { text: string }).text) as { name: string }[];
    expect(hits[0]!.name).toBe('github.create_issue');
    const schema = (await big.callTool({ name: 'get_schema', arguments: { names: ['github.create_issue'] } })) as CallToolResult;
    expect((schema.content[0] as { text: string }).text).toMatch(/create_issue\(args: \{/);
    await big.close();
  });

  it('Inside the sandbox, catalog.search returns matching tools and catalog.describe returns their TypeScript signatures', async () => {
    const big = await shimClient(home, 'big');
    const r = await run(
      `async () => {
        const hits = await catalog.search("create issue", 3);
        const sig = await catalog.describe(["github.create_issue"]);
        return { first: hits[0].name, count: hits.length, sig: sig.includes("create_issue(") };
      }`,
      big,
    );
    expect(resultOf(r.text)).toEqual({ first: 'github.create_issue', count: 3, sig: true });
    await big.close();
  });

  it('Tool results are unwrapped: structured content as an object, JSON text parsed, other text as a string', async () => {
    const r = await run(`async () => {
      const structured = await basic.add({ a: 1, b: 2 });
      const text = await basic.echo({ text: 'plain words' });
      const json = await basic.echo({ text: '{"parsed": [1, 2]}' });
      return { structured, text, json };
    }`);
    expect(resultOf(r.text)).toEqual({ structured: { sum: 3 }, text: 'plain words', json: { parsed: [1, 2] } });
  });

  it('Images and audio are replaced by a short note', async () => {
    const r = await run('async () => await everything.get_tiny_image({})');
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/\[image: image\/png/);
    expect(r.text.length).toBeLessThan(2000);
  });

  it('A tool that returns an error throws an Error, so try/catch works as expected', async () => {
    const direct = await shimClient(home, 'tight');
    const r = await run(
      `async () => {
        try { await basic.fail({}); return 'no throw'; }
        catch (e) { return { caught: e instanceof Error, message: String(e.message) }; }
      }`,
      direct,
    );
    const v = resultOf(r.text) as { caught: boolean; message: string };
    expect(v.caught).toBe(true);
    expect(v.message.length).toBeGreaterThan(0);
    await direct.close();
  });

  it('execute returns console output under Logs:, followed by the return value as JSON under Result:', async () => {
    const r = await run(`async () => {
      console.log('plain', 1);
      console.info('info line');
      console.warn('careful');
      console.error('bad');
      console.debug('details');
      return { done: true };
    }`);
    expect(r.text).toMatch(/^Logs:\nplain 1\n\[info\] info line\n\[warn\] careful\n\[error\] bad\n\[debug\] details\n\nResult:\n/);
    expect(resultOf(r.text)).toEqual({ done: true });
    const quiet = await run('async () => 5');
    expect(quiet.text).toBe('Result:\n5');
  });

  it('When a run fails, the error starts with its kind, with a hint such as the server globals when a name was not found', async () => {
    const unknown = await run('async () => await gitlab.list({})');
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^runtime: /);
    expect(unknown.text).toMatch(/basic.*beta_2|beta_2.*basic/s);
    const method = await run('async () => await basic.ech({ text: "x" })');
    expect(method.text).toMatch(/^runtime: /);
    expect(method.text).toContain('echo');
    const syntax = await run('async () => { return 1 +; }');
    expect(syntax.text).toMatch(/^syntax: .*line 1/s);
  });

  it('Code runs in a fresh runtime for every call: nothing is shared between runs', async () => {
    await run('async () => { globalThis.leak = 42; Object.prototype.polluted = 1; return 1; }');
    const r = await run('async () => [typeof globalThis.leak, typeof ({}).polluted]');
    expect(resultOf(r.text)).toEqual(['undefined', 'undefined']);
  });

  it('It has no fetch, require, process, timers or file system access: the only way out is a tool call', async () => {
    const r = await run(`async () => [typeof fetch, typeof require, typeof process, typeof setTimeout, typeof setInterval, typeof XMLHttpRequest, typeof WebSocket, typeof Deno, typeof std, typeof os]`);
    expect(resultOf(r.text)).toEqual(Array(10).fill('undefined'));
  });

  it('Every tool call from code goes through the profile checks and is recorded in the audit log: code cannot reach a tool outside its profile', async () => {
    const denied = await run('async () => typeof basic.fail');
    expect(resultOf(denied.text)).toBe('undefined');
    const r = await run('async () => { await basic.echo({ text: "audited from code" }); return 1; }');
    const runId = (r.raw._meta as Record<string, string>)['switchboard/runId'];
    expect(runId).toBeTruthy();
    const entries = JSON.parse(cli(home, ['audit', '--json', '--limit', '200']).stdout) as { runId?: string; tool: string; client: string }[];
    const mine = entries.filter((e) => e.runId === runId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ tool: 'echo', client: 'docs-client' });
  });

  it('Calls still pending when the run ends are cancelled', async () => {
    const r = await run('async () => { slow.wait({ ms: 5000 }).catch(() => {}); return "ended"; }');
    expect(resultOf(r.text)).toBe('ended');
    const entry = await waitFor(() => {
      const list = JSON.parse(cli(home, ['audit', '--json', '--limit', '50']).stdout) as { tool: string; outcome: string; runId?: string }[];
      const runId = (r.raw._meta as Record<string, string>)['switchboard/runId'];
      return list.find((e) => e.runId === runId && e.tool === 'wait');
    });
    expect(entry.outcome).toBe('cancelled');
  });

  describe('Budgets', () => {
    let tight: Client;
    beforeAll(async () => {
      tight = await shimClient(home, 'tight');
    });
    afterAll(async () => tight.close());

    it('The timeout also stops tight loops such as while (true) {}', async () => {
      const r = await run('async () => { while (true) {} }', tight);
      expect(r.text).toMatch(/^timeout: /);
    });

    it('Tool calls per run are limited by maxToolCalls', async () => {
      const r = await run('async () => { for (let i = 0; i < 5; i++) await basic.echo({ text: String(i) }); }', tight);
      expect(r.text).toMatch(/^budget: /);
    });

    it('Source size is limited by maxSourceBytes', async () => {
      const r = await run(`async () => "${'x'.repeat(300)}"`, tight);
      expect(r.text).toMatch(/^budget: /);
    });

    it('Memory is limited by memoryMb', async () => {
      const r = await run('async () => { let s = "x"; while (true) s += s; }', tight);
      expect(r.text).toMatch(/^memory: /);
    });

    it('A result longer than maxResultChars is cut off, with a note asking the model to return less', async () => {
      const r = await run('async () => "y".repeat(500)', tight);
      expect(r.isError).toBe(false);
      const body = r.text.slice(r.text.indexOf('Result:\n') + 8);
      expect(body.startsWith('"' + 'y'.repeat(50))).toBe(true);
      expect(r.text).toMatch(/return (less|a smaller)/i);
      expect(r.text.length).toBeLessThan(500);
    });

    it("Each server's callTimeoutSec still limits every single tool call", async () => {
      const r = await run('async () => { try { await slow.wait({ ms: 3000 }); return "waited"; } catch (e) { return String(e.message); } }');
      expect(String(resultOf(r.text))).toMatch(/callTimeoutSec/);
    });
  });

  it('Every run is kept in the run history: runs and runs show', async () => {
    const r = await run('async () => { console.log("for the history"); return await basic.add({ a: 5, b: 5 }); }');
    const runId = (r.raw._meta as Record<string, string>)['switchboard/runId'];
    const shown = JSON.parse(cli(home, ['runs', 'show', runId, '--json']).stdout);
    expect(shown).toMatchObject({ id: runId, profile: 'code', client: 'docs-client', result: { sum: 10 } });
    expect(shown.logs).toEqual([{ level: 'log', text: 'for the history' }]);
    expect(shown.calls).toHaveLength(1);
    expect(shown.calls[0]).toMatchObject({ server: 'basic', tool: 'add', outcome: 'ok' });
    expect(shown.budgets.maxToolCalls).toBe(64);
    const list = JSON.parse(cli(home, ['runs', '--json', '--profile', 'code', '--limit', '1']).stdout);
    expect(list[0].id).toBe(runId);
  });

  it('switchboard exec runs code as the profile execute would and exits 1 on an error kind', async () => {
    const ok = cli(home, ['exec', '--profile', 'code', '-'], 'async () => (await basic.add({ a: 20, b: 22 })).sum');
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe('Result:\n42');
    const bad = cli(home, ['exec', '--profile', 'code', '-'], 'async () => { throw new Error("nope") }');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^runtime: .*nope/);
  });

  it('Bad input gets a clear error: empty code, a missing code argument, a function result', async () => {
    expect((await run('   ')).text).toMatch(/^syntax: .*empty/);
    const missing = (await client.callTool({ name: 'execute', arguments: {} })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect((missing.content[0] as { text: string }).text).toMatch(/code/);
    expect((await run('async () => () => 1')).text).toMatch(/^runtime: .*function/i);
    expect((await run('async () => Symbol("s")')).text).toMatch(/^runtime: /);
    expect((await run('async () => undefined')).text).toMatch(/undefined/);
  });
});

void readFileSync;
