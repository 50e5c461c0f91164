import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChildStdioTransport } from '../../../src-main/engine/upstream/stdio-transport.ts';
import { CAN_FIND_MARKED, killMarked, MARK_VAR, markedGone, markedProcesses, newMark } from '../../helpers/processes.ts';
import { FIXTURES, fixture, isAlive, Scratch, text } from './helpers.ts';

let s: Scratch;
beforeEach(() => {
  s = new Scratch();
});
afterEach(async () => {
  await s.dispose();
});

describe('stdio transport', () => {
  it('stops the whole process tree, even children that ignore SIGTERM', async () => {
    const pidFile = path.join(s.dir, 'pids.json');
    const up = s.upstream('stubborn', fixture('ignore-sigterm.mjs', { env: { PID_FILE: pidFile } }));
    await up.waitReady(15_000);
    const { parent, children } = JSON.parse(readFileSync(pidFile, 'utf8')) as { parent: number; children: number[] };
    expect(children).toHaveLength(2);
    for (const pid of [parent, ...children]) expect(isAlive(pid)).toBe(true);
    await up.dispose();
    for (const pid of [parent, ...children]) expect(isAlive(pid), `pid ${pid} still running`).toBe(false);
    expect(up.logTail(20).some((l) => l.includes('ignoring SIGTERM'))).toBe(true);
  });

  it('delivers a 20 MB result intact', async () => {
    const up = s.upstream('big', fixture('big-result.mjs'));
    await up.waitReady(15_000);
    const t = text(await up.callTool({ name: 'big', arguments: {} }));
    expect(t.length).toBe(20 * 1024 * 1024);
    expect(t.slice(0, 32)).toBe('0123456789abcdef0123456789abcdef');
    expect(/^(0123456789abcdef)+$/.test(t)).toBe(true);
  });

  it('answers an oversized message with an error and keeps the connection', async () => {
    const up = s.upstream('big', fixture('big-result.mjs'), { maxMessageBytes: 1024 * 1024 });
    await up.waitReady(15_000);
    const pid = up.pid;
    const err = await up.callTool({ name: 'big', arguments: { bytes: 3 * 1024 * 1024 } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'upstream-error' });
    expect((err as Error).message).toContain('over the 1 MB limit');
    expect(text(await up.callTool({ name: 'big', arguments: { bytes: 1000 } })).length).toBe(1000);
    expect(up.pid).toBe(pid);
    expect(up.state).toBe('ready');
  });

  it('keeps the stderr log capped while a server spams it', async () => {
    const maxLogBytes = 256 * 1024;
    const up = s.upstream('spam', fixture('stderr-spam.mjs'), { maxLogBytes });
    await up.waitReady(15_000);
    const heapBefore = process.memoryUsage().heapUsed;
    // Enough time for several rotations at ~2 MB/s of stderr.
    await new Promise((r) => setTimeout(r, 1500));
    const written = Number(text(await up.callTool({ name: 'count', arguments: {} })));
    expect(written).toBeGreaterThan(5000);
    await up.dispose();
    const log = up.logFile;
    expect(statSync(log).size).toBeLessThanOrEqual(maxLogBytes);
    expect(existsSync(`${log}.1`)).toBe(true);
    expect(statSync(`${log}.1`).size).toBeLessThanOrEqual(maxLogBytes);
    expect(readFileSync(log, 'utf8')).toMatch(/spam line \d+/);
    expect(up.logTail(500).length).toBeLessThanOrEqual(500);
    // Generous: the point is that nothing grows with the amount written (~3 MB here).
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  // A server stopped while its connection is being made (an engine stopped while it starts).
  describe.skipIf(!CAN_FIND_MARKED)('closed before or while it starts', () => {
    const stubborn = (mark: string, pidFile: string) =>
      new ChildStdioTransport({ command: process.execPath, args: [path.join(FIXTURES, 'ignore-sigterm.mjs')], env: { [MARK_VAR]: mark, PID_FILE: pidFile }, killGraceMs: 300 });

    it('starts no process once closed', async () => {
      const mark = newMark();
      try {
        const t = stubborn(mark, path.join(s.dir, 'pids.json'));
        await t.close();
        await expect(t.start()).rejects.toThrow(/closed before the server started/);
        await new Promise((r) => setTimeout(r, 300));
        expect(markedProcesses(mark)).toEqual([]);
      } finally {
        killMarked(mark);
      }
    });

    it('stops the process tree when closed during the spawn', async () => {
      const mark = newMark();
      try {
        const t = stubborn(mark, path.join(s.dir, 'pids.json'));
        const started = t.start();
        const closed = t.close();
        await started.catch(() => undefined);
        await closed;
        expect(await markedGone(mark, 3000)).toEqual([]);
      } finally {
        killMarked(mark);
      }
    });
  });
});
