// The engine's line to the desktop app (src-main/engine/handover/parent-link.ts): an engine the
// app started goes when the app goes, unless the app released it to outlive an update.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parentLink, RELEASE_MESSAGE, RELEASED_MESSAGE, type ParentHost } from '../../../src-main/engine/handover/parent-link.ts';

class IpcHost extends EventEmitter {
  sent: unknown[] = [];
  connected = true;
  send(m: unknown): boolean {
    this.sent.push(m);
    return true;
  }
  disconnect(): void {
    this.connected = false;
    this.emit('disconnect');
  }
}

function link(host: ParentHost) {
  const seen = { orphaned: 0, released: 0, messages: [] as unknown[] };
  const l = parentLink(host, { onOrphaned: () => seen.orphaned++, onReleased: () => seen.released++, log: () => undefined });
  l?.onMessage((m) => seen.messages.push(m));
  return { l, seen };
}

describe('parent link', () => {
  it('is absent when no app started the engine', () => {
    expect(link(new EventEmitter() as unknown as ParentHost).l).toBeUndefined();
  });

  it('carries messages over a utility process port, unwrapped', () => {
    const port = Object.assign(new EventEmitter(), { posted: [] as unknown[], postMessage(m: unknown) { this.posted.push(m); } });
    const { l, seen } = link(Object.assign(new EventEmitter(), { parentPort: port }) as unknown as ParentHost);
    port.emit('message', { data: { id: 1 } });
    l!.post({ type: 'ready' });
    expect(seen.messages).toEqual([{ id: 1 }]);
    expect(port.posted).toEqual([{ type: 'ready' }]);
  });

  it('stops the engine when the app goes away without releasing it', () => {
    const host = new IpcHost();
    const { seen } = link(host as unknown as ParentHost);
    host.emit('message', { id: 7, method: 'status' });
    host.disconnect();
    expect(seen.orphaned).toBe(1);
    expect(seen.messages).toEqual([{ id: 7, method: 'status' }]);
  });

  it('confirms a release and then outlives the app, posting nothing once it has gone', () => {
    const host = new IpcHost();
    const { l, seen } = link(host as unknown as ParentHost);
    host.emit('message', RELEASE_MESSAGE);
    expect(host.sent).toEqual([RELEASED_MESSAGE]);
    expect(l!.released).toBe(true);
    expect(seen).toEqual({ orphaned: 0, released: 1, messages: [] });
    host.disconnect();
    l!.post({ id: 1, result: {} });
    expect(seen.orphaned).toBe(0);
    expect(host.sent).toHaveLength(1);
  });
});
