// Shims started at the same moment on a home with no engine (a client starting all its entries
// at once) start one engine between them, never one each, and every one of them gets the full
// tool list from it. Real shims (both kinds), a real engine, a real server.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { START_CLAIM_FILE, claimEngineStart } from '../../src-main/shim/engine-launch.mjs';
import { NATIVE_SHIM_UNAVAILABLE, ROOT, SHIM_KINDS, cleanupHomes, enginePid, fixtureServer, makeHome, shimCommand, stopEngine } from '../helpers/home.ts';
import { isProcessAlive as alive } from '../../src-main/engine/config/atomic-file.ts';

afterAll(cleanupHomes);

const RECORDER = path.join(ROOT, 'tests/fixtures/engine/recording-engine.mjs');

/** The pids of the engines started for the home so far (one line each). */
function enginesStarted(log: string): number[] {
  try {
    return readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function connectAll(kind: (typeof SHIM_KINDS)[number], home: string, log: string, n: number): Promise<Client[]> {
  const env = { PATH: process.env.PATH ?? '', SWITCHBOARD_ENGINE_COMMAND: JSON.stringify([process.execPath, RECORDER, log]) };
  const cmd = shimCommand(kind, home, 'p');
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const c = new Client({ name: `at-once-${i}`, version: '1' });
      await c.connect(new StdioClientTransport({ command: cmd.command, args: cmd.args, env, stderr: 'pipe' }));
      return c;
    }),
  );
}

describe.each(SHIM_KINDS)('%s shims started together on a home with no engine', (kind) => {
  for (const n of [2, 4]) {
    it.skipIf(kind === 'native' && NATIVE_SHIM_UNAVAILABLE)(`${n} of them start one engine, and each gets the full list`, { timeout: 60_000 }, async () => {
      const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
      const log = path.join(home, 'engines-started.log');
      const clients = await connectAll(kind, home, log, n);
      try {
        const lists = await Promise.all(clients.map((c) => c.listTools()));
        for (const l of lists) expect(l.tools.map((t) => t.name)).toContain('basic__echo');
        const started = enginesStarted(log);
        expect(started).toHaveLength(1);
        expect(started[0]).toBe(enginePid(home));
        expect(alive(started[0]!)).toBe(true);
      } finally {
        await Promise.all(clients.map((c) => c.close()));
        await stopEngine(home);
      }
    });
  }
});

describe('the claim on starting a home\'s engine', () => {
  it('is held by one starter at a time, and released for the next', () => {
    const home = makeHome();
    const release = claimEngineStart(home);
    expect(release).toBeTypeOf('function');
    expect(claimEngineStart(home)).toBeUndefined();
    release!();
    const again = claimEngineStart(home);
    expect(again).toBeTypeOf('function');
    again!();
  });

  it('is broken when dated further ahead than it may live, even naming a live process', () => {
    const home = makeHome();
    const file = path.join(home, 'run', START_CLAIM_FILE);
    mkdirSync(path.dirname(file), { recursive: true });
    // pid 1 is alive: only the date can make the claim stale.
    writeFileSync(file, '1\n');
    const soon = new Date(Date.now() + 5_000);
    utimesSync(file, soon, soon);
    expect(claimEngineStart(home)).toBeUndefined();
    const nextYear = new Date(Date.now() + 365 * 24 * 3600_000);
    utimesSync(file, nextYear, nextYear);
    const release = claimEngineStart(home);
    expect(release).toBeTypeOf('function');
    release!();
  });

  it('is broken when the starter that holds it has died', () => {
    const home = makeHome();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    mkdirSync(path.join(home, 'run'), { recursive: true });
    writeFileSync(path.join(home, 'run', START_CLAIM_FILE), `${dead}\n`);
    const release = claimEngineStart(home);
    expect(release).toBeTypeOf('function');
    release!();
  });
});
