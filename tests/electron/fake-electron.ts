// Fakes of the Electron surface the shell's modules take injected.
import { EventEmitter } from 'node:events';
import type { EngineProcess, Timers } from '../../src-main/electron/engine-supervisor.ts';

export class FakeClock implements Timers {
  t = 0;
  #queue: { at: number; fn: () => void; id: number }[] = [];
  #next = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#queue.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#queue = this.#queue.filter((q) => q.id !== handle);
  }
  now(): number {
    return this.t;
  }
  /** Pending timer delays from now, soonest first. */
  pending(): number[] {
    return this.#queue.map((q) => q.at - this.t).sort((a, b) => a - b);
  }
  advance(ms: number): void {
    const until = this.t + ms;
    for (;;) {
      this.#queue.sort((a, b) => a.at - b.at);
      const due = this.#queue[0];
      if (!due || due.at > until) break;
      this.#queue.shift();
      this.t = due.at;
      due.fn();
    }
    this.t = until;
  }
}

export class FakeProcess extends EventEmitter implements EngineProcess {
  sent: unknown[] = [];
  killed = false;
  /** Exit on kill() like a well-behaved process; false to simulate one that ignores it. */
  exitOnKill = true;
  postMessage(message: unknown): void {
    this.sent.push(message);
  }
  kill(): boolean {
    this.killed = true;
    if (this.exitOnKill) queueMicrotask(() => this.emit('exit', 0));
    return true;
  }
  crash(code = 1): void {
    this.emit('exit', code);
  }
  reply(message: unknown): void {
    this.emit('message', message);
  }
}
