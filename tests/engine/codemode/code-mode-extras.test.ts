// Code mode beyond the docs page: the call ledger of a failed run, result handles,
// learned return types and the name index — through a real MCP client, the shim and an engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, stopEngine, waitFor } from '../../helpers/home.ts';

const GITHUB = path.resolve(__dirname, '../../fixtures/catalogs/github.json');

afterAll(cleanupHomes);

let home: string;
let rugFile: string;
const clients = new Map<string, Client>();

beforeAll(async () => {
  home = makeHome({
    servers: {
      basic: fixtureServer('basic.mjs'),
      slow: fixtureServer('slow.mjs'),
      big: fixtureServer('big-result.mjs'),
      results: fixtureServer('basic.mjs'),
      cat: fixtureServer('catalog.mjs', { env: { CATALOG_SIZE: '3' } }),
      github: fixtureServer('catalog.mjs', { env: { CATALOG_FILE: GITHUB } }),
      thousand: fixtureServer('catalog.mjs', { env: { CATALOG_SIZE: '1000' } }),
      rug: fixtureServer('rug-pull.mjs', { env: { RUG_FILE: '' } }),
    },
    profiles: {
      ledger: { servers: ['basic', 'slow'], surface: 'code' },
      noledger: { servers: ['basic'], surface: 'code', codeMode: { ledger: false } },
      keeps: { servers: ['big', 'results'], surface: 'code', codeMode: { results: true } },
      keeps2: { servers: ['big'], surface: 'code', codeMode: { results: true } },
      nokeep: { servers: ['big', 'results'], surface: 'code' },
      learns: { servers: ['cat', 'basic'], surface: 'code', codeMode: { learnedTypes: true } },
      nolearn: { servers: ['cat'], surface: 'code' },
      gh: { servers: ['github', 'basic'], surface: 'code' },
      learnsrug: { servers: ['rug'], surface: 'code', codeMode: { learnedTypes: true } },
      ghnoindex: { servers: ['github'], surface: 'code', codeMode: { nameIndex: false } },
      huge: { servers: ['thousand', 'github'], surface: 'code', codeMode: { results: true } },
    },
  });
  rugFile = path.join(home, 'rug.txt');
  writeFileSync(rugFile, 'Fetches a web page.');
  editConfig((c) => (c.servers.rug!.env.RUG_FILE = rugFile));
  await waitFor(async () => {
    const r = await run('ledger', 'async () => typeof slow.wait + typeof basic.add');
    return r.text.includes('functionfunction') || undefined;
  }, 30_000, 'servers ready');
}, 60_000);

afterAll(async () => {
  for (const c of clients.values()) await c.close();
});

type EditableConfig = { servers: Record<string, { env: Record<string, string> }> };

