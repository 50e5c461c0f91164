// The Electron IPC channel catalog, shared by main, preload and (for types) the renderer.
// The renderer never sees channel names: the preload exposes `window.switchboard.call`.
import type { ControlMethod } from './api.ts';
import type { ErrorData } from './errors.ts';

export const IPC_CHANNELS = {
  /** Renderer → main: one control API call; answered with an IpcReply. */
  call: 'switchboard:call',
  /** Renderer → main: the person asked to start the engine again now (it stopped answering). */
  restartEngine: 'switchboard:restart-engine',
  /** Renderer → main: show a client's settings file (by client id) in the system's file manager. */
  revealClientFile: 'switchboard:reveal-client-file',
} as const;
export type IpcChannel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS];

export interface IpcCall {
  method: ControlMethod;
  params: unknown;
}

/** Errors cross IPC as data: Electron flattens thrown errors into a bare message string. */
export type IpcReply = { result: unknown } | { error: ErrorData };

/** What the preload puts on `window.switchboard`. */
export interface SwitchboardBridge {
  call(method: ControlMethod, params: unknown): Promise<IpcReply>;
  /** Starts the engine again now; absent in builds older than this channel. */
  restartEngine?(): Promise<void>;
  /** Shows the client's settings file in the system's file manager; absent in older builds. */
  revealClientFile?(client: string): Promise<void>;
}
