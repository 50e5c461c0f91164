// Carries control API calls from our renderer to the engine, and nothing from anyone else.
import { CONTROL_METHODS, type ControlClient, type ControlMethod, type ControlParams } from '../../src-shared/api.ts';
import { toErrorData } from '../../src-shared/errors.ts';
import { IPC_CHANNELS, type IpcReply } from '../../src-shared/ipc.ts';

/** The part of Electron's IpcMainInvokeEvent the relay reads. */
export interface InvokeEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<IpcReply>): void;
  removeHandler(channel: string): void;
}

export interface TrustedSenders {
  /** webContents ids of the windows we created. */
  has(webContentsId: number): boolean;
  /** The URL our windows load (see url-guard's sameDocumentAs). */
  isAppUrl(url: string): boolean;
}

const METHODS: ReadonlySet<string> = new Set(CONTROL_METHODS);

export function isTrustedSender(event: InvokeEventLike, trusted: TrustedSenders): boolean {
  const frame = event.senderFrame;
  // Only the top frame of a window we created, showing our page: an iframe or a page that
  // navigated elsewhere could otherwise drive the engine (change config, run code).
  return trusted.has(event.sender.id) && frame !== null && frame.parent === null && trusted.isAppUrl(frame.url);
}

/** What main does for our window beyond relaying control calls. */
export interface WindowActions {
  /** Start the engine again now (it stopped answering). */
  restartEngine?: () => void;
  /** Show a client's settings file in the system's file manager; the path comes from the engine, never from the window. */
  revealClientFile?: (client: string) => Promise<void>;
}

export function createIpcRelay(ipcMain: IpcMainLike, trusted: TrustedSenders, engine: ControlClient, actions: WindowActions = {}): { dispose(): void } {
  ipcMain.handle(IPC_CHANNELS.call, async (event, payload): Promise<IpcReply> => {
    if (!isTrustedSender(event, trusted)) {
      return { error: { code: 'denied', message: 'This window is not allowed to talk to Switchboard.' } };
    }
    const call = payload as { method?: unknown; params?: unknown } | null;
    if (!call || typeof call.method !== 'string' || !METHODS.has(call.method)) {
      return { error: { code: 'bad-request', message: `Unknown request "${String(call?.method)}".` } };
    }
    const params = call.params === undefined ? {} : call.params;
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      return { error: { code: 'bad-request', message: 'The request parameters must be an object.' } };
    }
    try {
      // Typed for the relay only: the engine checks every call's params against its method's schema (control-handlers.ts).
      return { result: await engine.call(call.method as ControlMethod, params as ControlParams<ControlMethod>) };
    } catch (err) {
      return { error: toErrorData(err) };
    }
  });
  ipcMain.handle(IPC_CHANNELS.restartEngine, async (event): Promise<IpcReply> => {
    if (!isTrustedSender(event, trusted)) {
      return { error: { code: 'denied', message: 'This window is not allowed to talk to Switchboard.' } };
    }
    if (!actions.restartEngine) return { error: { code: 'bad-request', message: 'This app cannot start its engine again from here.' } };
    actions.restartEngine();
    return { result: { ok: true } };
  });
  ipcMain.handle(IPC_CHANNELS.revealClientFile, async (event, client): Promise<IpcReply> => {
    if (!isTrustedSender(event, trusted)) {
      return { error: { code: 'denied', message: 'This window is not allowed to talk to Switchboard.' } };
    }
    if (typeof client !== 'string' || !actions.revealClientFile) return { error: { code: 'bad-request', message: 'There is no such client file to show.' } };
    try {
      await actions.revealClientFile(client);
      return { result: { ok: true } };
    } catch (err) {
      return { error: toErrorData(err) };
    }
  });
  return {
    dispose: () => {
      ipcMain.removeHandler(IPC_CHANNELS.call);
      ipcMain.removeHandler(IPC_CHANNELS.restartEngine);
      ipcMain.removeHandler(IPC_CHANNELS.revealClientFile);
    },
  };
}
