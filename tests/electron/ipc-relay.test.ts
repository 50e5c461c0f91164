import { describe, expect, it } from 'vitest';
import type { ControlClient } from '../../src-shared/api.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';
import { IPC_CHANNELS, type IpcReply } from '../../src-shared/ipc.ts';
import { createIpcRelay, type InvokeEventLike, type IpcMainLike, type WindowActions } from '../../src-main/electron/ipc-relay.ts';
import { sameDocumentAs } from '../../src-main/electron/url-guard.ts';

const INDEX = 'file:///app/out/renderer/index.html';
type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<IpcReply>;

function setup(engine?: ControlClient, actions: WindowActions = {}) {
  const handlers = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle: (ch, l) => void handlers.set(ch, l),
    removeHandler: (ch) => void handlers.delete(ch),
  };
  const calls: { method: string; params: unknown }[] = [];
  const fallback: ControlClient = {
    call: async (method, params) => {
      calls.push({ method, params });
      return { ok: true } as never;
    },
  };
  const relay = createIpcRelay(ipcMain, { has: (id) => id === 1, isAppUrl: sameDocumentAs(INDEX) }, engine ?? fallback, actions);
  const invoke = (event: InvokeEventLike, payload: unknown) => handlers.get(IPC_CHANNELS.call)!(event, payload);
  return { relay, handlers, calls, invoke };
}

const ours: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: `${INDEX}#/servers`, parent: null } };

describe('ipc relay', () => {
  it('relays a call from our window to the engine', async () => {
    const { invoke, calls } = setup();
    expect(await invoke(ours, { method: 'servers.restart', params: { name: 'files' } })).toEqual({ result: { ok: true } });
    expect(calls).toEqual([{ method: 'servers.restart', params: { name: 'files' } }]);
  });

  it('ignores IPC from a foreign frame', async () => {
    const { invoke, calls } = setup();
    const iframe: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: {} } };
    const reply = await invoke(iframe, { method: 'config.set', params: { path: 'servers.x', value: { command: 'sh' } } });
    expect(reply).toMatchObject({ error: { code: 'denied' } });
    expect(calls).toEqual([]);
  });

  it('ignores IPC from a window it did not create', async () => {
    const { invoke, calls } = setup();
    const other: InvokeEventLike = { sender: { id: 2 }, senderFrame: { url: INDEX, parent: null } };
    expect(await invoke(other, { method: 'status', params: {} })).toMatchObject({ error: { code: 'denied' } });
    expect(calls).toEqual([]);
  });

  it('ignores our window once it shows another page', async () => {
    const { invoke, calls } = setup();
    const away: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: 'https://example.com/', parent: null } };
    expect(await invoke(away, { method: 'status', params: {} })).toMatchObject({ error: { code: 'denied' } });
    expect(calls).toEqual([]);
  });

  it('refuses methods outside the control API', async () => {
    const { invoke, calls } = setup();
    expect(await invoke(ours, { method: 'shell.exec', params: {} })).toMatchObject({ error: { code: 'bad-request' } });
    expect(await invoke(ours, { method: 'status', params: 'x' })).toMatchObject({ error: { code: 'bad-request' } });
    expect(calls).toEqual([]);
  });

  it('returns engine errors as data, config problems included', async () => {
    const problems = [{ path: 'servers.a.url', message: 'expected an http:// or https:// URL' }];
    const { invoke } = setup({
      call: async () => {
        throw new SwitchboardError('invalid-config', 'The change was refused.', problems);
      },
    });
    expect(await invoke(ours, { method: 'config.set', params: { path: 'servers.a', value: {} } })).toEqual({
      error: { code: 'invalid-config', message: 'The change was refused.', problems },
    });
  });

  it('removes its handler on dispose', () => {
    const { relay, handlers } = setup();
    relay.dispose();
    expect(handlers.size).toBe(0);
  });

  it('starts the engine again when our window asks, and only then', async () => {
    let restarts = 0;
    const { handlers, relay } = setup(undefined, { restartEngine: () => void restarts++ });
    const ask = (event: InvokeEventLike) => handlers.get(IPC_CHANNELS.restartEngine)!(event);
    const iframe: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: {} } };
    expect(await ask(iframe)).toMatchObject({ error: { code: 'denied' } });
    expect(restarts).toBe(0);
    expect(await ask(ours)).toEqual({ result: { ok: true } });
    expect(restarts).toBe(1);
    relay.dispose();
    expect(handlers.size).toBe(0);
  });

  it('shows a client file for our window by client id, and refuses other frames and non-ids', async () => {
    const shown: string[] = [];
    const { handlers } = setup(undefined, { revealClientFile: async (c) => void shown.push(c) });
    const ask = (event: InvokeEventLike, arg: unknown) => handlers.get(IPC_CHANNELS.revealClientFile)!(event, arg);
    const iframe: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: {} } };
    expect(await ask(iframe, 'cursor')).toMatchObject({ error: { code: 'denied' } });
    expect(await ask(ours, { path: '/etc/passwd' })).toMatchObject({ error: { code: 'bad-request' } });
    expect(await ask(ours, 'cursor')).toEqual({ result: { ok: true } });
    expect(shown).toEqual(['cursor']);
  });
});
