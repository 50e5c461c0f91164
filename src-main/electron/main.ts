// The desktop app: one instance, a tray, one window, and the engine in a process of its own.
// The logic lives in small modules (url-guard, ipc-relay, engine-supervisor, engine-rpc,
// tray-menu) that take the Electron surface injected; this file only wires them to Electron.
import { app, BrowserWindow, clipboard, ipcMain, Menu, nativeImage, Notification, session, shell, Tray, utilityProcess, webContents } from 'electron';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StatusReport } from '../../src-shared/api.ts';
import { resolveHome } from '../engine/platform/home.ts';
import { installedShimPath, SHIM_PATH_ENV } from '../engine/platform/shim-entry.ts';
import { ENGINE_NODE_FLAGS, engineEnv } from '../shim/engine-launch.mjs';
import { parseLaunchArgs } from './launch-args.ts';
import { createUrlGuard, sameDocumentAs } from './url-guard.ts';
import { createIpcRelay } from './ipc-relay.ts';
import { createEngineSupervisor, type EngineProcess, type EngineState } from './engine-supervisor.ts';
import { engineRuntime, spawnDetachedEngine } from './detached-engine.ts';
import { createEngineRpc } from './engine-rpc.ts';
import { trayTemplate, type TrayItem } from './tray-menu.ts';
import { createApprovalNotifier, createProposalNotifier } from './approval-notifier.ts';
import { createLinkRouter, type LinkRouter } from './install-links.ts';
import { CONTENT_SECURITY_POLICY, secureWebPreferences } from './window-options.ts';
import { syncLoginItem, type LoginItemHost } from './login-item.ts';
import { createAutoUpdate } from './auto-update.ts';
import { handOffForUpdate, takeOverArgs } from './update-handoff.ts';
import { IPC_CHANNELS } from '../../src-shared/ipc.ts';
import { createUpdateIpc } from './update-ipc.ts';
import { toErrorData } from '../../src-shared/errors.ts';
import electronUpdater from 'electron-updater';
import { readHomeFileSync } from '../shim/home-file.mjs';
import { writeFileAtomicSync } from '../engine/config/atomic-file.ts';

const here = import.meta.dirname;
/** Built layout: out/electron/{main,preload,engine-entry}.js beside out/renderer/. */
const PRELOAD = path.join(here, 'preload.cjs');
const ENGINE_ENTRY = path.join(here, 'engine-entry.js');
const INDEX_HTML = path.join(here, '..', 'renderer', 'index.html');
const TRAY_ICON = path.join(here, '..', '..', 'assets', process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png');
const STATUS_EVERY_MS = 3000;
/** Printed when the window has loaded and shows (scripts/smoke-packaged.mjs, WINDOW_SHOWN). */
const WINDOW_SHOWN = 'switchboard: window shown';

/** Opens a link's approval screen; set once the window machinery exists (links wait until then). */
let openLink: (link: string) => void = () => undefined;
let links: LinkRouter | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Before ready: macOS delivers the link that launched the app as an early open-url.
  links = createLinkRouter({ app, argv: process.argv, defaultApp: process.defaultApp === true, execPath: process.execPath, open: (l) => openLink(l) });
  void app.whenReady().then(startApp);
}

