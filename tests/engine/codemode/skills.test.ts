// Skills (docs/code-mode.md): a run saved under a name with a typed input, through the real CLI, a real
// MCP client over the real shim and a real engine: saved, listed, declared as skills.NAME(input),
// found by search, called from code as a run of its own, shown unavailable when its tool leaves
// the profile (never deleted), and removed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';
import { MAX_SCHEMA_DEPTH } from '../../../src-main/engine/codemode/skills.ts';
import type { SkillInfo } from '../../../src-shared/api.ts';
import type { RunRecord } from '../../../src-shared/records.ts';

const GITHUB = path.resolve(__dirname, '../../fixtures/catalogs/github.json');

afterAll(cleanupHomes);

let home: string;
let client: Client;

beforeAll(async () => {
  home = makeHome({
    servers: { basic: fixtureServer('basic.mjs'), github: fixtureServer('catalog.mjs', { env: { CATALOG_FILE: GITHUB } }) },
    profiles: {
      work: { servers: ['basic'], surface: 'code', codeMode: { skills: true } },
      big: { servers: ['github', 'basic'], surface: 'code', codeMode: { skills: true } },
      plain: { servers: ['basic'], surface: 'code' },
    },
  });
  client = await shimClient(home, 'work', { name: 'skills-client' });
  await waitFor(async () => (await run('async () => typeof basic.add')).text.includes('"function"') || undefined, 30_000, 'servers ready');
}, 60_000);

async function run(code: string, c: Client = client): Promise<{ text: string; isError: boolean; runId: string }> {
  const raw = (await c.callTool({ name: 'execute', arguments: { code } }, undefined, { timeout: 60_000 })) as CallToolResult;
  return { text: (raw.content[0] as { text: string }).text, isError: Boolean(raw.isError), runId: String(raw._meta?.['switchboard/runId']) };
}

function resultOf(text: string): unknown {
  expect(text).toContain('Result:\n');
  return JSON.parse(text.slice(text.indexOf('Result:\n') + 'Result:\n'.length));
}

