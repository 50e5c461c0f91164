import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture, isAlive, Scratch, until } from './helpers.ts';

let s: Scratch;
beforeEach(() => {
  s = new Scratch();
});
afterEach(async () => {
  await s.dispose();
});

describe('Upstream connection attempts', () => {
  it('keeps nothing of a crashed connection while the restart waits: no pid, no protocol', async () => {
    // A long backoff holds the server in `restarting` with no new attempt under way.
    const up = s.upstream('crash', fixture('crash-mid-call.mjs'), { backoffInitialMs: 60_000, backoffMaxMs: 60_000 });
    await up.waitReady(15_000);
    const pid = up.pid!;
    expect(up.protocol).not.toBeNull();
    await up.callTool({ name: 'boom', arguments: {} }).catch(() => {});
    await until(() => up.state === 'restarting', 10_000, 'the crash to be seen');
    await until(() => !isAlive(pid), 10_000, 'the crashed child to be gone');
    expect(up.status()).not.toHaveProperty('pid');
    expect(up.pid).toBeUndefined();
    expect(up.protocol).toBeNull();
    expect(up.lastError).toBe('crash exited with code 3: boom: exiting mid-call');
  });

  it('starts a restart from a clean attempt: a new child, and the old one stopped', async () => {
    const up = s.upstream('basic', fixture('basic.mjs'));
    await up.waitReady(15_000);
    const first = up.pid!;
    await up.restart();
    expect(up.pid).not.toBe(first);
    await up.waitReady(15_000);
    expect(up.pid).toBeGreaterThan(0);
    expect(up.pid).not.toBe(first);
    expect(isAlive(first)).toBe(false);
    expect(up.status()).toMatchObject({ state: 'ready', restarts: 1, lastError: null });
  });
});
