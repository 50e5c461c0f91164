import { describe, expect, it } from 'vitest';
import { createEngineSupervisor, type BackoffOptions, type EngineState } from '../../src-main/electron/engine-supervisor.ts';
import { FakeClock, FakeProcess } from './fake-electron.ts';
import { RESTART_BACKOFF } from '../../src-shared/backoff.ts';

function setup(backoff: BackoffOptions = { initialMs: 500, maxMs: 4000, healthyAfterMs: 60_000, stopGraceMs: 1000 }) {
  const clock = new FakeClock();
  const spawned: FakeProcess[] = [];
  const states: EngineState[] = [];
  const sup = createEngineSupervisor({
    spawn: () => {
      const p = new FakeProcess();
      spawned.push(p);
      return p;
    },
    timers: clock,
    backoff,
    onstate: (s) => states.push(s),
  });
  return { clock, spawned, states, sup };
}

describe('engine supervisor', () => {
  it('restarts the engine with backoff', () => {
    const { clock, spawned, sup } = setup();
    sup.start();
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      spawned.at(-1)!.crash(1);
      delays.push(clock.pending()[0]!);
      clock.advance(delays.at(-1)! - 1);
      expect(spawned).toHaveLength(i + 1);
      clock.advance(1);
      expect(spawned).toHaveLength(i + 2);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000]);
  });

  it('forgets past crashes after a healthy run', () => {
    const { clock, spawned, sup } = setup();
    sup.start();
    spawned[0]!.crash();
    clock.advance(500);
    spawned[1]!.crash();
    expect(clock.pending()).toEqual([1000]);
    clock.advance(1000);
    clock.advance(120_000);
    spawned[2]!.crash();
    expect(clock.pending()).toEqual([500]);
  });

  it('uses the restart policy the engine uses for its servers when given none', () => {
    const { clock, spawned, sup } = setup({});
    sup.start();
    spawned[0]!.crash();
    expect(clock.pending()).toEqual([RESTART_BACKOFF.initialMs]);
    clock.advance(RESTART_BACKOFF.initialMs + RESTART_BACKOFF.stableAfterMs - 1);
    spawned[1]!.crash();
    expect(clock.pending()).toEqual([RESTART_BACKOFF.initialMs * 2]);
    clock.advance(RESTART_BACKOFF.initialMs * 2 + RESTART_BACKOFF.stableAfterMs);
    spawned[2]!.crash();
    expect(clock.pending()).toEqual([RESTART_BACKOFF.initialMs]);
  });

  it('reports waiting with the exit code, then running again', () => {
    const { clock, spawned, states, sup } = setup();
    sup.start();
    spawned[0]!.crash(3);
    expect(sup.state).toEqual({ kind: 'waiting', restartInMs: 500, lastExitCode: 3, crashes: 1 });
    clock.advance(500);
    expect(sup.state.kind).toBe('running');
    expect(states.map((s) => s.kind)).toEqual(['running', 'waiting', 'running']);
    expect(sup.process).toBe(spawned[1]);
  });

  it('stops the engine and does not restart it once disposed', async () => {
    const { clock, spawned, sup } = setup();
    sup.start();
    await sup.dispose();
    expect(spawned[0]!.killed).toBe(true);
    clock.advance(60_000);
    expect(spawned).toHaveLength(1);
    expect(sup.state).toEqual({ kind: 'stopped' });
  });

  it('cancels a pending restart when disposed', async () => {
    const { clock, spawned, sup } = setup();
    sup.start();
    spawned[0]!.crash();
    await sup.dispose();
    clock.advance(60_000);
    expect(spawned).toHaveLength(1);
  });

  it('gives up waiting for an engine that ignores kill after the grace period', async () => {
    const { clock, spawned, sup } = setup();
    sup.start();
    spawned[0]!.exitOnKill = false;
    const done = sup.dispose();
    clock.advance(1000);
    await done;
    expect(sup.state).toEqual({ kind: 'stopped' });
  });

  it('lets a released engine run on: not killed on dispose, not restarted when it exits', async () => {
    const { clock, spawned, sup } = setup();
    sup.start();
    sup.release();
    await sup.dispose();
    expect(spawned[0]!.killed).toBe(false);
    spawned[0]!.crash(0);
    clock.advance(60_000);
    expect(spawned).toHaveLength(1);
    expect(sup.process).toBeNull();
  });

  it('starts the engine at once when the person asks, instead of waiting out the backoff', () => {
    const { clock, spawned, sup } = setup();
    sup.start();
    spawned[0]!.crash(1);
    expect(spawned).toHaveLength(1);
    expect(clock.pending()).toEqual([500]);
    sup.restartNow();
    expect(spawned).toHaveLength(2);
    // The waiting restart is gone: no second engine when its time comes.
    expect(clock.pending()).toEqual([]);
    clock.advance(10_000);
    expect(spawned).toHaveLength(2);
  });

  it('kills an engine that stopped answering and starts a new one without backoff when asked', async () => {
    const { clock, spawned, sup, states } = setup();
    sup.start();
    sup.restartNow();
    expect(spawned[0]!.killed).toBe(true);
    await Promise.resolve();
    expect(spawned).toHaveLength(2);
    expect(clock.pending()).toEqual([]);
    expect(states.at(-1)!.kind).toBe('running');
    // Its crash later still restarts with the usual backoff.
    spawned[1]!.crash(1);
    expect(clock.pending()).toEqual([500]);
  });
});
