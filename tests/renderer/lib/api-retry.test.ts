// The browser page's API requests (src-renderer/lib/api-retry.ts): a request that cannot reach the engine for a moment
// (an engine taken over by a new one frees its port for a few milliseconds) is tried again when
// it changes nothing; one that changes something is not sent twice.
import { describe, expect, it } from 'vitest';
import { isReadOnly, retryUnreachable } from '../../../src-renderer/lib/api-retry.ts';

/** A request that fails `failures` times (connection refused), then answers. */
function flaky(failures: number) {
  const calls: number[] = [];
  const send = async () => {
    calls.push(calls.length);
    if (calls.length <= failures) throw new TypeError('fetch failed');
    return 'answered';
  };
  return { send, calls };
}

const noWait = async () => {};

describe('API requests of the browser page', () => {
  it('tries again while the engine cannot be reached for a moment', async () => {
    const f = flaky(3);
    await expect(retryUnreachable(f.send, noWait)).resolves.toBe('answered');
    expect(f.calls).toHaveLength(4);
  });

  it('gives up after a few seconds of tries', async () => {
    const f = flaky(100);
    const waits: number[] = [];
    await expect(retryUnreachable(f.send, async (ms) => void waits.push(ms))).rejects.toThrow('fetch failed');
    expect(f.calls).toHaveLength(6);
    expect(waits).toEqual([100, 200, 400, 800, 800]);
  });

  it('tells reads from changes', () => {
    for (const m of ['status', 'config.get', 'config.text', 'runs.list', 'runs.get', 'audit.list', 'servers.log', 'servers.tools', 'catalog.search', 'profiles.catalog', 'approvals.list', 'clients.list'])
      expect(isReadOnly(m), m).toBe(true);
    for (const m of ['config.set', 'config.unset', 'exec', 'servers.restart', 'approvals.decide', 'skills.save', 'catalog.install', 'clients.connect', 'engine.stop'])
      expect(isReadOnly(m), m).toBe(false);
  });
});
