// After the engine restarts, a call the client sends once the old engine is gone is delivered to
// the next engine and answered; only calls that were really in flight when the engine stopped
// are told "stopped during this request".
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanupHomes, cli, enginePid, fixtureServer, makeHome, shimClient, stopEngine, waitFor } from '../helpers/home.ts';

afterAll(cleanupHomes);

const text = (r: unknown) => ((r as { content: { text: string }[] }).content[0]!.text);

describe('shim across an engine restart', () => {
  it('a call sent after the engine stopped reaches the next engine', { timeout: 90_000 }, async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const client = await shimClient(home, 'demo');
    try {
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'basic__echo'), 20_000, 'basic__echo');
      expect(text(await client.callTool({ name: 'basic__echo', arguments: { text: 'one' } }))).toContain('one');
      const first = enginePid(home);
      await stopEngine(home);
      for (const word of ['two', 'three']) {
        const r = await client.callTool({ name: 'basic__echo', arguments: { text: word } }, undefined, { timeout: 30_000 });
        expect(JSON.stringify(r)).not.toContain('stopped during this request');
        expect(text(r)).toContain(word);
      }
      expect(enginePid(home)).not.toBe(first);
    } finally {
      await client.close();
    }
  });

  it('the next engine records the client by its own name for the calls it gets right behind the resume', { timeout: 90_000 }, async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const client = await shimClient(home, 'demo', { name: 'restart-client' });
    try {
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'basic__echo'), 20_000, 'basic__echo');
      await stopEngine(home);
      // Sent while no engine runs: the shim hands them to the next one right behind its hello.
      const words = ['two', 'three', 'four'];
      const answers = await Promise.all(words.map((word) => client.callTool({ name: 'basic__echo', arguments: { text: word } }, undefined, { timeout: 30_000 })));
      expect(answers.map(text)).toEqual(words);
      const clients = await waitFor(() => {
        const all = JSON.parse(cli(home, ['audit', '--json', '--limit', '20']).stdout) as { client: string; tool: string }[];
        const echo = all.filter((e) => e.tool === 'echo');
        return echo.length >= words.length ? echo.map((e) => e.client) : undefined;
      }, 10_000, 'the audit entries');
      expect(clients).toEqual(words.map(() => 'restart-client'));
    } finally {
      await client.close();
      await stopEngine(home);
    }
  });

  it('only the call in flight is told it stopped; calls after it are answered', { timeout: 90_000 }, async () => {
    const home = makeHome({
      servers: { basic: fixtureServer('basic.mjs'), slow: fixtureServer('slow.mjs') },
      profiles: { demo: { servers: ['basic', 'slow'] } },
    });
    const client = await shimClient(home, 'demo');
    try {
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'slow__wait'), 20_000, 'slow__wait');
      const inFlight = client.callTool({ name: 'slow__wait', arguments: { ms: 20_000 } }, undefined, { timeout: 60_000 }).then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      );
      await new Promise((r) => setTimeout(r, 300));
      await stopEngine(home);
      expect(await inFlight).toContain('stopped during this request');
      for (const word of ['two', 'three']) {
        const r = await client.callTool({ name: 'basic__echo', arguments: { text: word } }, undefined, { timeout: 30_000 });
        expect(JSON.stringify(r)).not.toContain('stopped during this request');
        expect(text(r)).toContain(word);
      }
    } finally {
      await client.close();
    }
  });

  it('never tells an already answered request that the engine stopped', { timeout: 90_000 }, async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const shim = spawn(process.execPath, [BIN, 'shim', '--profile', 'demo', '--home', home], { stdio: ['pipe', 'pipe', 'ignore'] });
    const lines: { id?: number; result?: unknown; error?: { message: string } }[] = [];
    let buf = '';
    shim.stdout.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    const send = (m: object) => shim.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
    const answer = (id: number) => waitFor(() => lines.find((l) => l.id === id), 30_000, `an answer to ${id}`);
    try {
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      await answer(1);
      send({ method: 'notifications/initialized' });
      // A large answer too: its id comes at the end of a line longer than the shim inspects whole.
      send({ id: 2, method: 'tools/call', params: { name: 'basic__echo', arguments: { text: 'x'.repeat(3_000_000) } } });
      send({ id: 3, method: 'tools/call', params: { name: 'basic__echo', arguments: { text: 'small' } } });
      expect((await answer(2)).result).toBeDefined();
      expect((await answer(3)).result).toBeDefined();
      await stopEngine(home);
      send({ id: 4, method: 'tools/call', params: { name: 'basic__echo', arguments: { text: 'after' } } });
      expect(JSON.stringify((await answer(4)).result)).toContain('after');
      // Each request got exactly one answer: none of the answered ones was told the engine stopped.
      for (const id of [1, 2, 3, 4]) expect(lines.filter((l) => l.id === id), `answers to ${id}`).toHaveLength(1);
      expect(lines.some((l) => l.error?.message.includes('stopped during this request'))).toBe(false);
    } finally {
      shim.kill();
    }
  });

  it('keeps trying to start the next engine while a dying one still holds the lock', { timeout: 90_000 }, async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const client = await shimClient(home, 'demo');
    // Stands for an engine that is still shutting down (killing its servers) and holds the lock.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
    try {
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'basic__echo'), 20_000, 'basic__echo');
      const pid = enginePid(home)!;
      process.kill(pid, 'SIGKILL');
      await waitFor(() => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 5000, 'the engine to die');
      writeFileSync(path.join(home, 'run', 'engine.lock'), String(holder.pid));
      // The shim's first start (after its grace period) fails on the lock; once the holder is
      // gone (5 s) a later start must succeed, long before the shim's 20 s deadline.
      const r = await client.callTool({ name: 'basic__echo', arguments: { text: 'after the lock' } }, undefined, { timeout: 30_000 });
      expect(text(r)).toContain('after the lock');
    } finally {
      holder.kill();
      await client.close();
    }
  });
});