function listSkills(profile?: string): SkillInfo[] {
  const r = cli(home, ['skills', 'list', '--json', ...(profile ? ['--profile', profile] : [])]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as SkillInfo[];
}

function runsJson(): RunRecord[] {
  return JSON.parse(cli(home, ['runs', '--json', '--limit', '50']).stdout) as RunRecord[];
}

async function executeDescription(c: Client = client): Promise<string> {
  const { tools } = await c.listTools();
  return tools.find((t) => t.name === 'execute')!.description!;
}

const INPUT = '{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}';
let sourceRun: string;

describe('skills', () => {
  it('saves a run as a skill with a typed input, and lists it', async () => {
    // A default parameter makes the code work on its own and as a skill (input bound to the call's argument).
    const r = await run('async (input = { a: 1, b: 2 }) => (await basic.add({ a: input.a, b: input.b })).sum');
    expect(resultOf(r.text)).toBe(3);
    sourceRun = r.runId;
    const saved = cli(home, ['skills', 'save', sourceRun, 'add_two', '--input', INPUT, '--description', 'Adds two numbers a and b with the basic server.']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain('skills.add_two(input)');
    const [skill] = listSkills('work');
    expect(skill).toMatchObject({ name: 'add_two', fromRun: sourceRun, profile: 'work', tools: ['basic.add'], available: true, input: JSON.parse(INPUT) });
    // One file in the home, written whole.
    const file = JSON.parse(readFileSync(path.join(home, 'skills.json'), 'utf8')) as { skills: Record<string, unknown> };
    expect(Object.keys(file.skills)).toEqual(['add_two']);
    expect(cli(home, ['skills', 'list']).stdout).toContain('add_two  from run');
  });

  it('refuses a name taken, a bad name, a bad schema and a failed run, with what to do', async () => {
    expect(cli(home, ['skills', 'save', sourceRun, 'add_two']).stderr).toMatch(/exists; remove it first, or replace it/);
    expect(cli(home, ['skills', 'save', sourceRun, 'class']).stderr).toMatch(/cannot name a skill/);
    expect(cli(home, ['skills', 'save', sourceRun, 'x', '--input', '{"type":"string"}']).stderr).toMatch(/"type": "object"/);
    const failed = await run('async () => { throw new Error("nope") }');
    expect(cli(home, ['skills', 'save', failed.runId, 'nope']).stderr).toMatch(/failed \(runtime\); save a run that succeeded/);
    expect(cli(home, ['skills', 'save', 'no-such-run', 'x']).stderr).toMatch(/No run "no-such-run"/);
  });

  it('refuses an input schema nested 3,000 deep with a sentence naming the limit (was: "Maximum call stack size exceeded")', () => {
    const nest = (n: number) => {
      let schema = '{"type":"string"}';
      for (let i = 0; i < n; i++) schema = `{"type":"object","properties":{"a":${schema}}}`;
      return schema;
    };
    const deep = cli(home, ['skills', 'save', sourceRun, 'deep', '--input', nest(3000)]);
    expect(deep.stderr).toBe(`switchboard: The input schema nests more than ${MAX_SCHEMA_DEPTH} levels deep; keep it flatter (a skill's input is usually a few named values).\n`);
    expect(deep.code).not.toBe(0);
    expect(listSkills('work').map((s) => s.name)).not.toContain('deep');
    const fine = cli(home, ['skills', 'save', sourceRun, 'nested', '--input', nest(MAX_SCHEMA_DEPTH / 2 - 1)]);
    expect(fine.code, fine.stderr).toBe(0);
    expect(cli(home, ['skills', 'remove', 'nested']).code).toBe(0);
  });

  it('is declared as skills.NAME(input) in profiles that enable skills, and only there', async () => {
    const desc = await waitFor(async () => {
      const d = await executeDescription();
      return d.includes('declare const skills') ? d : undefined;
    }, 10_000, 'the skills declaration');
    expect(desc).toContain('add_two(input: { a: number; b: number }): Promise<unknown>;');
    expect(desc).toContain('Adds two numbers a and b');
    // Skills are said apart from the servers.
    expect(desc).toContain('a method returning a promise: `basic`.');
    expect(desc).toContain('`await skills.NAME(input)` runs that saved code');
    const plain = await shimClient(home, 'plain');
    expect(await executeDescription(plain)).not.toContain('skills');
    expect((await run('async () => typeof skills', plain)).text).toContain('"undefined"');
    await plain.close();
  });

  it('is callable from code; each call is a run of its own, linked to the run that called it', async () => {
    const r = await run(`async () => {
      const x = await skills.add_two({ a: 40, b: 2 });
      let bad;
      try { await skills.add_two({ a: 1 }); } catch (e) { bad = e.message; }
      return { x, bad };
    }`);
    expect(r.isError, r.text).toBe(false);
    expect(resultOf(r.text)).toEqual({ x: 42, bad: 'skills.add_two: the input lacks "b" (see its declaration for the input it takes)' });
    const runs = runsJson();
    const parent = runs.find((x) => x.id === r.runId)!;
    expect(parent.calls.map((c) => `${c.server}.${c.tool}:${c.outcome}`)).toEqual(['skills.add_two:ok', 'skills.add_two:error']);
    const child = runs.find((x) => x.skill?.parentRunId === r.runId)!;
    expect(child).toMatchObject({ skill: { name: 'add_two', parentRunId: r.runId }, result: 42 });
    expect(child.calls.map((c) => `${c.server}.${c.tool}`)).toEqual(['basic.add']);
    expect(child.id).not.toBe(r.runId);
  });

  it('a skill run has no skills global (skills do not call skills)', async () => {
    // A skill saved from a run that refers to `skills`: inside its own run the global is absent.
    const r = await run('async () => typeof skills');
    expect(cli(home, ['skills', 'save', r.runId, 'probe']).code).toBe(0);
    await waitFor(async () => (await executeDescription()).includes('probe(') || undefined, 10_000, 'probe declared');
    expect(resultOf((await run('async () => skills.probe()')).text)).toBe('undefined');
    expect(cli(home, ['skills', 'remove', 'probe']).code).toBe(0);
  });

  it("hands its whole value to the calling run, though the skill run's own text is cut", async () => {
    // The sandbox worker sends only the cut text of a big result; a skill's run asks for the whole value.
    const r = await run('async () => Array.from({ length: 5000 }, (_, i) => ({ i, name: "row " + i }))');
    expect(r.text).toMatch(/result cut at 24000 of \d+ characters/);
    expect(cli(home, ['skills', 'save', r.runId, 'rows']).code).toBe(0);
    await waitFor(async () => (await executeDescription()).includes('rows(') || undefined, 10_000, 'rows declared');
    const whole = await run('async () => { const v = await skills.rows(); return [v.length, v[4999]]; }');
    expect(whole.isError, whole.text).toBe(false);
    expect(resultOf(whole.text)).toEqual([5000, { i: 4999, name: 'row 4999' }]);
    expect(cli(home, ['skills', 'remove', 'rows']).code).toBe(0);
  });

  it('is found by catalog.search and by search_tools', async () => {
    const found = resultOf((await run('async () => (await catalog.search("add two numbers", 5)).map((h) => h.name)')).text) as string[];
    expect(found).toContain('skills.add_two');
    const big = await shimClient(home, 'big');
    await waitFor(async () => ((await big.listTools()).tools.some((t) => t.name === 'search_tools') ? true : undefined), 30_000, 'big catalog');
    const hits = (await big.callTool({ name: 'search_tools', arguments: { query: 'add two numbers a and b', limit: 5 } })) as CallToolResult;
    expect((hits.content[0] as { text: string }).text).toContain('skills.add_two');
    await big.close();
  });

  it('shows a skill whose tool left the profile as unavailable, and keeps it', async () => {
    expect(cli(home, ['config', 'set', 'profiles.work.tools', '{"basic":{"deny":["add"]}}']).code).toBe(0);
    const desc = await waitFor(async () => {
      const d = await executeDescription();
      return d.includes('Unavailable here') ? d : undefined;
    }, 15_000, 'the unavailable note');
    expect(desc).toContain('Unavailable here: add_two (needs basic.add)');
    expect(desc).not.toMatch(/add_two\(input/);
    expect(listSkills('work')[0]).toMatchObject({ name: 'add_two', available: false, missing: ['basic.add'] });
    expect(cli(home, ['skills', 'list', '--profile', 'work']).stdout).toContain('unavailable (needs basic.add)');
    const r = await run('async () => { try { await skills.add_two({ a: 1, b: 2 }); } catch (e) { return e.message; } }');
    expect(String(resultOf(r.text))).toMatch(/not a function/);
    // Back in the profile, back in code.
    expect(cli(home, ['config', 'unset', 'profiles.work.tools']).code).toBe(0);
    await waitFor(async () => ((await executeDescription()).includes('add_two(input') ? true : undefined), 15_000, 'the skill back');
    expect(resultOf((await run('async () => skills.add_two({ a: 2, b: 2 })')).text)).toBe(4);
  });

  it('is removed with skills remove', async () => {
    const r = cli(home, ['skills', 'remove', 'add_two']);
    expect(r.code, r.stderr).toBe(0);
    expect(listSkills()).toEqual([]);
    expect(cli(home, ['skills', 'remove', 'add_two']).stderr).toMatch(/No skill named "add_two"/);
    await waitFor(async () => (!(await executeDescription()).includes('add_two') ? true : undefined), 10_000, 'the skill gone');
    expect(existsSync(path.join(home, 'skills.json'))).toBe(true);
  });
});
