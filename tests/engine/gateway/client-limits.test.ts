// Per-client surface (docs/clients.md): a client with known limits (Cursor, here from its clientInfo
// name "cursor-vscode") connected through the real shim to a profile of the 117 GitHub tools is
// warned about in status, for the client and its profile; a `clients` entry of the profile then
// gives that client code mode or a subset, while other clients keep the profile as it is.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StatusReport } from '../../../src-shared/api.ts';
import { NATIVE_SHIM_UNAVAILABLE, cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';

const GITHUB = path.resolve(__dirname, '../../fixtures/catalogs/github.json');
const BIN = path.resolve(__dirname, '../../../bin/switchboard.mjs');

afterAll(cleanupHomes);

let home: string;
let cursor: Client;
let other: Client;
/** Clients whose clientInfo names no known client, started from a connector's entry (`--client`). */
let vague: Client;
let vagueNative: Client | undefined;

const status = (): StatusReport => JSON.parse(cli(home, ['status', '--json']).stdout) as StatusReport;
const toolNames = async (c: Client): Promise<string[]> => (await c.listTools()).tools.map((t) => t.name);

beforeAll(async () => {
  home = makeHome({
    servers: { github: fixtureServer('catalog.mjs', { env: { CATALOG_FILE: GITHUB } }) },
    profiles: { big: { servers: ['github'] } },
  });
  cursor = await shimClient(home, 'big', { name: 'cursor-vscode' });
  other = await shimClient(home, 'big', { name: 'some-other-client' });
  vague = await shimClient(home, 'big', { name: 'my-agent', shimArgs: ['--client', 'windsurf'] });
  if (!NATIVE_SHIM_UNAVAILABLE) vagueNative = await shimClient(home, 'big', { name: 'my-native-agent', shim: 'native', shimArgs: ['--client', 'vscode'] });
  await waitFor(async () => (await toolNames(cursor)).length === 117 || undefined, 30_000, '117 tools');
}, 60_000);

afterAll(async () => {
  await cursor?.close();
  await other?.close();
  await vague?.close();
  await vagueNative?.close();
});

describe('client limits', () => {
  it('status names the limits of a recognised client and warns where the profile goes past them', () => {
    const st = status();
    const mine = st.clients.find((c) => c.name === 'cursor-vscode')!;
    expect(mine.limits).toEqual({ client: 'cursor', maxTools: 40, maxNameChars: 60, from: 'clientInfo' });
    expect(mine).toMatchObject({ surface: 'tools', tools: 117 });
    expect(mine.connector).toBeUndefined();
    expect(mine.warnings).toEqual([
      'Cursor uses at most 40 tools; profile "big" gives it 117, so some are left out: set profiles.big.clients.cursor.surface to "code" or pick a subset in profiles.big.clients.cursor.tools.',
    ]);
    // "switchboard-big_" + "github__list_org_repository_security_advisories" is 62 characters: shortened, not warned about.
    expect(mine.shortened).toMatch(/^Cursor takes tool names of at most 60 characters with its prefix "switchboard-big_", so \d+ names of profile "big" are shortened for it \("github__/);
    // The profile's warnings are its clients' together, each once.
    expect(st.profiles.big!.warnings).toEqual(expect.arrayContaining(mine.warnings!));
    expect(cli(home, ['status']).stdout).toContain('warning: Cursor uses at most 40 tools; profile "big" gives it 117');
    // A client without known limits gets neither field.
    const unknown = st.clients.find((c) => c.name === 'some-other-client')!;
    expect(unknown.limits).toBeUndefined();
    expect(unknown.warnings).toBeUndefined();
    expect(unknown).toMatchObject({ surface: 'tools', tools: 117 });
  });

  it('knows a client from the connector of its entry when its clientInfo names none, through either shim', () => {
    const st = status();
    const ws = st.clients.find((c) => c.name === 'my-agent')!;
    expect(ws.connector).toBe('windsurf');
    expect(ws.limits).toEqual({ client: 'windsurf', maxTools: 50, maxNameChars: 64, from: 'connector' });
    expect(ws.warnings![0]).toMatch(/^Windsurf uses at most 50 tools; profile "big" gives it 117/);
    expect(st.profiles.big!.warnings).toEqual(expect.arrayContaining(ws.warnings!));
    if (vagueNative) {
      const vs = st.clients.find((c) => c.name === 'my-native-agent')!;
      expect(vs.connector).toBe('vscode');
      expect(vs.limits).toMatchObject({ client: 'vscode', from: 'connector' });
    }
    const text = cli(home, ['status']).stdout;
    expect(text).toMatch(/^  Windsurf\s+big\s+Windsurf \(known from its connector; takes 50 tools, names up to 64 characters\) gets 117 tools/m);
    expect(text).toMatch(/^  Cursor\s+big\s+Cursor \(known from its clientInfo; takes 40 tools/m);
    expect(text).toMatch(/some-other-client\s+big\s+no known limits gets 117 tools/);
  });

  it('a clients entry for the connector\'s client applies to a client known from its connector', async () => {
    expect(cli(home, ['config', 'set', 'profiles.big.clients.windsurf', '{"surface":"code"}']).code).toBe(0);
    const names = await waitFor(async () => {
      const n = await toolNames(vague);
      return n.length < 117 ? n : undefined;
    }, 15_000, 'code surface for the windsurf connector');
    expect(names.sort()).toEqual(['execute', 'get_schema', 'search_tools']);
    const ws = status().clients.find((c) => c.name === 'my-agent')!;
    expect(ws).toMatchObject({ surface: 'code', tools: 3 });
    expect(ws.warnings).toBeUndefined();
    expect(cli(home, ['config', 'unset', 'profiles.big.clients.windsurf']).code).toBe(0);
    await waitFor(async () => ((await toolNames(vague)).length === 117 ? true : undefined), 15_000, 'windsurf back to the tools surface');
  });

  it('connect says when the profile, as that client would get it, goes past its limits', () => {
    const userHome = mkdtempSync(path.join(os.tmpdir(), 'sb-limits-user-'));
    try {
      const env = { ...process.env, HOME: userHome, XDG_CONFIG_HOME: path.join(userHome, '.config') };
      const connect = (client: string) =>
        execFileSync(process.execPath, [BIN, 'connect', client, '--profile', 'big', '--force', '--home', home], { env, encoding: 'utf8' });
      const cursorOut = connect('cursor');
      expect(cursorOut).toContain('Warning: Cursor uses at most 40 tools; profile "big" gives it 117, so some are left out');
      expect(cursorOut).toMatch(/Note: Cursor takes tool names of at most 60 characters with its prefix "switchboard-big_", so \d+ names/);
      // VS Code takes 128 tools, but names it as mcp_switchboard-big_<tool>: three names are shortened, nothing warns.
      const vscodeOut = connect('vscode');
      expect(vscodeOut).not.toContain('Warning:');
      expect(vscodeOut).toMatch(
        /Note: VS Code takes tool names of at most 64 characters with its prefix "mcp_switchboard-big_", so 3 names of profile "big" are shortened for it \("github__add_pull_request_review_comment_reaction" is "github__add_pull_request_review_com_[0-9a-f]{8}", "github__list_org_repository_security_advisories" is "github__list_org_repository_securit_[0-9a-f]{8}" and 1 more\)/,
      );
      // Claude Desktop sends the bare names: all of these fit it.
      const desktopOut = connect('claude-desktop');
      expect(desktopOut).not.toContain('Warning:');
      expect(desktopOut).not.toContain('Note:');
    } finally {
      rmSync(userHome, { recursive: true, force: true });
    }
  });

  it('a clients entry gives that client code mode, and only that client', async () => {
    expect(cli(home, ['config', 'set', 'profiles.big.clients.cursor', '{"surface":"code"}']).code).toBe(0);
    const names = await waitFor(async () => {
      const n = await toolNames(cursor);
      return n.length < 117 ? n : undefined;
    }, 15_000, 'code surface for cursor');
    expect(names.sort()).toEqual(['execute', 'get_schema', 'search_tools']);
    // Code mode works for that client: the profile's tools are there as code.
    const run = (await cursor.callTool({ name: 'execute', arguments: { code: 'async () => (await github.get_me({})).tool' } })) as CallToolResult;
    expect((run.content[0] as { text: string }).text).toContain('"get_me"');
    expect(await toolNames(other)).toHaveLength(117);
    const st = status();
    expect(st.clients.find((c) => c.name === 'cursor-vscode')!.warnings).toBeUndefined();
    // What is left are the other limited clients' (known from their connectors).
    expect((st.profiles.big!.warnings ?? []).filter((w) => w.startsWith('Cursor'))).toEqual([]);
  });

  it('a clients entry can give that client a subset of the tools instead', async () => {
    expect(cli(home, ['config', 'set', 'profiles.big.clients.cursor', '{"tools":{"github":{"allow":["*pull_request*"],"deny":["*review*"]}}}']).code).toBe(0);
    const names = await waitFor(async () => {
      const n = await toolNames(cursor);
      return n.length > 3 && n.length < 117 ? n : undefined;
    }, 15_000, 'a subset for cursor');
    expect(names.length).toBeLessThanOrEqual(40);
    for (const n of names) expect(n).toMatch(/^github__.*pull_request/);
    expect(names.some((n) => n.includes('review'))).toBe(false);
    expect(names).toContain('github__create_pull_request');
    expect(await toolNames(other)).toHaveLength(117);
    expect(status().clients.find((c) => c.name === 'cursor-vscode')).toMatchObject({ surface: 'tools', tools: names.length, subset: true });
    // The subset is a filter: a tool it leaves out cannot be called either.
    const r = await cursor.callTool({ name: 'github__create_issue', arguments: {} }).catch((e: Error) => e);
    expect(String((r as Error).message ?? JSON.stringify(r))).toMatch(/Unknown tool "github__create_issue"/);
  });

  it('refuses a clients entry for an unknown client or a server not in the profile, and writes nothing', () => {
    const bad = cli(home, ['config', 'set', 'profiles.big.clients.zed', '{"surface":"code"}']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/profiles\.big\.clients\.zed: unknown client "zed"; use one of cursor, windsurf, vscode/);
    const server = cli(home, ['config', 'set', 'profiles.big.clients.vscode', '{"tools":{"nope":{"allow":["*"]}}}']);
    expect(server.code).not.toBe(0);
    expect(server.stderr).toMatch(/profiles\.big\.clients\.vscode\.tools\.nope: "nope" is not one of this profile's servers/);
    const surface = cli(home, ['config', 'set', 'profiles.big.clients.vscode', '{"surface":"everything"}']);
    expect(surface.code).not.toBe(0);
    expect(surface.stderr).toMatch(/profiles\.big\.clients\.vscode\.surface: expected "tools" or "code"/);
    expect(JSON.parse(cli(home, ['config', 'get', 'profiles.big.clients']).stdout)).toEqual({
      cursor: { tools: { github: { allow: ['*pull_request*'], deny: ['*review*'] } } },
    });
  });
});
