// The command line as scripts use it (docs/command-line.md): status without an engine, validated atomic
// config edits, first run, clear errors.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../helpers/home.ts';

afterAll(cleanupHomes);

describe('switchboard --help', () => {
  it('names the flags people need that no error message would teach them', () => {
    const help = cli(makeHome(), ['--help']).stdout;
    for (const flag of ['connect CLIENT --profile P [--force]', '--trust-folder DIR', 'import CLIENT [--apply] [--replace]', '--propose']) expect(help).toContain(flag);
  });
});

describe('switchboard status', () => {
  it('reports the app settings in force, defaults filled in', () => {
    const home = makeHome({ servers: {}, profiles: {}, settings: { startAtLogin: false, checkForUpdates: false, updateChannel: 'beta' } });
    expect(JSON.parse(cli(home, ['status', '--json']).stdout).settings).toEqual({ startAtLogin: false, checkForUpdates: false, updateChannel: 'beta' });
    expect(JSON.parse(cli(makeHome({ servers: {}, profiles: {} }), ['status', '--json']).stdout).settings).toEqual({ startAtLogin: true, checkForUpdates: true, updateChannel: 'stable' });
    const bad = makeHome({ servers: {}, profiles: {}, settings: { startAtLogin: 'yes' } });
    expect(JSON.parse(cli(bad, ['status', '--json']).stdout).config.problems).toEqual([expect.objectContaining({ path: 'settings.startAtLogin', message: 'expected true or false' })]);
  });

  it('never starts an engine and still reports on config.json', () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    const r = cli(home, ['status', '--json']);
    expect(r.code).toBe(0);
    const st = JSON.parse(r.stdout);
    expect(st.pid).toBeNull();
    expect(st.config.valid).toBe(true);
    expect(Object.keys(st.servers)).toEqual(['basic']);
    expect(existsSync(path.join(home, 'run', 'engine.json'))).toBe(false);
    expect(cli(home, ['status']).stdout).toContain('Engine: not running');
  });

  it('reports a syntax error with its line and column, and schema problems with their paths', () => {
    const home = makeHome();
    writeFileSync(path.join(home, 'config.json'), '{\n  "servers": {\n    "a": { "command": "x", }\n  }\n}\n');
    const st = JSON.parse(cli(home, ['status', '--json']).stdout);
    expect(st.config.valid).toBe(false);
    expect(st.config.problems[0]).toMatchObject({ line: 3, column: 28 });
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ servers: {}, profiles: { automation: { servers: [], budgets: { timeoutMs: 0 } } } }));
    const st2 = JSON.parse(cli(home, ['status', '--json']).stdout);
    expect(st2.config.problems).toContainEqual({ path: 'profiles.automation.budgets.timeoutMs', message: 'expected a positive integer' });
  });
});

describe('switchboard config', () => {
  it('sets, gets and unsets values by dotted path or JSON Pointer', () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } }, mine: { keep: true } });
    expect(cli(home, ['config', 'set', 'profiles.demo.budgets.timeoutMs', '60000']).code).toBe(0);
    expect(cli(home, ['config', 'get', 'profiles.demo.budgets.timeoutMs']).stdout.trim()).toBe('60000');
    expect(cli(home, ['config', 'set', '/profiles/demo/surface', '"code"']).code).toBe(0);
    const cfg = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));
    expect(cfg.profiles.demo).toMatchObject({ surface: 'code', budgets: { timeoutMs: 60000 } });
    expect(cfg.mine).toEqual({ keep: true });
    expect(cli(home, ['config', 'unset', 'profiles.demo.budgets']).code).toBe(0);
    expect(cli(home, ['config', 'get', 'profiles.demo.budgets']).code).toBe(1);
  });

  it('refuses an invalid value with its path and writes nothing', () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const file = path.join(home, 'config.json');
    const before = readFileSync(file);
    const r = cli(home, ['config', 'set', 'profiles.demo.budgets.timeoutMs', '-1']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('profiles.demo.budgets.timeoutMs: expected a positive integer');
    const notJson = cli(home, ['config', 'set', 'profiles.demo.surface', 'code']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/not JSON.*Nothing was written/);
    const unknown = cli(home, ['config', 'set', 'profiles.demo.servers', '["ghost"]']);
    expect(unknown.stderr).toMatch(/unknown server "ghost"/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('goes through the running engine, which applies the change live', async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
    const client = await shimClient(home, 'p');
    expect((await client.listTools()).tools.length).toBeGreaterThan(2);
    expect(cli(home, ['config', 'set', 'profiles.p.tools', '{"basic":{"allow":["echo"]}}']).code).toBe(0);
    await waitFor(async () => ((await client.listTools()).tools.map((t) => t.name).join() === 'basic__echo' ? true : undefined));
    await client.close();
  });
});

describe('first run', () => {
  it('writes a default config whose demo profiles work with servers shipped with the app', async () => {
    const home = makeHome();
    const client = await shimClient(home, 'demo');
    const cfg = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));
    expect(Object.keys(cfg.profiles)).toEqual(expect.arrayContaining(['demo', 'demo-code']));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['everything__echo', 'memory__create_entities']));
    const r = (await client.callTool({ name: 'everything__echo', arguments: { message: 'hello demo' } })) as CallToolResult;
    expect((r.content[0] as { text: string }).text).toContain('hello demo');
    await client.close();
    const code = await shimClient(home, 'demo-code');
    const run = (await code.callTool({ name: 'execute', arguments: { code: 'async () => [typeof everything, typeof memory, typeof files]' } })) as CallToolResult;
    expect((run.content[0] as { text: string }).text).toBe('Result:\n[\n  "object",\n  "object",\n  "object"\n]');
    await code.close();
  });
});

describe('bad input', () => {
  it('prints usage for an unknown command', () => {
    const home = makeHome();
    const r = cli(home, ['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('names the missing flag', () => {
    const home = makeHome();
    expect(cli(home, ['exec']).stderr).toMatch(/--profile/);
    expect(cli(home, ['runs', '--limit', 'many']).stderr).toMatch(/--limit expects a whole number/);
  });
});
