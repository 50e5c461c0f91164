// The desktop app's own updates (docs/updates.md): checks on the user's channel, at
// most every CHECK_EVERY_MS, background downloads, "Restart to update", and the restart that
// leaves the engine running for the new version's engine to take over. electron-updater's
// autoUpdater, Electron's app and the notification are injected, so this runs in tests as is.
import { backoffDelay } from '../../src-shared/backoff.ts';
import { readySentence, type UpdateChannel, type UpdateNotice } from '../../src-shared/updates.ts';
import { realTimers, type Timers } from './engine-supervisor.ts';

/** A regular check comes at least this long (ms) after the last one that got an answer: 6 hours. */
export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;
/** The first check after the app starts waits this long (ms), so a start is never slowed by it: 2 minutes. */
export const FIRST_CHECK_DELAY_MS = 2 * 60 * 1000;
/**
 * A check that failed (offline, the feed unreachable) is retried with the project's backoff:
 * 15 minutes doubling, never more often than that and never later than a regular check.
 */
export const RETRY_BACKOFF = Object.freeze({ initialMs: 15 * 60 * 1000, maxMs: CHECK_EVERY_MS });

/** The part of electron-updater's AppUpdater (autoUpdater) this uses. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowPrerelease: boolean;
  allowDowngrade: boolean;
  channel: string | null;
  on(event: 'update-available' | 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'update-not-available', listener: (info: unknown) => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

/** The part of Electron's app this uses. */
export interface AppLike {
  /** False in a development checkout (`npm start`): it never checks. */
  readonly isPackaged: boolean;
  getVersion(): string;
}

export interface UpdateSettings {
  checkForUpdates: boolean;
  updateChannel: UpdateChannel;
}

export interface AutoUpdateOptions {
  updater: UpdaterLike;
  app: AppLike;
  /** Shows a system notification (Electron's Notification in the app); click runs onClick. */
  notify(title: string, body: string, onClick: () => void): void;
  /** Opens the app's window (a click on the "ready" notification). */
  openWindow(): void;
  /**
   * Readies the take-over before the app quits to install (docs/updates.md): notes it for the
   * new version and lets the engine go without stopping it. A throw cancels the restart.
   */
  handOff(versions: { from: string; to: string }): Promise<void> | void;
  /** When the last check that got an answer happened (ms since the epoch), kept across app starts. */
  lastCheck?: { load(): number | undefined; save(at: number): void };
  onchange?(notice: UpdateNotice): void;
  timers?: Timers;
  log?(line: string): void;
}

export interface AutoUpdate {
  readonly notice: UpdateNotice;
  /** True from "Restart to update" on: quitting must not stop the engine. */
  readonly restarting: boolean;
  /** Applies Settings (the off switch and the channel); called with every status the engine reports. */
  apply(settings: UpdateSettings): void;
  /** "Restart to update": the take-over, then electron-updater's quit and install. */
  restart(): Promise<void>;
  dispose(): void;
}

