// The renderer's only door: one function that forwards control API calls to main, and the app's
// update state (answered by main itself, docs/updates.md).
// Sandboxed preloads can import nothing but 'electron', so the build bundles this file whole.
import { contextBridge, ipcRenderer } from 'electron';
import type { ControlMethod } from '../../src-shared/api.ts';
import { IPC_CHANNELS, type IpcReply, type SwitchboardBridge } from '../../src-shared/ipc.ts';
import type { UpdateNotice } from '../../src-shared/updates.ts';

const bridge: SwitchboardBridge = {
  call: (method: ControlMethod, params: unknown): Promise<IpcReply> => ipcRenderer.invoke(IPC_CHANNELS.call, { method, params }),
  updates: {
    state: (): Promise<IpcReply> => ipcRenderer.invoke(IPC_CHANNELS.updateState),
    restart: (): Promise<IpcReply> => ipcRenderer.invoke(IPC_CHANNELS.updateRestart),
    onchange: (listener) => {
      // The page gets the notice only, never the IPC event (it carries the sender).
      const handler = (_e: unknown, notice: UpdateNotice) => listener(notice);
      ipcRenderer.on(IPC_CHANNELS.updateChanged, handler);
      return () => void ipcRenderer.removeListener(IPC_CHANNELS.updateChanged, handler);
    },
  },
  restartEngine: async (): Promise<void> => {
    const reply = (await ipcRenderer.invoke(IPC_CHANNELS.restartEngine)) as IpcReply;
    if ('error' in reply) throw new Error(reply.error.message);
  },
  revealClientFile: async (client: string): Promise<void> => {
    const reply = (await ipcRenderer.invoke(IPC_CHANNELS.revealClientFile, client)) as IpcReply;
    if ('error' in reply) throw new Error(reply.error.message);
  },
};
contextBridge.exposeInMainWorld('switchboard', bridge);