function startApp(): void {
  const launch = parseLaunchArgs(process.argv);
  const home = resolveHome(launch.home);
  const startHidden = launch.hidden;
  const indexUrl = pathToFileURL(INDEX_HTML).href;
  const isAppUrl = sameDocumentAs(indexUrl);
  const ourWindows = new Set<number>();
  let win: BrowserWindow | null = null;
  let status: StatusReport | null = null;
  let engineState: EngineState = { kind: 'stopped' };

  const rpc = createEngineRpc();
  // A detached process, so that it outlives this app while an update installs (docs/updates.md);
  // an installed app that lacks the Node to run it so falls back to a utility process.
  const detached = engineRuntime({
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    resourcesPath: process.resourcesPath,
    platform: process.platform,
    entry: ENGINE_ENTRY,
    nodeFlags: ENGINE_NODE_FLAGS,
    appImage: Boolean(process.env.APPIMAGE),
  });
  const spawnEngine = (args: string[]): EngineProcess => {
    // Client entries the engine writes (connect, import --replace) point at the installed shim.
    const env = engineEnv(app.isPackaged ? { ...process.env, [SHIM_PATH_ENV]: installedShimPath(process.resourcesPath) } : process.env);
    if (detached) return spawnDetachedEngine(spawn, detached.runtime, detached.entry, args, env);
    return utilityProcess.fork(ENGINE_ENTRY, args, { serviceName: 'Switchboard engine', execArgv: [...ENGINE_NODE_FLAGS], stdio: 'inherit', env });
  };
  const supervisor = createEngineSupervisor({
    // After an update, the first engine takes the home over from the one the old version left
    // running (docs/updates.md); takeOverArgs reads that note once.
    spawn: () => spawnEngine(['--home', home, ...takeOverArgs(home, Date.now())]),
    onprocess: (p) => rpc.attach(p),
    onstate: (s) => {
      engineState = s;
      refreshTray();
    },
  });
  const trusted = { has: (id: number) => ourWindows.has(id), isAppUrl };
  const relay = createIpcRelay(ipcMain, trusted, rpc, {
    restartEngine: () => supervisor.restartNow(),
    // The engine names the file for the client id: the window never hands main a path.
    revealClientFile: async (client) => {
      const { path: file, exists } = await rpc.call('clients.fileText', { client });
      if (exists) shell.showItemInFolder(file);
      else await shell.openPath(path.dirname(file));
    },
  });
  const guard = createUrlGuard({
    isAppUrl,
    // Only http(s) reaches here (the guard drops other schemes); the browser handles it.
    openExternal: (url) => shell.openExternal(url),
  });

  // Every web contents, including any we did not mean to create, gets the same rules.
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-navigate', (event, url) => guard.onNavigate(event, url));
    contents.on('will-redirect', (event, url) => guard.onNavigate(event, url));
    contents.setWindowOpenHandler((details) => guard.onWindowOpen(details));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, callback) => callback(false));
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });

  function openWindow(page = 'servers', arg?: string): void {
    const hash = `/${page}${arg ? `/${encodeURIComponent(arg)}` : ''}`;
    // LSUIElement hides the Dock icon of the tray app; a window should have one.
    void app.dock?.show();
    if (win && !win.isDestroyed()) {
      void win.loadFile(INDEX_HTML, { hash });
      win.show();
      win.focus();
      return;
    }
    win = new BrowserWindow({
      width: 1100,
      height: 760,
      title: 'Switchboard',
      show: false,
      webPreferences: secureWebPreferences(PRELOAD),
    });
    const id = win.webContents.id;
    ourWindows.add(id);
    win.on('closed', () => {
      ourWindows.delete(id);
      win = null;
    });
    win.once('ready-to-show', () => {
      win?.show();
      // The packaged app's smoke test (scripts/smoke-packaged.mjs) waits for this line.
      console.log(WINDOW_SHOWN);
    });
    void win.loadFile(INDEX_HTML, { hash });
  }

  const tray = new Tray(nativeImage.createFromPath(TRAY_ICON));
  tray.setToolTip('Switchboard');
  tray.on('click', () => openWindow());

  function toMenu(items: TrayItem[]): Electron.MenuItemConstructorOptions[] {
    return items.map((i) => ({
      ...(i.label !== undefined && { label: i.label }),
      ...(i.type === 'separator' && { type: 'separator' as const }),
      ...(i.enabled !== undefined && { enabled: i.enabled }),
      ...(i.click && { click: i.click }),
      ...(i.submenu && { submenu: toMenu(i.submenu) }),
    }));
  }

  function refreshTray(): void {
    if (tray.isDestroyed()) return;
    const items = trayTemplate(engineState, status, {
      openPage: (page, arg) => openWindow(page, arg),
      copy: (text) => clipboard.writeText(text),
      restartServer: (name) => void rpc.call('servers.restart', { name }).catch(() => undefined),
      quit: () => app.quit(),
      restartToUpdate: () => void updates.restart().catch((err) => console.error(`switchboard: could not restart to update: ${toErrorData(err).message}`)),
    }, updates.notice);
    tray.setContextMenu(Menu.buildFromTemplate(toMenu(items)));
  }

  const notify = (title: string, body: string, onClick: () => void) => {
    if (!Notification.isSupported()) return;
    const n = new Notification({ title, body });
    n.on('click', onClick);
    n.show();
  };
  const approvals = createApprovalNotifier({ notify, openRun: (runId) => openWindow('runs', runId) });
  const proposals = createProposalNotifier({ notify, openServers: () => openWindow('servers') });

  // The app's own updates (docs/updates.md): checked only in the installed app, as Settings say.
  const lastCheckFile = path.join(app.getPath('userData'), 'update-check.json');
  const updates = createAutoUpdate({
    updater: electronUpdater.autoUpdater,
    app,
    notify,
    openWindow: () => openWindow('settings'),
    // The engine keeps serving; before-quit no longer stops it (the new version's takes over).
    // A detached engine confirms it will outlive the app first (if not, the update waits); a
    // utility process still ends with the app.
    handOff: ({ from, to }) => handOffForUpdate(supervisor, home, { from, to, at: Date.now(), ...(status?.pid ? { enginePid: status.pid } : {}) }),
    lastCheck: {
      load: () => {
        try {
          const at = (JSON.parse(readHomeFileSync(lastCheckFile, { maxBytes: 4096 }).toString('utf8')) as { at?: unknown }).at;
          return typeof at === 'number' ? at : undefined;
        } catch {
          return undefined;
        }
      },
      save: (at) => {
        try {
          writeFileAtomicSync(lastCheckFile, JSON.stringify({ at }) + '\n');
        } catch {
          // Only costs an earlier check at the next start.
        }
      },
    },
    onchange: (notice) => {
      refreshTray();
      for (const id of ourWindows) webContents.fromId(id)?.send(IPC_CHANNELS.updateChanged, notice);
    },
  });
  const updateIpc = createUpdateIpc(ipcMain, trusted, updates);

  const poll = setInterval(() => {
    rpc.call('status', {}).then(
      (s) => {
        status = s;
        approvals.update(s.approvals);
        proposals.update(s.servers);
        applyLoginSetting(s.settings.startAtLogin);
        updates.apply(s.settings);
      },
      () => (status = null),
    ).finally(refreshTray);
  }, STATUS_EVERY_MS);

  // Start at login as Settings says (on unless turned off), only for the installed app.
  const loginHost: LoginItemHost = {
    platform: process.platform,
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    env: process.env,
    homedir: os.homedir(),
    getLoginItemSettings: (o) => app.getLoginItemSettings(o),
    setLoginItemSettings: (s) => app.setLoginItemSettings(s),
  };
  let loginWanted: boolean | undefined;
  const applyLoginSetting = (wanted: boolean) => {
    if (wanted === loginWanted) return;
    loginWanted = wanted;
    try {
      syncLoginItem(loginHost, wanted);
    } catch (err) {
      console.error(`switchboard: could not change starting at login: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  // A shim starting the app (--hidden) while it already runs must not pop a window up.
  // A second instance started for a switchboard:// link (Windows, Linux) opens its approval screen.
  app.on('second-instance', (_e, argv) => {
    if (links?.fromArgv(argv)) return;
    if (!parseLaunchArgs(argv).hidden) openWindow();
  });
  app.on('activate', () => openWindow());
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => undefined);
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    clearInterval(poll);
    updates.dispose();
    relay.dispose();
    updateIpc.dispose();
    rpc.dispose();
    // Restarting to an update, the supervisor has released the engine: this does not stop it.
    void supervisor.dispose().finally(() => {
      tray.destroy();
      app.exit(0);
    });
  });

  supervisor.start();
  refreshTray();
  // A link only opens the Catalog's approval screen for it; nothing is added without the user's yes.
  openLink = (link) => openWindow('catalog', link);
  // Started for a link (its argv, or macOS's early open-url): that screen is the window to show.
  const openedLink = links?.ready() ?? false;
  if (!startHidden && !openedLink) openWindow();
}
