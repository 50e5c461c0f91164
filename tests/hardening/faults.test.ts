// Faults: the engine killed mid-call, kill -9 during config saves, a corrupt
// config.json at start, misbehaving upstreams, and a disk that refuses the records.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StatusReport } from '../../src-shared/api.ts';
import { cleanupHomes, enginePid, fixtureServer, makeHome, ROOT, shimClient, stopEngine, waitFor } from '../helpers/home.ts';
import { makeVersion } from '../engine/config/fixtures/versions.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

function rssMb(pid: number): number {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return NaN; // gone: the caller's assertions say why
  }
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

describe('engine killed mid-call', () => {
  hardeningCase('fault', 'an in-flight call fails, the shim reconnects and calls work again', async (tally) => {
    const home = makeHome({ servers: { slow: fixtureServer('slow.mjs') }, profiles: { main: { servers: ['slow'] } } });
    const client = await shimClient(home, 'main');
    try {
      expect(text(await client.callTool({ name: 'slow__wait', arguments: { ms: 1 } }))).toBe('waited 1');
      for (let round = 0; round < 3; round++) {
        tally.tried++;
        const pid = enginePid(home)!;
        const inflight = client.callTool({ name: 'slow__wait', arguments: { ms: 20_000 } }, undefined, { timeout: 60_000 }).then(
          (r) => ({ ok: !(r as CallToolResult).isError }),
          () => ({ ok: false }),
        );
        await new Promise((r) => setTimeout(r, 300));
        process.kill(pid, 'SIGKILL');
        const t0 = Date.now();
        expect((await inflight).ok).toBe(false);
        expect(Date.now() - t0).toBeLessThan(15_000);
        const back = await waitFor(
          () => client.callTool({ name: 'slow__wait', arguments: { ms: 1 } }).then((r) => text(r) === 'waited 1', () => false),
          20_000,
          'calls to work again',
        );
        expect(back).toBe(true);
        expect(enginePid(home)).not.toBe(pid);
        tally.held++;
      }
    } finally {
      await client.close();
      await stopEngine(home);
    }
  }, 120_000);
});

describe('kill -9 during config saves', () => {
  hardeningCase('fault', 'config.json always parses and equals one saved version across 1,000 saves', async (tally) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-hard-saves-'));
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify(makeVersion('0:0')));
    let saves = 0;
    let observed = 0;
    try {
      for (let child = 1; saves < 1000; child++) {
        const p = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tests/engine/config/fixtures/save-loop.ts'), file, dir, String(child)], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        const exited = new Promise((r) => p.on('exit', r));
        // Kill after a random number of saves, at a random moment inside the next one.
        const target = 20 + Math.floor(Math.random() * 60);
        await new Promise<void>((resolve) => {
          p.stdout!.setEncoding('utf8').on('data', (d: string) => {
            out += d;
            if ((out.match(/saved /g) ?? []).length >= target) resolve();
          });
          p.on('exit', () => resolve());
        });
        await new Promise((r) => setTimeout(r, Math.random() * 8));
        p.kill('SIGKILL');
        await exited;
        tally.tried++;
        const done = (out.match(/saved /g) ?? []).length;
        saves += done;
        // The file is either the last version reported saved, or the one being saved at the kill.
        const got = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
        const allowed = [`${child}:${done}`, `${child}:${done + 1}`];
        expect(allowed).toContain(got.version);
        expect(got).toEqual(makeVersion(got.version));
        observed++;
        tally.held++;
      }
      tally.notes!.push(`${saves} saves, ${observed} kills`);
      expect(saves).toBeGreaterThanOrEqual(1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('corrupt config.json at start', () => {
  hardeningCase('fault', 'the corrupt file is quarantined, kept, and the last good version served', async (tally) => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { main: { servers: ['basic'] } } });
    let engine = await serveEngine(home);
    await engine.stop();
    const broken = '{ "servers": { "basic": { "command": ';
    writeFileSync(path.join(home, 'config.json'), broken);
    tally.tried++;
    engine = await serveEngine(home);
    try {
      const st = await engine.api<StatusReport>('status');
      expect(st.config.valid).toBe(false);
      expect(st.config.problems[0]!.line).toBe(1);
      expect(engine.output()).toMatch(/config\.json has problems/);
      expect(Object.keys(st.profiles)).toEqual(['main']);
      const client = await shimClient(home, 'main');
      expect(text(await client.callTool({ name: 'basic__echo', arguments: { text: 'still here' } }))).toBe('still here');
      await client.close();
      // Never overwritten, and a copy kept aside.
      expect(readFileSync(path.join(home, 'config.json'), 'utf8')).toBe(broken);
      const q = path.join(home, 'quarantine');
      expect(existsSync(q) && readdirSync(q).some((f) => readFileSync(path.join(q, f), 'utf8') === broken)).toBe(true);
      tally.held++;
    } finally {
      await engine.stop();
    }
  });
});

describe('misbehaving upstreams', () => {
  hardeningCase('fault', 'crash loops, hangs, stdout garbage, 10 MB messages and stderr floods leave others working', async (tally) => {
    const home = makeHome({
      servers: {
        basic: fixtureServer('basic.mjs'),
        crashy: fixtureServer('crash-at-start.mjs'),
        hang: fixtureServer('hang.mjs', { callTimeoutSec: 2 }),
        garbage: fixtureServer('garbage-stdout.mjs'),
        big: fixtureServer('big-result.mjs'),
        spam: fixtureServer('stderr-spam.mjs'),
      },
      profiles: { main: { servers: ['basic', 'crashy', 'hang', 'garbage', 'big', 'spam'] } },
    });
    const engine = await serveEngine(home);
    const pid = engine.proc.pid!;
    const client = await shimClient(home, 'main');
    const echo = async (t: string) => expect(text(await client.callTool({ name: 'basic__echo', arguments: { text: t } }))).toBe(t);
    try {
      await waitFor(async () => (await engine.api<StatusReport>('status')).servers.spam?.state === 'ready', 20_000, 'servers');
      const baseline = rssMb(pid);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);

      tally.tried++; // a hang: the call times out, others flow meanwhile
      const hung = client.callTool({ name: 'hang__hang', arguments: {} }).then((r) => (r as CallToolResult).isError === true, () => true);
      for (let i = 0; i < 5; i++) await echo(`during hang ${i}`);
      expect(await hung).toBe(true);
      tally.held++;

      tally.tried++; // garbage on stdout between messages
      expect(text(await client.callTool({ name: 'garbage__echo', arguments: { text: 'clean' } }))).toBe('clean');
      tally.held++;

      tally.tried++; // a 10 MB message arrives whole
      // 10 MB (decimal): the SDK's own test client refuses lines over 10 MiB, so stay just under it.
      const bytes = 10_000_000;
      const big = text(await client.callTool({ name: 'big__big', arguments: { bytes } }, undefined, { timeout: 60_000 }));
      expect(big.length).toBe(bytes);
      expect(big.slice(0, 32)).toBe('0123456789abcdef0123456789abcdef');
      await echo('after big');
      tally.held++;

      tally.tried++; // 20k stderr lines a second for 3 s: the log stays capped, the server answers
      await new Promise((r) => setTimeout(r, 3000));
      expect(Number(text(await client.callTool({ name: 'spam__count', arguments: {} })))).toBeGreaterThan(20_000);
      const logBytes = statSync(path.join(home, 'logs', 'spam.log')).size;
      expect(logBytes).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
      await echo('after spam');
      tally.held++;

      tally.tried++; // a crash loop backs off and gives up instead of spinning
      const st = await engine.api<StatusReport>('status');
      expect(['restarting', 'failed']).toContain(st.servers.crashy!.state);
      expect(st.servers.crashy!.restarts).toBeLessThan(10);
      expect(st.servers.basic!.state).toBe('ready');
      tally.held++;

      clearInterval(sampler);
      tally.notes!.push(`engine RSS ${baseline.toFixed(0)} → peak ${peak.toFixed(0)} MB`);
      // Bounded: a 10 MB message is held a few times over in transit, never the whole flood.
      expect(peak - baseline).toBeLessThan(400);
    } catch (err) {
      throw new Error(`${(err as Error).message} (engine exit ${engine.proc.exitCode} ${engine.proc.signalCode}, steps held ${tally.held})\n--- engine output ---\n${engine.output().slice(-3000)}`);
    } finally {
      await client.close();
      await engine.stop();
    }
  }, 120_000);
});

