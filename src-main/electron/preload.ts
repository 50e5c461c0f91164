// The renderer's only door: one function that forwards control API calls to main.
// Sandboxed preloads can import nothing but 'electron', so the build bundles this file whole.
import { contextBridge, ipcRenderer } from 'electron';
import type { ControlMethod } from '../../src-shared/api.ts';
import { IPC_CHANNELS, type IpcReply, type SwitchboardBridge } from '../../src-shared/ipc.ts';

const bridge: SwitchboardBridge = {
  call: (method: ControlMethod, params: unknown): Promise<IpcReply> => ipcRenderer.invoke(IPC_CHANNELS.call, { method, params }),
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
