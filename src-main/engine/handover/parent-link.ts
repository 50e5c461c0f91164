// The engine's line to the desktop app that started it (docs/updates.md, "The engine outlives
// the app"): control requests in, answers and `ready`/`fatal` out. Two carriers: Electron's
// utilityProcess (`process.parentPort`, a child Electron ends with the app), and a Node IPC
// channel (`process.send`) when the app started the engine as a detached process of its own,
// which survives the app. Such an engine still goes with its app (the channel closes when the
// app quits or crashes), unless the app released it first: restarting to install an update,
// the engine serves on until the new version's engine takes the home over from it.

/** Asks the engine to outlive the app; it answers RELEASED_MESSAGE once it will. */
export const RELEASE_MESSAGE = Object.freeze({ type: 'release' } as const);
export const RELEASED_MESSAGE = Object.freeze({ type: 'released' } as const);

export const isReleaseMessage = (m: unknown): boolean => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === RELEASE_MESSAGE.type;
export const isReleasedMessage = (m: unknown): boolean => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === RELEASED_MESSAGE.type;

/** What of `process` the link uses (injected in tests). */
export interface ParentHost {
  parentPort?: { on(event: 'message', listener: (e: { data: unknown }) => void): void; postMessage(message: unknown): void };
  send?: (message: unknown) => boolean;
  readonly connected?: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

export interface ParentLink {
  post(message: unknown): void;
  /** Every message from the app but the release, which the link answers itself. */
  onMessage(listener: (message: unknown) => void): void;
  /** True once the app has released the engine. */
  readonly released: boolean;
}

export interface ParentLinkOptions {
  /** The app went away without releasing the engine: stop it, as the app's own child would be. */
  onOrphaned(): void;
  /** Released: the app asked the engine to outlive it (its output may have no reader from then on). */
  onReleased?(): void;
  log(line: string): void;
}

/** The app's line, or undefined when no app started this engine (`switchboard engine`, `serve`). */
export function parentLink(host: ParentHost, opts: ParentLinkOptions): ParentLink | undefined {
  const port = host.parentPort;
  if (port) {
    return {
      post: (m) => port.postMessage(m),
      onMessage: (listener) => port.on('message', (e) => listener(e.data)),
      released: false,
    };
  }
  const send = host.send?.bind(host);
  if (!send) return undefined;
  let released = false;
  const post = (m: unknown) => {
    // After the app has gone there is nobody to answer; the message is dropped.
    if (host.connected !== false) send(m);
  };
  host.on('message', (m) => {
    if (!isReleaseMessage(m) || released) return;
    released = true;
    opts.onReleased?.();
    opts.log('the app is restarting to update: serving on until its next version takes this home over');
    post(RELEASED_MESSAGE);
  });
  host.on('disconnect', () => {
    if (released) opts.log('the app has quit; this engine serves on until the next version takes over');
    else opts.onOrphaned();
  });
  return {
    post,
    onMessage: (listener) => host.on('message', (m) => void (isReleaseMessage(m) || listener(m))),
    get released() {
      return released;
    },
  };
}