describe('records refused by the disk', () => {
  const mounts: string[] = [];
  hardeningCase('fault', 'with the disk full or read-only, runs still answer and the loss is reported once', async (tally) => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { code: { servers: ['basic'], surface: 'code' } } });
    const engine = await serveEngine(home);
    try {
      await waitFor(async () => (await engine.api<StatusReport>('status')).servers.basic?.state === 'ready', 20_000, 'basic');
      // Real refusals from the kernel: the run history on a full filesystem (ENOSPC), the audit
      // log on a read-only one (EROFS). Permissions cannot stand in: tests run as root.
      const runsDir = path.join(home, 'runs');
      const auditDir = path.join(home, 'audit');
      for (const d of [runsDir, auditDir]) expect(readdirSync(d).filter((f) => f.endsWith('.ndjson'))).toEqual([]);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', runsDir]);
      mounts.push(runsDir);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', auditDir]);
      mounts.push(auditDir);
      try {
        for (let i = 0; ; i++) appendFileSync(path.join(runsDir, 'filler'), Buffer.alloc(4096, 1));
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
      }
      for (let i = 0; i < 5; i++) {
        tally.tried++;
        const r = await engine.api<{ text: string; isError: boolean }>('exec', { profile: 'code', code: `return (await basic.echo({ text: "run ${i}" }))` });
        expect(r.isError, r.text).toBe(false);
        expect(r.text).toContain(`run ${i}`);
        tally.held++;
      }
      const st = await engine.api<StatusReport>('status');
      expect(st.recordLosses?.map((l) => [l.store, l.count])).toEqual([
        ['audit log', 1],
        ['run history', 1],
      ]);
      expect(st.recordLosses![0]!.message).toMatch(/EROFS|read-only/);
      expect(st.recordLosses![1]!.message).toMatch(/ENOSPC|no space/);
      // Said once each in the engine's log, not once per record.
      expect(engine.output().match(/records are not being saved/g)).toHaveLength(2);
    } finally {
      await engine.stop();
      for (const m of mounts.splice(0)) execFileSync('umount', ['-l', m]);
    }
  });
});
