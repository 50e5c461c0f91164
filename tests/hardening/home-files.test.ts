// Things planted in the home: a named pipe under a boot answer's name, another user's
// boot answer, a folder and links among the boot answers. Real engines, real shims of both
// kinds, real FIFOs (mkfifo); whatever a case leaves blocked is released in its finally.
import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BootAnswers, MAX_BOOT_FILES, bootKey } from '../../src-main/engine/gateway/boot-answers.ts';
import { socketPath } from '../../src-main/shim/home-paths.mjs';
import { NATIVE_SHIM_UNAVAILABLE, ROOT, SHIM_KINDS, cleanupHomes, enginePid, existsSync, fixtureServer, makeHome, shimCommand, stopEngine, waitFor, type ShimKind } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

const LATE_ENGINE = path.join(ROOT, 'tests/fixtures/engine/late-engine.mjs');
const CLIENT = 'planted-home-client';
const CONFIG = { servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } };
const KINDS = SHIM_KINDS.filter((k) => k === 'node' || !NATIVE_SHIM_UNAVAILABLE);

/** `p`, or an error naming `what` after `ms`: a frozen process must fail the attempt, not hang the case. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const bootFile = (home: string) => path.join(home, 'run', 'boot', `${bootKey('p', undefined, CLIENT)}.json`);

/** A named pipe in place of the client's boot answer. */
function plantFifo(home: string): string {
  const file = bootFile(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  rmSync(file, { force: true });
  execFileSync('mkfifo', ['-m', '600', file]);
  return file;
}

/** Lets whatever is blocked opening or reading the pipe go on (it reads an empty file). */
function releaseFifo(file: string): void {
  try {
    if (!lstatSync(file).isFIFO()) return;
    closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader waits on it.
  }
}

function shimClient(kind: ShimKind, home: string, env: Record<string, string> = {}): { client: Client; transport: StdioClientTransport } {
  const cmd = shimCommand(kind, home, 'p');
  const transport = new StdioClientTransport({ command: cmd.command, args: cmd.args, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  return { client: new Client({ name: CLIENT, version: '1.0.0' }), transport };
}

const engineRuns = (home: string) => enginePid(home) !== undefined || existsSync(path.join(home, 'run', 'engine.sock'));

async function noEngine(home: string): Promise<void> {
  await stopEngine(home);
  await waitFor(() => !engineRuns(home), 15_000, 'the engine to stop');
}

describe('issue 29: things planted in the home', () => {
  hardeningCase('attack', "a FIFO planted at a boot-answer file's name freezes neither shim at initialize nor the engine when that client lists; another user's boot answer is not used", async (tally) => {
    const home = makeHome(CONFIG);
    let fifo = plantFifo(home);
    try {
      for (const kind of KINDS) {
        await tally.attempt(`the ${kind} shim answers initialize (from the engine it starts) with a FIFO as the boot answer`, async () => {
          await noEngine(home);
          fifo = plantFifo(home);
          const { client, transport } = shimClient(kind, home, { SWITCHBOARD_ENGINE_COMMAND: JSON.stringify([process.execPath, LATE_ENGINE, '500']) });
          try {
            await within(client.connect(transport), 20_000, `the ${kind} shim's initialize`);
            expect((await within(client.listTools(), 20_000, 'tools/list')).tools.map((t) => t.name)).toContain('basic__echo');
          } finally {
            releaseFifo(fifo);
            await client.close();
          }
        });
      }

      await noEngine(home);
      fifo = plantFifo(home);
      const engine = await serveEngine(home);
      const { client, transport } = shimClient('node', home);
      try {
        await tally.attempt('the engine keeps answering after the client it writes a FIFO boot answer for lists its tools', async () => {
          await within(client.connect(transport), 20_000, 'initialize');
          await within(client.listTools(), 20_000, 'tools/list');
          // The boot answer is written 150 ms after the list; status polled well after that.
          for (let i = 0; i < 5; i++) {
            await new Promise((r) => setTimeout(r, 200));
            await within(engine.api('status'), 5_000, 'status');
          }
          await within(client.listTools(), 5_000, 'a second tools/list');
        });
      } finally {
        releaseFifo(fifo);
        await client.close();
        await engine.stop();
      }

      // A boot answer that would be used, but written by another user: the client waits for the engine.
      await noEngine(home);
      rmSync(bootFile(home), { force: true });
      const boot = new BootAnswers({ dir: BootAnswers.dirOf(path.join(home, 'run')), configFile: path.join(home, 'config.json') });
      boot.record({ profile: 'p', connector: undefined, clientName: CLIENT }, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'switchboard-p', version: '1' } }, 'tools', { tools: [] });
      await boot.dispose();
      chownSync(bootFile(home), 65534, 65534);
      for (const kind of KINDS) {
        await tally.attempt(`the ${kind} shim does not answer from a boot answer owned by uid 65534`, async () => {
          await noEngine(home);
          const { client: c, transport: t } = shimClient(kind, home, { SWITCHBOARD_ENGINE_COMMAND: JSON.stringify([process.execPath, LATE_ENGINE, '1500']) });
          try {
            await within(c.connect(t), 20_000, 'initialize');
            // initialize was the engine's: it runs by the time the answer came.
            expect(engineRuns(home)).toBe(true);
          } finally {
            await c.close();
          }
        });
      }
    } finally {
      releaseFifo(fifo);
      await noEngine(home);
    }
  }, 180_000);

  hardeningCase('attack', "FIFOs planted at the engine's other home files (lock, start claim, token, pins, skills, secrets, records) neither stop it starting nor freeze it", async (tally) => {
    const home = makeHome(CONFIG);
    const planted = ['run/engine.lock', 'run/engine-start.claim', 'token', 'pins.json', 'skills.json', 'secrets.json', 'audit/dropped.json', 'audit/000000000001.ndjson', 'runs/000000000001.ndjson'].map((f) => path.join(home, f));
    for (const kind of KINDS) {
      for (const f of planted) {
        mkdirSync(path.dirname(f), { recursive: true, mode: 0o700 });
        rmSync(f, { force: true });
        execFileSync('mkfifo', ['-m', '600', f]);
      }
      const { client, transport } = shimClient(kind, home);
      try {
        await tally.attempt(`the ${kind} shim starts the engine, which lists and calls`, async () => {
          await within(client.connect(transport), 30_000, 'initialize');
          const tools = await within(
            waitFor(async () => ((await client.listTools()).tools.some((t) => t.name === 'basic__echo') ? true : undefined), 20_000, 'basic__echo'),
            25_000,
            'tools/list',
          );
          expect(tools).toBe(true);
          const r = await within(client.callTool({ name: 'basic__echo', arguments: { text: 'through' } }), 10_000, 'tools/call');
          expect(r.content).toEqual([{ type: 'text', text: 'through' }]);
        });
      } finally {
        for (const f of planted) releaseFifo(f);
        await client.close();
        await noEngine(home);
      }
    }
  }, 180_000);

  hardeningCase('attack', "FIFOs planted at config.json, a server's log, the engine's own log and a client's file freeze neither the engine, nor a shim, nor the engine's stop", async (tally) => {
    // config.json itself a pipe: the engine starts, says what is wrong and what to do, and stops on SIGTERM.
    const bare = makeHome();
    const configFifo = path.join(bare, 'config.json');
    execFileSync('mkfifo', ['-m', '600', configFifo]);
    let engine: Awaited<ReturnType<typeof serveEngine>> | undefined;
    try {
      await tally.attempt('the engine starts with config.json a FIFO and names the problem', async () => {
        engine = await within(serveEngine(bare), 20_000, 'serve with config.json a FIFO');
        const status = await within(engine.api<{ config: { valid: boolean; problems: { message: string }[] } }>('status'), 5_000, 'status');
        expect(status.config.valid).toBe(false);
        expect(status.config.problems.map((p) => p.message).join('\n')).toMatch(/config\.json is not a regular file .* move it away/);
        // Nothing was read, so no empty "copy of the invalid config.json" is kept.
        expect(existsSync(path.join(bare, 'quarantine')) ? readdirSync(path.join(bare, 'quarantine')) : []).toEqual([]);
      });
      await tally.attempt('that engine is gone within 5 s of SIGTERM (a thread waiting on the pipe held up its exit for good)', async () => {
        expect(engine).toBeDefined();
        const t0 = Date.now();
        const exited = new Promise((r) => engine!.proc.once('exit', r));
        engine!.proc.kill('SIGTERM');
        await within(exited, 5_000, 'exit after SIGTERM');
        expect(Date.now() - t0).toBeLessThan(5_000);
        expect(lstatSync(configFifo).isFIFO()).toBe(true);
      });
    } finally {
      releaseFifo(configFifo);
      engine?.proc.kill('SIGKILL');
    }

    // A server writing to stderr with a pipe as its log, and a pipe as the engine's own log (the
    // shim that starts the engine opens that one).
    const spam = { servers: { spam: fixtureServer('stderr-spam.mjs') }, profiles: { p: { servers: ['spam'] } } };
    const home = makeHome(spam);
    const logs = ['logs/spam.log', 'logs/engine.out.log'].map((f) => path.join(home, f));
    for (const kind of KINDS) {
      for (const f of logs) {
        mkdirSync(path.dirname(f), { recursive: true, mode: 0o700 });
        rmSync(f, { force: true });
        execFileSync('mkfifo', ['-m', '600', f]);
      }
      const { client, transport } = shimClient(kind, home);
      try {
        await tally.attempt(`the ${kind} shim starts the engine and calls a server that writes to its log, both logs FIFOs`, async () => {
          await within(client.connect(transport), 30_000, 'initialize');
          await within(
            waitFor(async () => ((await client.listTools()).tools.some((t) => t.name === 'spam__count') ? true : undefined), 20_000, 'spam__count'),
            25_000,
            'tools/list',
          );
          // The server has written thousands of lines by now; every flush met the pipe.
          await new Promise((r) => setTimeout(r, 500));
          const r = await within(client.callTool({ name: 'spam__count', arguments: {} }), 10_000, 'tools/call');
          expect(Number((r.content as { text: string }[])[0]!.text)).toBeGreaterThan(0);
          for (const f of logs) expect(lstatSync(f).isFIFO()).toBe(true);
        });
      } finally {
        for (const f of logs) releaseFifo(f);
        await client.close();
        await noEngine(home);
      }
    }

    // A client's file a pipe: connecting says so at once, the engine goes on answering, the pipe stays.
    const user = makeHome();
    const cursorFile = path.join(user, '.cursor', 'mcp.json');
    mkdirSync(path.dirname(cursorFile), { recursive: true });
    execFileSync('mkfifo', ['-m', '600', cursorFile]);
    const served = await serveEngine(makeHome(CONFIG), { ...process.env, HOME: user, XDG_CONFIG_HOME: path.join(user, '.config') });
    try {
      await tally.attempt("connecting Cursor, whose file is a FIFO, is refused with a sentence, and nothing hangs", async () => {
        const refused = await within(
          served.api('clients.connect', { client: 'cursor', profile: 'p' }).then(() => 'connected', (err: Error) => err.message),
          5_000,
          'clients.connect',
        );
        expect(refused).toMatch(/mcp\.json is not a regular file .*Move it away/);
        await within(served.api('clients.list'), 5_000, 'clients.list');
        await within(served.api('status'), 5_000, 'status');
        expect(lstatSync(cursorFile).isFIFO()).toBe(true);
      });
    } finally {
      releaseFifo(cursorFile);
      await served.stop();
    }
  }, 240_000);

  hardeningCase('attack', `a folder and links planted among (or in place of) the boot answers neither lift the ${MAX_BOOT_FILES}-file cap nor lose what they point to`, async (tally) => {
    const home = makeHome(CONFIG);
    const dir = path.join(home, 'run', 'boot');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Planted under boot answers' names, older than any answer so that pruning meets them first.
    const outside = path.join(os.tmpdir(), `sb-planted-${process.pid}`);
    mkdirSync(path.join(outside, 'keep'), { recursive: true });
    writeFileSync(path.join(outside, 'keep', 'precious.txt'), 'mine');
    writeFileSync(path.join(outside, 'file.txt'), 'mine too');
    const planted = { folder: `${'0'.repeat(32)}.json`, dirLink: `${'1'.repeat(32)}.json`, fileLink: `${'2'.repeat(32)}.json` };
    mkdirSync(path.join(dir, planted.folder));
    writeFileSync(path.join(dir, planted.folder, 'inside.txt'), 'x');
    symlinkSync(path.join(outside, 'keep'), path.join(dir, planted.dirLink));
    symlinkSync(path.join(outside, 'file.txt'), path.join(dir, planted.fileLink));
    for (const name of Object.values(planted)) utimesSync(path.join(dir, name), new Date(1_000_000), new Date(1_000_000));

    const engine = await serveEngine(home);
    const clients = MAX_BOOT_FILES + 16;
    try {
      // Each a client naming itself anew, straight on the engine's socket as a shim speaks.
      for (let i = 0; i < clients; i++) await listAs(socketPath(home), `rotating client ${i}`);
      // Regular files by the folder's own listing (an lstat after it could meet one pruned meanwhile).
      const answers = () => readdirSync(dir, { withFileTypes: true }).filter((d) => d.isFile() && /^[0-9a-f]{32}\.json$/.test(d.name)).map((d) => d.name);
      // Written 150 ms after each list; the last ones settle shortly after the loop.
      await waitFor(() => answers().includes(`${bootKey('p', undefined, `rotating client ${clients - 1}`)}.json`), 10_000, 'the last boot answer');
      await new Promise((r) => setTimeout(r, 500));
      await tally.attempt(`at most ${MAX_BOOT_FILES} boot answers after ${clients} client names`, () => {
        expect(answers().length).toBeLessThanOrEqual(MAX_BOOT_FILES);
        expect(answers()).not.toContain(`${bootKey('p', undefined, 'rotating client 0')}.json`);
      });
      await tally.attempt('the planted folder and links are left as they were, and what they point to whole', () => {
        expect(readFileSync(path.join(dir, planted.folder, 'inside.txt'), 'utf8')).toBe('x');
        expect(lstatSync(path.join(dir, planted.dirLink)).isSymbolicLink()).toBe(true);
        expect(readFileSync(path.join(outside, 'keep', 'precious.txt'), 'utf8')).toBe('mine');
        expect(readFileSync(path.join(outside, 'file.txt'), 'utf8')).toBe('mine too');
      });

      // The folder itself a link to another: nothing written or removed there.
      const elsewhere = path.join(outside, 'elsewhere');
      mkdirSync(elsewhere);
      const theirs = Array.from({ length: MAX_BOOT_FILES + 1 }, (_, i) => `${i.toString(16).padStart(32, 'a')}.json`);
      for (const name of theirs) writeFileSync(path.join(elsewhere, name), 'theirs');
      rmSync(dir, { recursive: true });
      symlinkSync(elsewhere, dir);
      for (let i = 0; i < 3; i++) await listAs(socketPath(home), `linked client ${i}`);
      await new Promise((r) => setTimeout(r, 800));
      await tally.attempt('a link in place of the boot folder gets nothing written, and nothing removed where it points', () => {
        expect(readdirSync(elsewhere).sort()).toEqual(theirs.sort());
      });
    } finally {
      await engine.stop();
      rmSync(outside, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A 2025-11-25 session on the engine's socket that initializes as `name` and lists tools, then ends. */
async function listAs(socket: string, name: string): Promise<void> {
  const sock = net.createConnection(socket);
  let buf = '';
  const answered = new Promise<void>((resolve, reject) => {
    sock.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      if (/"id":2,"result"/.test(buf)) resolve();
    });
    sock.on('error', reject);
    sock.on('close', () => reject(new Error(`the engine closed the session of ${name}: ${buf}`)));
  });
  const line = (m: unknown) => sock.write(JSON.stringify(m) + '\n');
  line({ kind: 'mcp', profile: 'p', v: 1 });
  line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } });
  line({ jsonrpc: '2.0', method: 'notifications/initialized' });
  line({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  try {
    await within(answered, 10_000, `tools/list of ${name}`);
  } finally {
    sock.destroy();
  }
}
