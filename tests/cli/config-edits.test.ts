// Config edits from the command line take one path (cli/home-control.ts): the engine's control
// method when an engine runs, else the same handler in the CLI's process, each a read-modify-write
// of config.json under its lock. Several CLIs editing at once lose nothing, engine or not.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanupHomes, cli, enginePid, makeHome, waitFor } from '../helpers/home.ts';

afterAll(cleanupHomes);

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A CLI process, its output collected; `done` settles when it exits. */
function start(home: string, args: string[]): { child: ChildProcess; out: () => string; done: Promise<Done> } {
  const child = spawn(process.execPath, [BIN, ...args, '--home', home], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const done = new Promise<Done>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, out: () => stdout, done };
}

function config(home: string): { servers: Record<string, unknown>; profiles: Record<string, unknown> } {
  return JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));
}

async function startEngine(home: string): Promise<void> {
  spawn(process.execPath, [BIN, 'engine', '--home', home], { stdio: 'ignore', detached: true }).unref();
  await waitFor(() => enginePid(home), 20_000, 'the engine');
  // Answering on its socket: a CLI now goes through it.
  await waitFor(() => cli(home, ['status', '--json']).stdout.includes('"pid": '), 20_000, 'the engine to answer');
}

const PROFILES = ['a', 'b', 'c', 'd', 'e', 'f'];

describe.each([
  ['with no engine running', false],
  ['with an engine running', true],
])('CLIs editing different keys at the same time, %s', (_name, withEngine) => {
  it('keeps every change', async () => {
    const home = makeHome({ servers: {}, profiles: { keep: { servers: [] } }, mine: { kept: true } });
    if (withEngine) await startEngine(home);
    const runs = PROFILES.map((p, i) =>
      start(home, i % 2 ? ['config', 'set', `profiles.${p}`, '{"servers":[]}'] : ['config', 'set', `/profiles/${p}`, '{"servers":[],"surface":"code"}']),
    );
    const results = await Promise.all(runs.map((r) => r.done));
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const cfg = config(home);
    expect(Object.keys(cfg.profiles).sort()).toEqual([...PROFILES, 'keep']);
    expect((cfg as unknown as { mine: unknown }).mine).toEqual({ kept: true });
    // The edits went where this case says: none started an engine, or all went through the one.
    expect(enginePid(home)).toEqual(withEngine ? expect.any(Number) : undefined);
  }, 60_000);

  it('two installs that chose the same free name: one adds it, the other says so and writes nothing over it', async () => {
    const home = makeHome({ servers: {}, profiles: {} });
    if (withEngine) await startEngine(home);
    const entry = (tag: string) => Buffer.from(JSON.stringify({ command: process.execPath, args: [`${tag}.mjs`] })).toString('base64');
    const link = (tag: string) => `cursor://anysphere.cursor-deeplink/mcp/install?name=notes&config=${entry(tag)}`;
    // Both stop at the question, each having found "notes" free, then both say yes.
    const runs = ['first', 'second'].map((tag) => start(home, ['install', link(tag)]));
    await waitFor(() => runs.every((r) => r.out().includes('[y/N]')), 30_000, 'both approval questions');
    for (const r of runs) r.child.stdin!.end('y\n');
    const results = await Promise.all(runs.map((r) => r.done));

    const servers = config(home).servers as Record<string, { args: string[] }>;
    const added = results.filter((r) => r.code === 0);
    const refused = results.filter((r) => r.code !== 0);
    expect(added).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.stderr).toContain('config.json got a server "notes" from elsewhere while this install ran; nothing was written to it.');
    // The entry is the one the successful install said it added.
    expect(Object.keys(servers)).toEqual(['notes']);
    const winner = added[0] === results[0] ? 'first' : 'second';
    expect(servers.notes!.args).toEqual([`${winner}.mjs`]);
  }, 90_000);
});