export function createAutoUpdate(opts: AutoUpdateOptions): AutoUpdate {
  const { updater, app } = opts;
  const timers = opts.timers ?? realTimers;
  const log = opts.log ?? ((line: string) => console.warn(`switchboard: ${line}`));
  let notice: UpdateNotice = app.isPackaged ? { state: 'idle' } : { state: 'unsupported' };
  let settings: UpdateSettings | null = null;
  let timer: unknown;
  let checking = false;
  let failures = 0;
  let disposed = false;
  let lastCheck = opts.lastCheck?.load();

  const set = (n: UpdateNotice) => {
    notice = n;
    opts.onchange?.(n);
  };
  const busy = () => notice.state === 'downloading' || notice.state === 'ready' || notice.state === 'restarting';
  const clear = () => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
  const schedule = (delay: number) => {
    clear();
    if (disposed || !settings?.checkForUpdates) return;
    timer = timers.setTimeout(() => void check(), delay);
  };
  /** The next regular check: CHECK_EVERY_MS after the last answered one, never at start-up itself. */
  const scheduleRegular = () => {
    const since = lastCheck === undefined ? Infinity : timers.now() - lastCheck;
    schedule(Math.max(FIRST_CHECK_DELAY_MS, CHECK_EVERY_MS - since));
  };
  // Quiet: one line for a run of failures, never a dialog; the next try follows the backoff.
  const failed = (err: unknown) => {
    failures++;
    if (failures === 1) log(`could not check for updates (${err instanceof Error ? err.message : String(err)}); trying again later`);
    if (notice.state === 'downloading') set({ state: 'idle' });
    schedule(backoffDelay(RETRY_BACKOFF, failures));
  };

  async function check(): Promise<void> {
    timer = undefined;
    if (disposed || checking || busy() || !settings?.checkForUpdates) return;
    checking = true;
    try {
      await updater.checkForUpdates();
      failures = 0;
      lastCheck = timers.now();
      opts.lastCheck?.save(lastCheck);
      if (!busy()) scheduleRegular();
    } catch (err) {
      failed(err);
    } finally {
      checking = false;
    }
  }

  if (app.isPackaged) {
    updater.autoDownload = true;
    updater.on('update-available', (info) => set({ state: 'downloading', version: info.version, percent: 0 }));
    updater.on('download-progress', (p) => {
      if (notice.state !== 'downloading') return;
      const percent = Math.floor(p.percent);
      if (percent !== notice.percent) set({ ...notice, percent });
    });
    updater.on('update-downloaded', (info) => {
      if (notice.state === 'restarting') return;
      clear();
      set({ state: 'ready', version: info.version });
      opts.notify('Update ready', readySentence(info.version), () => opts.openWindow());
    });
    updater.on('update-not-available', () => {
      if (notice.state === 'downloading') set({ state: 'idle' });
    });
    // A failed check also rejects checkForUpdates (handled there); this catches failed downloads.
    updater.on('error', (err) => {
      if (notice.state === 'downloading' && !checking) failed(err);
    });
  }

  return {
    get notice() {
      return notice;
    },
    get restarting() {
      return notice.state === 'restarting';
    },
    apply(next) {
      if (!app.isPackaged || disposed) return;
      if (settings && settings.checkForUpdates === next.checkForUpdates && settings.updateChannel === next.updateChannel) return;
      const first = settings === null;
      settings = { ...next };
      // Beta is the pre-release channel (beta*.yml, pre-releases on GitHub). Never a downgrade:
      // an engine never takes over one of a newer version, and going from beta back to stable
      // waits for a stable release newer than the beta in use. (Setting `channel` turns
      // allowDowngrade on, so it is set after.)
      updater.channel = next.updateChannel === 'beta' ? 'beta' : 'latest';
      updater.allowPrerelease = next.updateChannel === 'beta';
      updater.allowDowngrade = false;
      updater.autoInstallOnAppQuit = next.checkForUpdates;
      if (!next.checkForUpdates) {
        clear();
        if (!busy()) set({ state: 'off' });
        return;
      }
      if (notice.state === 'off') set({ state: 'idle' });
      // A changed channel is used from the next regular check: checks never come more often.
      if (first || timer === undefined) {
        if (!busy() && !checking) scheduleRegular();
      }
    },
    async restart() {
      if (notice.state !== 'ready') return;
      const version = notice.version;
      clear();
      set({ state: 'restarting', version });
      try {
        await opts.handOff({ from: app.getVersion(), to: version });
      } catch (err) {
        set({ state: 'ready', version });
        throw err;
      }
      // Silent (Windows: no installer pages) and run after: the new version starts by itself and
      // its engine takes over (macOS and Linux relaunch anyway).
      updater.quitAndInstall(true, true);
    },
    dispose() {
      disposed = true;
      clear();
    },
  };
}
