// The window asks main about the app's updates: only our own top frame gets an answer or may
// restart the app.
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, type IpcReply } from '../../src-shared/ipc.ts';
import type { UpdateNotice } from '../../src-shared/updates.ts';
import type { InvokeEventLike, IpcMainLike } from '../../src-main/electron/ipc-relay.ts';
import { createUpdateIpc } from '../../src-main/electron/update-ipc.ts';
import { sameDocumentAs } from '../../src-main/electron/url-guard.ts';

const INDEX = 'file:///app/out/renderer/index.html';
const ours: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: `${INDEX}#/settings`, parent: null } };
const iframe: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: {} } };
const otherWindow: InvokeEventLike = { sender: { id: 2 }, senderFrame: { url: INDEX, parent: null } };

function setup(restart: () => Promise<void> = async () => undefined) {
  const handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => Promise<IpcReply>>();
  const ipcMain: IpcMainLike = { handle: (ch, l) => void handlers.set(ch, l), removeHandler: (ch) => void handlers.delete(ch) };
  const restarts: number[] = [];
  const notice: UpdateNotice = { state: 'ready', version: '0.2.0' };
  const ipc = createUpdateIpc(ipcMain, { has: (id) => id === 1, isAppUrl: sameDocumentAs(INDEX) }, {
    notice,
    restart: () => {
      restarts.push(1);
      return restart();
    },
  });
  const invoke = (ch: string, event: InvokeEventLike) => handlers.get(ch)!(event);
  return { ipc, handlers, restarts, invoke };
}

describe('update IPC', () => {
  it('tells our window the update state and restarts on its request', async () => {
    const { invoke, restarts } = setup();
    expect(await invoke(IPC_CHANNELS.updateState, ours)).toEqual({ result: { state: 'ready', version: '0.2.0' } });
    expect(await invoke(IPC_CHANNELS.updateRestart, ours)).toEqual({ result: {} });
    expect(restarts).toHaveLength(1);
  });

  it('answers nothing to a frame or window that is not ours, and never restarts for it', async () => {
    const { invoke, restarts } = setup();
    for (const event of [iframe, otherWindow]) {
      expect(await invoke(IPC_CHANNELS.updateState, event)).toMatchObject({ error: { code: 'denied' } });
      expect(await invoke(IPC_CHANNELS.updateRestart, event)).toMatchObject({ error: { code: 'denied' } });
    }
    expect(restarts).toEqual([]);
  });

  it('carries a failed restart back as a sentence', async () => {
    const { invoke } = setup(() => Promise.reject(new Error('The home folder cannot be written to.')));
    expect(await invoke(IPC_CHANNELS.updateRestart, ours)).toMatchObject({ error: { message: 'The home folder cannot be written to.' } });
  });

  it('removes its handlers when disposed', () => {
    const { ipc, handlers } = setup();
    ipc.dispose();
    expect(handlers.size).toBe(0);
  });
});
