// The window's questions about the app's own updates (docs/updates.md), answered by main (the
// engine knows nothing of them), and only to our own windows, like every other IPC.
import { toErrorData } from '../../src-shared/errors.ts';
import { IPC_CHANNELS, type IpcReply } from '../../src-shared/ipc.ts';
import type { AutoUpdate } from './auto-update.ts';
import { isTrustedSender, type IpcMainLike, type TrustedSenders } from './ipc-relay.ts';

const DENIED: IpcReply = { error: { code: 'denied', message: 'This window is not allowed to talk to Switchboard.' } };

export function createUpdateIpc(ipcMain: IpcMainLike, trusted: TrustedSenders, updates: Pick<AutoUpdate, 'notice' | 'restart'>): { dispose(): void } {
  ipcMain.handle(IPC_CHANNELS.updateState, async (event): Promise<IpcReply> => (isTrustedSender(event, trusted) ? { result: updates.notice } : DENIED));
  ipcMain.handle(IPC_CHANNELS.updateRestart, async (event): Promise<IpcReply> => {
    if (!isTrustedSender(event, trusted)) return DENIED;
    try {
      await updates.restart();
      return { result: {} };
    } catch (err) {
      return { error: toErrorData(err) };
    }
  });
  return {
    dispose() {
      ipcMain.removeHandler(IPC_CHANNELS.updateState);
      ipcMain.removeHandler(IPC_CHANNELS.updateRestart);
    },
  };
}