function editConfig(edit: (config: EditableConfig) => void): void {
  const file = path.join(home, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as EditableConfig;
  edit(config);
  writeFileSync(file, JSON.stringify(config, null, 2));
}

async function client(profile: string): Promise<Client> {
  let c = clients.get(profile);
  if (!c) {
    c = await shimClient(home, profile, { name: 'extras-client' });
    clients.set(profile, c);
  }
  return c;
}

async function run(profile: string, code: string): Promise<{ text: string; isError: boolean }> {
  const raw = (await (await client(profile)).callTool({ name: 'execute', arguments: { code } }, undefined, { timeout: 60_000 })) as CallToolResult;
  return { text: (raw.content[0] as { text: string }).text, isError: Boolean(raw.isError) };
}

describe('a failed run lists the calls it made (the call ledger)', () => {
  it('kind and message first, then the calls with outcome and duration and the last result shape, then the logs', async () => {
    const r = await run(
      'ledger',
      `async () => {
        console.log('starting');
        await basic.add({ a: 1, b: 2 });
        await basic.echo({ text: '{"id": 7, "tags": ["x"]}' });
        slow.wait({ ms: 5000 }).catch(() => {});
        throw new Error('boom after the calls');
      }`,
    );
    expect(r.isError).toBe(true);
    const [head, ledger, logs] = r.text.split('\n\n');
    expect(head).toMatch(/^runtime: boom after the calls \(line 6, column \d+\)$/);
    expect(ledger).toMatch(/^Calls: 3 started, 2 finished \(2 ok\), 1 unfinished\./);
    expect(ledger).toMatch(/\n {2}1\. basic\.add\(\{"a":1,"b":2\}\) → ok in [\d.]+ ms/);
    expect(ledger).toMatch(/\n {2}2\. basic\.echo\(.*\) → ok in [\d.]+ ms/);
    expect(ledger).toMatch(/\n {2}3\. slow\.wait\(\{"ms":5000\}\) → (unfinished: cancelled when the run ended|cancelled in)/);
    expect(ledger).toContain('Last completed result (basic.echo): { id: number; tags: string[] }');
    expect(logs).toBe('Logs:\nstarting');
  });

  it('a run without calls, or a profile with "ledger": false, has no ledger', async () => {
    expect((await run('ledger', 'async () => { throw new Error("x") }')).text).toMatch(/^runtime: x \(line 1, column \d+\)$/);
    const off = await run('noledger', 'async () => { await basic.add({ a: 1, b: 1 }); throw new Error("x"); }');
    expect(off.text).toMatch(/^runtime: x/);
    expect(off.text).not.toContain('Calls:');
  });
});

describe('results over maxResultChars are kept under a handle (codeMode.results)', () => {
  const MB = 1024 * 1024;
  const unit = '0123456789abcdef';

  it('the results global is declared, and a server named results becomes results_', async () => {
    await waitFor(async () => (await run('keeps', 'async () => typeof big.big + typeof results_.echo')).text.includes('functionfunction') || undefined, 20_000);
    const { tools } = await (await client('keeps')).listTools();
    const d = tools[0]!.description!;
    expect(d).toContain('declare const results: {');
    expect(d).toContain('query(handle: string, path: string): Promise<unknown>;');
    expect(d).toContain('declare const results_: {');
    const off = await run('nokeep', 'async () => [typeof results, typeof results.echo]');
    expect(off.text).toContain('"function"');
    const { tools: offTools } = await (await client('nokeep')).listTools();
    expect(offTools[0]!.description).not.toContain('results.get');
  });

  it('page through a 1 MB result across runs, query a part, and only in the profile that made it', async () => {
    const made = await run(
      'keeps',
      `async () => { const t = await big.big({ bytes: ${MB} }); return t.match(/.{1,64}/g).map((s, i) => ({ i, s })); }`,
    );
    expect(made.isError, made.text.slice(0, 300)).toBe(false);
    expect(made.text.length).toBeLessThan(25_000);
    expect(made.text).toMatch(/return a smaller result/);
    const handle = /kept as "(res_[0-9a-f]{24})"/.exec(made.text)?.[1];
    expect(handle, made.text.slice(-600)).toBeTruthy();
    expect(made.text).toContain('(an array of 16,384 items)');

    const parts: string[] = [];
    let offset: number | null = 0;
    let runs = 0;
    while (offset !== null) {
      const page = await run('keeps', `async () => { const p = await results.get(${JSON.stringify(handle)}, { offset: ${offset}, limit: 150 }); return { next: p.next, total: p.total, s: p.items.map((x) => x.s).join('') }; }`);
      expect(page.isError, page.text.slice(0, 300)).toBe(false);
      const v = JSON.parse(page.text.slice(page.text.indexOf('Result:\n') + 8)) as { next: number | null; total: number; s: string };
      expect(v.total).toBe(16_384);
      parts.push(v.s);
      offset = v.next;
      runs++;
    }
    expect(runs).toBe(Math.ceil(16_384 / 150));
    expect(parts.join('')).toBe(unit.repeat(MB / unit.length));

    const q = await run('keeps', `async () => [await results.query(${JSON.stringify(handle)}, "[100].i"), (await results.query(${JSON.stringify(handle)}, "/16383/s")).length, (await results.get(${JSON.stringify(handle)})).length]`);
    expect(JSON.parse(q.text.slice(q.text.indexOf('Result:\n') + 8))).toEqual([100, 64, 16_384]);

    const elsewhere = await run('keeps2', `async () => await results.get(${JSON.stringify(handle)}, { offset: 0 })`);
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toMatch(/^runtime: .*no kept result "res_[0-9a-f]{24}" in this profile/);
    const junk = await run('keeps', 'async () => { try { await results.get("../../config"); } catch (e) { return e.message; } }');
    expect(junk.text).toContain('is not a result handle');
  }, 120_000);
});

describe('a compact name index when the declarations are left out (codeMode.nameIndex)', () => {
  const MAX = 14_000;
  const listed = async (profile: string, tools: number) =>
    waitFor(async () => {
      const r = await (await client(profile)).listTools();
      const d = r.tools.find((t) => t.name === 'execute')?.description ?? '';
      return r.tools.length === 3 && d.includes(`of this profile's ${tools} tools`) ? r : undefined;
    }, 30_000, `${profile} ready`);

  it('the 117 GitHub tools: every name listed per server, tools/list within 14,000 characters', async () => {
    const r = await listed('gh', 117 + 10);
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(MAX);
    const d = r.tools.find((t) => t.name === 'execute')!.description!;
    expect(d).toMatch(/Tool names by server \(all 127\):\ngithub: [a-z_]+, /);
    expect(d).toMatch(/\nbasic: echo, add, /);
    expect(d).toContain('create_pull_request');
    expect(d).not.toContain('declare const github');
    // A name picked from the index is callable as listed, without a search.
    const call = await run('gh', 'async () => (await github.get_me({})).tool');
    expect(call.text).toBe('Result:\n"get_me"');
    const off = await listed('ghnoindex', 117);
    expect(off.tools.find((t) => t.name === 'execute')!.description).not.toContain('Tool names by server');
  });

  it('1,117 tools: as many names as fit in the budget, said so, and tools/list still within 14,000 characters', async () => {
    const r = await listed('huge', 1117);
    const chars = JSON.stringify(r).length;
    expect(chars).toBeLessThanOrEqual(MAX);
    const d = r.tools.find((t) => t.name === 'execute')!.description!;
    expect(d).toMatch(/Tool names by server \(\d+ of 1117, as many as fit in 9,000 characters; find the others with search_tools\):/);
    expect(d).toMatch(/\nthousand: tool_0, tool_1, .*… \+\d+ more/);
    // Names go to each server in turn: the smaller server is listed whole, the larger one cut.
    const githubLine = d.split('\n').find((l) => l.startsWith('github: '))!;
    expect(githubLine.split(', ')).toHaveLength(117);
    expect(d).toContain('results.get(handle');
  });
});

describe('return types learned from real results (codeMode.learnedTypes)', () => {
  const description = async (profile: string) => (await (await client(profile)).listTools()).tools[0]!.description!;
  const method = (d: string, name: string) => {
    const at = d.indexOf(`  ${name}(`);
    return d.slice(d.lastIndexOf('/**', at), d.indexOf('>;\n', at) + 2).replace(/\s*\n\s*/g, ' ');
  };

  it('a tool without outputSchema shows the type of its recent results, marked as observed; others and other profiles do not', async () => {
    await waitFor(async () => (await run('learns', 'async () => typeof cat.tool_0')).text.includes('function') || undefined, 20_000);
    expect(method(await description('learns'), 'tool_0')).toMatch(/tool_0\(args: .*\): Promise<unknown>;$/);
    for (const id of ['a', 'b']) {
      const r = await run('learns', `async () => { await basic.add({ a: 1, b: 2 }); return await cat.tool_0({ id: ${JSON.stringify(id)}, limit: 2 }); }`);
      expect(r.isError, r.text).toBe(false);
    }
    const learned = method(await description('learns'), 'tool_0');
    expect(learned).toContain('@returns observed from 2 recent results, not guaranteed');
    expect(learned).toMatch(/tool_0\(args: .*\): Promise<\{ tool: string; args: \{ id: string; limit: number \} \}>;$/);
    expect(learned).not.toMatch(/"a"|"b"/);
    // add declares an outputSchema: its own type stays.
    expect(method(await description('learns'), 'add')).toMatch(/Promise<\{ sum: number \}>;$/);
    expect(method(await description('learns'), 'add')).not.toContain('observed');
    // Another profile over the same server that did not opt in.
    expect(method(await description('nolearn'), 'tool_0')).toMatch(/Promise<unknown>;$/);
    // catalog.describe shows it too.
    const sig = await run('learns', 'async () => await catalog.describe(["cat.tool_0"])');
    expect(sig.text).toContain('observed from 2 recent results');
  });

  it("start over when the tool's pinned definition changes (changed, withheld, approved)", async () => {
    const fetchPage = async () => method(await description('learnsrug'), 'fetch_page');
    await waitFor(async () => (await run('learnsrug', 'async () => typeof rug.fetch_page')).text.includes('function') || undefined, 20_000);
    await run('learnsrug', 'async () => rug.fetch_page({ url: "a" })');
    expect(await fetchPage()).toMatch(/observed from 1 recent result, .*Promise<string>;$/);
    // A new description, and a restart of the server (its env changes) to serve it.
    writeFileSync(rugFile, 'Fetches a web page, differently.');
    editConfig((c) => (c.servers.rug!.env.BUMP = '1'));
    await waitFor(() => (JSON.parse(cli(home, ['status', '--json']).stdout).servers.rug?.changedTools ?? []).includes('fetch_page') || undefined, 20_000, 'fetch_page withheld');
    expect(cli(home, ['approve', 'rug']).code).toBe(0);
    await waitFor(async () => (await fetchPage()).includes('differently') || undefined, 20_000, 'the new definition listed');
    expect(await fetchPage()).toMatch(/Promise<unknown>;$/);
    expect(await fetchPage()).not.toContain('observed');
    await run('learnsrug', 'async () => rug.fetch_page({ url: "b" })');
    expect(await fetchPage()).toMatch(/observed from 1 recent result, .*Promise<string>;$/);
  }, 60_000);

  it('are kept in the home: after an engine restart the declarations still show them', async () => {
    const file = path.join(home, 'learned-types.json');
    await waitFor(() => {
      try {
        return readFileSync(file, 'utf8').includes('tool_0') || undefined;
      } catch {
        return undefined;
      }
    }, 10_000, 'learned types written');
    for (const c of clients.values()) await c.close();
    clients.clear();
    await stopEngine(home);
    await waitFor(async () => (await run('learns', 'async () => typeof cat.tool_0')).text.includes('function') || undefined, 30_000);
    expect(method(await description('learns'), 'tool_0')).toContain('@returns observed from 2 recent results');
  }, 60_000);
});
