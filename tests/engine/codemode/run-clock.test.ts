// A run's clock with an injected time source: the deadline stops while a call waits
// for approval, but the code's own running while held still counts.
import { describe, expect, it } from 'vitest';
import { RunClock } from '../../../src-main/engine/codemode/run-clock.ts';

function clockAt(deadline: number) {
  const t = { now: 0 };
  return { t, clock: new RunClock(deadline, () => t.now) };
}

describe('RunClock', () => {
  it('passes its deadline strictly after it', () => {
    const { t, clock } = clockAt(1000);
    t.now = 1000;
    expect(clock.pastDeadline()).toBe(false);
    expect(clock.msLeft()).toBe(0);
    t.now = 1001;
    expect(clock.pastDeadline()).toBe(true);
  });

  it('does not count time spent held, and moves the deadline by it', () => {
    const { t, clock } = clockAt(1000);
    t.now = 400;
    expect(clock.hold(true)).toBe(false);
    expect(clock.held).toBe(true);
    expect(clock.msLeft()).toBeUndefined();
    t.now = 50_000;
    expect(clock.pastDeadline()).toBe(false);
    expect(clock.hold(false)).toBe(true);
    expect(clock.msLeft()).toBe(600);
    t.now = 50_601;
    expect(clock.pastDeadline()).toBe(true);
  });

  it('counts the code running while held, including a job still running', () => {
    const { t, clock } = clockAt(1000);
    t.now = 400;
    clock.hold(true);
    t.now = 500;
    clock.jobStarted();
    t.now = 900;
    clock.jobEnded();
    t.now = 5000;
    expect(clock.pastDeadline()).toBe(false);
    clock.jobStarted();
    t.now = 5201;
    // 400 ms ran before, 201 ms running now: over the 600 ms that were left at the hold.
    expect(clock.pastDeadline()).toBe(true);
    clock.jobEnded();
    clock.hold(false);
    expect(clock.msLeft()).toBe(0);
  });

  it('ignores a second hold and a release that was never held', () => {
    const { t, clock } = clockAt(1000);
    expect(clock.hold(false)).toBe(false);
    t.now = 200;
    clock.hold(true);
    t.now = 700;
    clock.hold(true);
    t.now = 900;
    clock.hold(false);
    // Held since 200 (the first hold): 800 ms were left then.
    expect(clock.msLeft()).toBe(800);
  });

  it('counts a job run while not held only against the deadline itself', () => {
    const { t, clock } = clockAt(1000);
    clock.jobStarted();
    t.now = 600;
    clock.jobEnded();
    clock.hold(true);
    t.now = 10_000;
    clock.hold(false);
    expect(clock.msLeft()).toBe(400);
  });
});
