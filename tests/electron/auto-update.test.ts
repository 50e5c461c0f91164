// The desktop app's updates with electron-updater's autoUpdater faked: when it checks (never in a
// checkout, never when turned off, never more often than every few hours), what it says when an
// update is downloaded, and that "Restart to update" hands the engine over before quitting.
import { EventEmitter } from 'node:events';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_EVERY_MS, createAutoUpdate, FIRST_CHECK_DELAY_MS, RETRY_BACKOFF, type AutoUpdateOptions, type UpdaterLike } from '../../src-main/electron/auto-update.ts';
import { handOffFile, HANDOFF_STALE_MS, takeOverArgs, writeHandOffNote } from '../../src-main/electron/update-handoff.ts';
import { createEngineSupervisor } from '../../src-main/electron/engine-supervisor.ts';
import type { UpdateNotice } from '../../src-shared/updates.ts';
import { FakeClock, FakeProcess } from './fake-electron.ts';

const HOUR = 60 * 60 * 1000;

/** electron-updater's autoUpdater as far as the app uses it; `answer` decides each check. */
class FakeUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  allowPrerelease = false;
  allowDowngrade = false;
  #channel: string | null = null;
  checks: { at: number; channel: string | null; prerelease: boolean }[] = [];
  installs: [boolean | undefined, boolean | undefined][] = [];
  answer: 'none' | 'offline' | { version: string } = 'none';
  constructor(private clock: FakeClock) {
    super();
  }
  get channel() {
    return this.#channel;
  }
  // Like electron-updater: choosing a channel allows downgrades.
  set channel(c: string | null) {
    this.#channel = c;
    this.allowDowngrade = true;
  }
  async checkForUpdates(): Promise<unknown> {
    this.checks.push({ at: this.clock.now(), channel: this.#channel, prerelease: this.allowPrerelease });
    const a = this.answer;
    if (a === 'offline') {
      const err = new Error('net::ERR_INTERNET_DISCONNECTED');
      this.emit('error', err);
      throw err;
    }
    if (a === 'none') {
      this.emit('update-not-available', {});
      return null;
    }
    this.emit('update-available', a);
    return { updateInfo: a };
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

function setup(over: Partial<AutoUpdateOptions> & { packaged?: boolean } = {}) {
  const clock = new FakeClock();
  clock.t = 1_000 * HOUR;
  const updater = new FakeUpdater(clock);
  const notices: UpdateNotice[] = [];
  const notifications: string[] = [];
  const did: string[] = [];
  const logs: string[] = [];
  const au = createAutoUpdate({
    updater,
    app: { isPackaged: over.packaged ?? true, getVersion: () => '0.1.0' },
    notify: (title, body, onClick) => {
      notifications.push(`${title}: ${body}`);
      onClick();
    },
    openWindow: () => void did.push('open window'),
    handOff: ({ from, to }) => void did.push(`hand off ${from} → ${to}`),
    onchange: (n) => notices.push(n),
    timers: clock,
    log: (l) => void logs.push(l),
    ...over,
  });
  /** Lets the check's promise settle after the clock fired it. */
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const advance = async (ms: number) => {
    clock.advance(ms);
    await settle();
  };
  return { clock, updater, au, notices, notifications, did, logs, advance, settle };
}

const on = { checkForUpdates: true, updateChannel: 'stable' } as const;

describe('update checks', () => {
  it('never checks in a development checkout', async () => {
    const { au, updater, advance } = setup({ packaged: false });
    au.apply(on);
    await advance(48 * HOUR);
    expect(updater.checks).toEqual([]);
    expect(au.notice).toEqual({ state: 'unsupported' });
  });

  it('checks a little after start, then every 6 hours, and never more often', async () => {
    const { au, updater, clock, advance } = setup();
    const start = clock.now();
    au.apply(on);
    await advance(FIRST_CHECK_DELAY_MS - 1);
    expect(updater.checks).toHaveLength(0);
    await advance(1);
    expect(updater.checks).toHaveLength(1);
    // Settings re-applied with every status poll change nothing.
    for (let i = 0; i < 50; i++) au.apply(on);
    // Hour by hour: a check's answer (a promise) schedules the next one.
    for (let h = 0; h < 24; h++) await advance(HOUR);
    const at = updater.checks.map((c) => c.at - start);
    expect(at).toEqual([0, 1, 2, 3, 4].map((n) => FIRST_CHECK_DELAY_MS + n * CHECK_EVERY_MS));
    expect(CHECK_EVERY_MS).toBeGreaterThanOrEqual(3 * HOUR);
  });

  it('remembers the last check across app starts, so restarting the app does not check again early', async () => {
    let saved: number | undefined;
    const lastCheck = { load: () => saved, save: (t: number) => void (saved = t) };
    const first = setup({ lastCheck });
    first.au.apply(on);
    await first.advance(FIRST_CHECK_DELAY_MS);
    expect(saved).toBe(first.clock.now());
    first.au.dispose();
    const second = setup({ lastCheck });
    second.clock.t = saved! + HOUR;
    second.au.apply(on);
    await second.advance(CHECK_EVERY_MS - HOUR - 1);
    expect(second.updater.checks).toHaveLength(0);
    await second.advance(1);
    expect(second.updater.checks).toHaveLength(1);
  });

  it('never checks while turned off in Settings, and starts again when turned on', async () => {
    const { au, updater, advance, notices } = setup();
    au.apply({ checkForUpdates: false, updateChannel: 'stable' });
    await advance(48 * HOUR);
    expect(updater.checks).toEqual([]);
    expect(au.notice).toEqual({ state: 'off' });
    expect(updater.autoInstallOnAppQuit).toBe(false);
    au.apply(on);
    expect(notices.at(-1)).toEqual({ state: 'idle' });
    await advance(FIRST_CHECK_DELAY_MS);
    expect(updater.checks).toHaveLength(1);
    au.apply({ checkForUpdates: false, updateChannel: 'stable' });
    await advance(48 * HOUR);
    expect(updater.checks).toHaveLength(1);
  });

  it('schedules nothing more when turned off while a check is on its way', async () => {
    const { au, updater, clock, advance } = setup();
    let answer: () => void = () => undefined;
    updater.checkForUpdates = () => new Promise((r) => (answer = () => r(null)));
    au.apply(on);
    clock.advance(FIRST_CHECK_DELAY_MS);
    au.apply({ checkForUpdates: false, updateChannel: 'stable' });
    answer();
    await advance(0);
    expect(clock.pending()).toEqual([]);
  });

  it('checks the channel chosen in Settings: beta takes pre-releases, and neither ever downgrades', async () => {
    const { au, updater, advance } = setup();
    au.apply({ checkForUpdates: true, updateChannel: 'beta' });
    expect(updater.allowDowngrade).toBe(false);
    await advance(FIRST_CHECK_DELAY_MS);
    au.apply(on);
    expect(updater.allowDowngrade).toBe(false);
    // The new channel is used from the next regular check, not at once.
    await advance(CHECK_EVERY_MS - 1);
    expect(updater.checks).toHaveLength(1);
    await advance(1);
    expect(updater.checks.map((c) => [c.channel, c.prerelease])).toEqual([['beta', true], ['latest', false]]);
  });

  it('stays quiet when offline and retries with the backoff, never sooner than 15 minutes', async () => {
    const { au, updater, clock, advance, notices, notifications, logs } = setup();
    updater.answer = 'offline';
    au.apply(on);
    await advance(FIRST_CHECK_DELAY_MS);
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      const before = clock.now();
      const next = clock.pending()[0]!;
      delays.push(next);
      await advance(next);
      expect(updater.checks.at(-1)!.at).toBe(before + next);
    }
    expect(delays).toEqual([15, 30, 60, 120, 240, 360, 360].map((m) => m * 60 * 1000));
    expect(RETRY_BACKOFF.initialMs).toBe(15 * 60 * 1000);
    expect(notifications).toEqual([]);
    expect(notices.every((n) => n.state === 'idle')).toBe(true);
    expect(logs).toHaveLength(1);
    // Back online: the next answered check returns to the regular rhythm.
    updater.answer = 'none';
    await advance(clock.pending()[0]!);
    expect(clock.pending()).toEqual([CHECK_EVERY_MS]);
  });
});

describe('a downloaded update', () => {
  it('downloads in the background and then says "restart to use it" once, with a notification', async () => {
    const { au, updater, advance, notices, notifications, did, clock } = setup();
    updater.answer = { version: '0.2.0' };
    au.apply(on);
    await advance(FIRST_CHECK_DELAY_MS);
    expect(updater.autoDownload).toBe(true);
    expect(au.notice).toEqual({ state: 'downloading', version: '0.2.0', percent: 0 });
    updater.emit('download-progress', { percent: 41.7 });
    updater.emit('download-progress', { percent: 41.9 });
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(notices.filter((n) => n.state === 'downloading').map((n) => (n as { percent: number }).percent)).toEqual([0, 41]);
    expect(au.notice).toEqual({ state: 'ready', version: '0.2.0' });
    expect(notifications).toEqual(['Update ready: Switchboard 0.2.0 is ready — restart to use it']);
    expect(did).toEqual(['open window']);
    // Nothing more to fetch until it is installed.
    expect(clock.pending()).toEqual([]);
    await advance(48 * HOUR);
    expect(updater.checks).toHaveLength(1);
  });

  it('retries a download that failed, quietly', async () => {
    const { au, updater, advance, clock, notifications } = setup();
    updater.answer = { version: '0.2.0' };
    au.apply(on);
    await advance(FIRST_CHECK_DELAY_MS);
    updater.emit('error', new Error('socket hang up'));
    expect(au.notice).toEqual({ state: 'idle' });
    expect(clock.pending()).toEqual([RETRY_BACKOFF.initialMs]);
    expect(notifications).toEqual([]);
  });
});

describe('restart to update', () => {
  async function ready(over: Partial<AutoUpdateOptions> = {}) {
    const s = setup(over);
    s.updater.answer = { version: '0.2.0' };
    s.au.apply(on);
    await s.advance(FIRST_CHECK_DELAY_MS);
    s.updater.emit('update-downloaded', { version: '0.2.0' });
    s.did.length = 0;
    return s;
  }

  it('hands the engine over first, then quits and installs silently and runs the new version', async () => {
    const order: string[] = [];
    const s = await ready({ handOff: ({ from, to }) => void order.push(`hand off ${from} → ${to}`) });
    s.updater.quitAndInstall = (silent, runAfter) => void order.push(`quit and install ${silent} ${runAfter}`);
    await s.au.restart();
    expect(order).toEqual(['hand off 0.1.0 → 0.2.0', 'quit and install true true']);
    expect(s.au.restarting).toBe(true);
    expect(s.au.notice).toEqual({ state: 'restarting', version: '0.2.0' });
  });

  it('does nothing before an update is downloaded', async () => {
    const s = setup();
    s.au.apply(on);
    await s.au.restart();
    expect(s.did).toEqual([]);
    expect(s.updater.installs).toEqual([]);
    expect(s.au.restarting).toBe(false);
  });

  it('stays on this version, still offering the restart, when the hand-off fails', async () => {
    const s = await ready({ handOff: () => Promise.reject(new Error('The home folder cannot be written to.')) });
    await expect(s.au.restart()).rejects.toThrow('cannot be written');
    expect(s.updater.installs).toEqual([]);
    expect(s.au.notice).toEqual({ state: 'ready', version: '0.2.0' });
    expect(s.au.restarting).toBe(false);
  });
});

describe('the take-over across the restart', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const home = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'sb-update-'));
    dirs.push(d);
    return d;
  };

  it('leaves the old engine running, and starts the new version\'s engine once with --take-over', async () => {
    const h = home();
    // The old app: its engine is released (not killed) and the note written before quitting.
    const clock = new FakeClock();
    const old = new FakeProcess();
    const sup = createEngineSupervisor({ spawn: () => old, timers: clock });
    sup.start();
    const s = setup({
      handOff: ({ from, to }) => {
        writeHandOffNote(h, { from, to, at: 5_000, enginePid: 42 });
        sup.release();
      },
    });
    s.updater.answer = { version: '0.2.0' };
    s.au.apply(on);
    await s.advance(FIRST_CHECK_DELAY_MS);
    s.updater.emit('update-downloaded', { version: '0.2.0' });
    await s.au.restart();
    await sup.dispose(); // what before-quit does
    expect(old.killed).toBe(false);
    if (process.platform !== 'win32') expect(statSync(handOffFile(h)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(handOffFile(h), 'utf8'))).toMatchObject({ from: '0.1.0', to: '0.2.0' });
    // The new app: its first engine start takes over, later ones (after a crash) do not.
    expect(takeOverArgs(h, 5_000 + 30_000)).toEqual(['--take-over']);
    expect(existsSync(handOffFile(h))).toBe(false);
    expect(takeOverArgs(h, 5_000 + 60_000)).toEqual([]);
  });

  it('does not take over on a stale or unreadable note', () => {
    const h = home();
    writeHandOffNote(h, { from: '0.1.0', to: '0.2.0', at: 0 });
    expect(takeOverArgs(h, HANDOFF_STALE_MS + 1)).toEqual([]);
    expect(existsSync(handOffFile(h))).toBe(false);
    expect(takeOverArgs(h, 0)).toEqual([]);
  });

  it.runIf(process.platform !== 'win32')('neither waits on a pipe planted as the note (the app would freeze at its start) nor writes through a link', () => {
    const h = home();
    mkdirSync(path.dirname(handOffFile(h)), { recursive: true });
    execFileSync('mkfifo', [handOffFile(h)]);
    const t0 = Date.now();
    expect(takeOverArgs(h, 0)).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(2_000);
    const outside = path.join(h, 'outside.txt');
    writeFileSync(outside, 'mine');
    symlinkSync(outside, handOffFile(h));
    writeHandOffNote(h, { from: '0.1.0', to: '0.2.0', at: 5 });
    expect(readFileSync(outside, 'utf8')).toBe('mine');
    expect(takeOverArgs(h, 10)).toEqual(['--take-over']);
  });
});
