// The Electron IPC channel catalog, shared by main, preload and (for types) the renderer.
// The renderer never sees channel names: the preload exposes `window.switchboard.call`.
import type { ControlMethod } from './api.ts';
import type { ErrorData } from './errors.ts';
import type { UpdateNotice } from './updates.ts';

export const IPC_CHANNELS = {
  /** Renderer → main: one control API call; answered with an IpcReply. */
  call: 'switchboard:call',
  /** Renderer → main: the app's update state; an IpcReply whose result is an UpdateNotice. Main answers it, not the engine. */
  updateState: 'switchboard:update-state',
  /** Renderer → main: "Restart to update"; answered with an IpcReply once the restart has begun. */
  updateRestart: 'switchboard:update-restart',
  /** Main → renderer: the update state changed (an UpdateNotice). */
  updateChanged: 'switchboard:update-changed',
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
  /** The desktop app's own updates; absent in a browser on `switchboard serve`. */
  updates?: {
    /** Its result is an UpdateNotice. */
    state(): Promise<IpcReply>;
    restart(): Promise<IpcReply>;
    /** Calls `listener` on every change; returns the function that stops it. */
    onchange(listener: (notice: UpdateNotice) => void): () => void;
  };
  /** Starts the engine again now; absent in builds older than this channel. */
  restartEngine?(): Promise<void>;
  /** Shows the client's settings file in the system's file manager; absent in older builds. */
  revealClientFile?(client: string): Promise<void>;
}
