import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Supervisor } from '../../../src-main/engine/upstream/supervisor.ts';
import { fixture, isAlive, Scratch, until } from './helpers.ts';

let s: Scratch;
let sup: Supervisor;
beforeEach(() => {
  s = new Scratch();
  sup = s.own(new Supervisor({ logsDir: s.logsDir, backoffInitialMs: 50, killGraceMs: 500 }));
});
afterEach(async () => {
  await s.dispose();
});

describe('Supervisor', () => {
  it('does not let a hanging or failing server delay another', async () => {
    sup.apply({
      hang: fixture('hang.mjs', { args: ['-e', 'setInterval(() => {}, 1000)'] }),
      crashy: fixture('crash-at-start.mjs'),
      basic: fixture('basic.mjs'),
    });
    await sup.get('basic')!.waitReady(15_000);
    const st = sup.statuses();
    expect(st.basic!.state).toBe('ready');
    expect(st.basic!.tools).toBeGreaterThan(5);
    // The silent one is still waiting for its initialize answer; its tools are simply absent.
    expect(st.hang!.state).toBe('starting');
    expect(st.hang!.tools).toBe(0);
  });

  it('starts new, restarts changed, stops removed and keeps disabled servers disabled', async () => {
    const states: string[] = [];
    const catalogs: string[] = [];
    sup.on('state', (n) => states.push(n));
    sup.on('catalog', (n) => catalogs.push(n));
    sup.apply({ a: fixture('basic.mjs'), b: fixture('basic.mjs'), off: fixture('basic.mjs', { disabled: true }) });
    await Promise.all([sup.get('a')!.waitReady(15_000), sup.get('b')!.waitReady(15_000)]);
    expect(sup.statuses().off).toMatchObject({ state: 'disabled', tools: 0 });
    expect(catalogs).toEqual(expect.arrayContaining(['a', 'b']));
    const a = sup.get('a')!;
    const bPid = sup.get('b')!.pid!;
    const aPid = a.pid!;

    sup.apply({ a: fixture('basic.mjs'), c: fixture('basic.mjs', { callTimeoutSec: 5 }) });
    expect(sup.get('a')).toBe(a);
    expect(sup.get('b')).toBeUndefined();
    await sup.get('c')!.waitReady(15_000);
    await until(() => !isAlive(bPid), 5000, 'b to stop');
    expect(isAlive(aPid)).toBe(true);

    sup.apply({ a: fixture('basic.mjs', { env: { X: '1' } }), c: fixture('basic.mjs', { callTimeoutSec: 5 }) });
    expect(sup.get('a')).not.toBe(a);
    await sup.get('a')!.waitReady(15_000);
    await until(() => !isAlive(aPid), 5000, 'the old a to stop');
    expect(Object.keys(sup.statuses()).sort()).toEqual(['a', 'c']);
    expect(states).toContain('b');
  });

  it('stops every process on dispose', async () => {
    sup.apply({ a: fixture('basic.mjs'), b: fixture('slow.mjs') });
    await Promise.all([sup.get('a')!.waitReady(15_000), sup.get('b')!.waitReady(15_000)]);
    const pids = [sup.get('a')!.pid!, sup.get('b')!.pid!];
    await sup.dispose();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(sup.statuses()).toEqual({});
  });
});
