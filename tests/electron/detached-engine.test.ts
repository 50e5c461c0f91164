// The engine as a detached process (src-main/electron/detached-engine.ts), with child_process
// faked: how it is started, the release it asks for before an update, and the supervisor's part.
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { engineRuntime, spawnDetachedEngine, type Spawn } from '../../src-main/electron/detached-engine.ts';
import { createEngineSupervisor } from '../../src-main/electron/engine-supervisor.ts';
import { RELEASE_MESSAGE, RELEASED_MESSAGE } from '../../src-main/engine/handover/parent-link.ts';
import { FakeClock } from './fake-electron.ts';

class FakeChild extends EventEmitter {
  pid = 4242;
  connected = true;
  sent: unknown[] = [];
  signals: string[] = [];
  unrefed = false;
  /** What the engine answers a release with, or null for no answer. */
  answer: unknown = RELEASED_MESSAGE;
  send(m: unknown): boolean {
    this.sent.push(m);
    if (m === RELEASE_MESSAGE && this.answer) queueMicrotask(() => this.emit('message', this.answer));
    return true;
  }
  kill(signal: string): boolean {
    this.signals.push(signal);
    return true;
  }
  unref(): void {
    this.unrefed = true;
  }
}

function start(clock = new FakeClock()) {
  const calls: { command: string; args: readonly string[]; options: Parameters<Spawn>[2] }[] = [];
  const child = new FakeChild();
  const spawn: Spawn = (command, args, options) => {
    calls.push({ command, args, options });
    return child as unknown as ChildProcess;
  };
  const engine = spawnDetachedEngine(spawn, { command: '/app/node', args: ['node'], env: { X: '1' } }, '/app/engine-entry.js', ['--home', '/h'], { PATH: '/bin' }, clock, 1000);
  return { engine, child, calls: calls, clock };
}

describe('detached engine', () => {
  it('starts in a process group of its own with an IPC channel, and is stopped with SIGTERM', () => {
    const { engine, child, calls } = start();
    expect(calls).toEqual([
      {
        command: '/app/node',
        args: ['node', '/app/engine-entry.js', '--home', '/h'],
        options: { detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { PATH: '/bin', X: '1' }, windowsHide: true },
      },
    ]);
    engine.kill();
    expect(child.signals).toEqual(['SIGTERM']);
  });

  it('carries control messages and reports its exit code (a signal as 1)', () => {
    const { engine, child } = start();
    const got: unknown[] = [];
    const codes: number[] = [];
    engine.on('message', (m) => got.push(m));
    engine.on('exit', (c) => codes.push(c));
    engine.postMessage({ id: 1, method: 'status', params: {} });
    child.emit('message', { id: 1, result: {} });
    child.emit('exit', null, 'SIGKILL');
    expect(child.sent).toEqual([{ id: 1, method: 'status', params: {} }]);
    expect(got).toEqual([{ id: 1, result: {} }]);
    expect(codes).toEqual([1]);
  });

  it('is released once the engine confirms, and no longer holds the app open', async () => {
    const { engine, child } = start();
    await engine.release();
    expect(child.sent).toEqual([RELEASE_MESSAGE]);
    expect(child.unrefed).toBe(true);
  });

  it('refuses the release when the engine does not confirm in time, or has gone', async () => {
    const { engine, child, clock } = start();
    child.answer = null;
    const asked = engine.release();
    clock.advance(1000);
    await expect(asked).rejects.toMatchObject({ code: 'timeout' });
    expect(child.unrefed).toBe(false);
    child.emit('exit', 0, null);
    await expect(engine.release()).rejects.toMatchObject({ code: 'engine-unavailable' });
  });

  it('keeps a supervised engine supervised when it refuses the release', async () => {
    const clock = new FakeClock();
    const child = new FakeChild();
    child.answer = null;
    const sup = createEngineSupervisor({
      spawn: () => spawnDetachedEngine(() => child as unknown as ChildProcess, { command: 'n', args: [], env: {} }, 'e.js', [], {}, clock, 1000),
      timers: clock,
    });
    sup.start();
    const asked = sup.release();
    clock.advance(1000);
    await expect(asked).rejects.toThrow(/did not confirm/);
    expect(sup.process).not.toBeNull();
    void sup.dispose();
    expect(child.signals).toEqual(['SIGTERM']);
  });
});

describe('engine runtime', () => {
  const host = { execPath: '/opt/Switchboard/switchboard-desktop', resourcesPath: '/opt/Switchboard/resources', platform: 'linux' as const, nodeFlags: ['--optimize-for-size'] };

  it('is the app binary acting as Node in a checkout', () => {
    expect(engineRuntime({ ...host, isPackaged: false, entry: '/src/out/electron/engine-entry.js' })).toEqual({
      runtime: { command: host.execPath, args: ['--optimize-for-size'], env: { ELECTRON_RUN_AS_NODE: '1' } },
      entry: '/src/out/electron/engine-entry.js',
    });
  });

  it('is the shipped Node running the unpacked script in the installed app', () => {
    const entry = '/opt/Switchboard/resources/app.asar/out/electron/engine-entry.js';
    expect(engineRuntime({ ...host, isPackaged: true, entry, exists: () => true })).toEqual({
      runtime: { command: '/opt/Switchboard/resources/bin/switchboard-node', args: ['node'], env: {} },
      entry: '/opt/Switchboard/resources/app.asar.unpacked/out/electron/engine-entry.js',
    });
  });

  it('is none for the installed app on Windows and from an AppImage (a utility process then)', () => {
    const win = { ...host, platform: 'win32' as const, resourcesPath: 'C:\\S\\resources', isPackaged: true, exists: () => true };
    expect(engineRuntime({ ...win, entry: 'C:\\S\\resources\\app.asar\\out\\electron\\engine-entry.js' })).toBeUndefined();
    const entry = '/tmp/.mount_SwitchXYZ/resources/app.asar/out/electron/engine-entry.js';
    expect(engineRuntime({ ...host, resourcesPath: '/tmp/.mount_SwitchXYZ/resources', isPackaged: true, appImage: true, entry, exists: () => true })).toBeUndefined();
    // A checkout on Windows still runs it detached (npm start).
    expect(engineRuntime({ ...win, isPackaged: false, entry: 'C:\\src\\out\\electron\\engine-entry.js' })?.runtime.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });

  it('is none when the installed app lacks the Node, the unpacked script or package.json (a utility process then)', () => {
    const entry = '/opt/Switchboard/resources/app.asar/out/electron/engine-entry.js';
    expect(engineRuntime({ ...host, isPackaged: true, entry, exists: (f) => !f.endsWith('switchboard-node') })).toBeUndefined();
    expect(engineRuntime({ ...host, isPackaged: true, entry, exists: (f) => !f.endsWith('.js') })).toBeUndefined();
    expect(engineRuntime({ ...host, isPackaged: true, entry, exists: (f) => f !== '/opt/Switchboard/resources/app.asar.unpacked/package.json' })).toBeUndefined();
  });
});
