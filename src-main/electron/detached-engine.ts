// The engine as a process of its own rather than an Electron utilityProcess, so that it can
// outlive the app while an update is installed (docs/updates.md, "The engine outlives the app").
// It is started detached (its own process group: the app's end, a terminal's Ctrl-C or a
// log-out signal to the app's group never reach it) with a Node IPC channel, which carries the
// control API as the utility process's port did. An engine whose app goes away without releasing
// it stops itself (src-main/engine/handover/parent-link.ts), so only an update leaves it running.
// child_process.spawn is injected: the tests run this without Electron.
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isReleasedMessage, RELEASE_MESSAGE } from '../engine/handover/parent-link.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';
import { realTimers, type EngineProcess, type Timers } from './engine-supervisor.ts';

export type Spawn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** What runs the engine's script as Node: the command, the arguments before the script, its environment. */
export interface EngineRuntime {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** How long the engine may take to confirm it will outlive the app, in ms. Defaults to 5000. */
export const RELEASE_TIMEOUT_MS = 5000;

export interface DetachedEngine extends EngineProcess {
  readonly pid: number | undefined;
  /** Asks the engine to outlive the app; resolves once it said it will, throws when it did not. */
  release(): Promise<void>;
}

export interface RuntimeHost {
  isPackaged: boolean;
  execPath: string;
  resourcesPath: string;
  platform: NodeJS.Platform;
  /** The engine's script as the app holds it (inside app.asar when packaged). */
  entry: string;
  /** Node's V8 flags for the engine (ENGINE_NODE_FLAGS). */
  nodeFlags: readonly string[];
  /** True when the app runs from an AppImage (its APPIMAGE variable is set). */
  appImage?: boolean;
  exists?: (file: string) => boolean;
}

/**
 * The Node the app can run its engine with, as a detached process, or undefined when it has none
 * (then the engine runs in a utilityProcess and an update stops it).
 * - A checkout (`npm start`): the Electron binary acting as Node (ELECTRON_RUN_AS_NODE).
 * - The installed app: its runAsNode fuse is off (electron-builder.yml), so the Node it ships,
 *   `resources/bin/switchboard-node` (`switchboard-node node SCRIPT`), which reads files from
 *   disk only: the script (and package.json) must be unpacked beside app.asar. The SEA takes no
 *   Node options.
 * - None for an installed app on Windows, where an engine cannot take another's home over yet
 *   and the installer cannot replace a program still running from the install folder, nor from
 *   an AppImage, whose files are a mount that ends with the app: an engine left running there
 *   would lose its own files.
 */
export function engineRuntime(host: RuntimeHost): { runtime: EngineRuntime; entry: string } | undefined {
  if (!host.isPackaged) return { runtime: { command: host.execPath, args: [...host.nodeFlags], env: { ELECTRON_RUN_AS_NODE: '1' } }, entry: host.entry };
  if (host.platform === 'win32' || host.appImage) return undefined;
  const exists = host.exists ?? existsSync;
  const p = path.posix;
  const node = p.join(host.resourcesPath, 'bin', 'switchboard-node');
  const unpacked = (file: string) => file.replace(/app\.asar(?=[\\/])/, 'app.asar.unpacked');
  const entry = unpacked(host.entry);
  // The engine finds the app's folder by its package.json (src-main/engine/platform/app-root.ts): without
  // it unpacked too, the engine could not start at all.
  const manifest = unpacked(p.join(p.dirname(p.dirname(p.dirname(host.entry))), 'package.json'));
  if (!exists(node) || !exists(entry) || !exists(manifest)) return undefined;
  return { runtime: { command: node, args: ['node'], env: {} }, entry };
}

/**
 * Starts `runtime entry args…` detached with an IPC channel; the result is what the supervisor
 * and the RPC take (exit, message, postMessage, kill) plus release().
 */
export function spawnDetachedEngine(
  spawn: Spawn,
  runtime: EngineRuntime,
  entry: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timers: Timers = realTimers,
  releaseTimeoutMs = RELEASE_TIMEOUT_MS,
): DetachedEngine {
  const child = spawn(runtime.command, [...runtime.args, entry, ...args], {
    detached: true,
    // stdout/stderr as the utility process had them (the app's); stdin unused.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...env, ...runtime.env },
    windowsHide: true,
  });
  // An IPC send can fail once the engine is gone (EPIPE); the exit event tells the supervisor.
  child.on('error', () => undefined);
  let exited = false;
  child.on('exit', () => (exited = true));
  return {
    get pid() {
      return child.pid;
    },
    on(event: 'exit' | 'message', listener: (arg: never) => void) {
      if (event === 'exit') child.on('exit', (code) => (listener as (c: number) => void)(code ?? 1));
      else child.on('message', listener as (m: unknown) => void);
      return this;
    },
    postMessage(message) {
      if (child.connected) child.send(message);
    },
    kill() {
      return child.kill('SIGTERM');
    },
    release() {
      return new Promise<void>((resolve, reject) => {
        if (exited || !child.connected) return reject(new SwitchboardError('engine-unavailable', 'The Switchboard engine is not running, so there is nothing to keep serving during the update.'));
        const timer = timers.setTimeout(() => {
          child.off('message', onMessage);
          reject(new SwitchboardError('timeout', 'The Switchboard engine did not confirm it would keep serving during the update; the update was not started.'));
        }, releaseTimeoutMs);
        const onMessage = (m: unknown) => {
          if (!isReleasedMessage(m)) return;
          timers.clearTimeout(timer);
          child.off('message', onMessage);
          // The app may now exit without waiting for the engine.
          child.unref();
          resolve();
        };
        child.on('message', onMessage);
        child.send(RELEASE_MESSAGE);
      });
    },
  };
}
