// The engine as the desktop app runs it, started by Electron main with `--home DIR`: a detached
// process with a Node IPC channel, or a utilityProcess (handover/parent-link.ts). Control API
// requests arrive on that line (ControlRequest in, ControlResponse out) — the same contract the
// socket and /api/ carry. No Electron import: a utility process's port is a plain property
// Electron puts on `process`.
import type { ControlRequest, ControlResponse } from '../../src-shared/api.ts';
import { toErrorData } from '../../src-shared/errors.ts';
import { Engine } from './engine.ts';
import { EngineRunningError } from './engine-files.ts';
import { resolveHome } from './platform/home.ts';
import { TakeOverRefusedError } from './handover/take-over.ts';
import { parentLink, type ParentHost } from './handover/parent-link.ts';
import { STOP_DEADLINE_MS, stopSignal } from './stop-signals.mjs';

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function start(): Promise<void> {
  const home = resolveHome(argValue('--home'));
  const log = (l: string) => process.stderr.write(`${new Date().toISOString()} ${l}\n`);
  // Set only so the app's own binary would run this as Node; the servers must not inherit it.
  delete process.env.ELECTRON_RUN_AS_NODE;
  const orphaned = new AbortController();
  const port = parentLink(process as unknown as ParentHost, {
    log,
    // The app quit or crashed without releasing it: the engine goes as a child of the app would.
    onOrphaned: () => {
      setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
      orphaned.abort();
    },
    // Outliving the app, its output may lose its reader: a failed write must not end the engine.
    onReleased: () => {
      for (const out of [process.stdout, process.stderr]) out.on('error', () => undefined);
    },
  });
  // Stopped at any moment, even while it starts, the engine goes and takes its servers with it.
  const stop = AbortSignal.any([stopSignal(), orphaned.signal]);
  let engine: Engine | undefined;
  // A start under way stops itself (Engine.start throws); a started engine is stopped here.
  stop.addEventListener('abort', () => void engine?.dispose().finally(() => process.exit(0)), { once: true });
  try {
    engine = await Engine.start({
      home, log, signal: stop,
      // After an update the app starts its engine with --take-over (docs/updates.md).
      takeOver: process.argv.includes('--take-over'),
      // Handed over to the next engine (it serves the home now): nothing of this one is left to stop.
      onHandedOver: () => process.exit(0),
    });
  } catch (err) {
    if (stop.aborted) process.exit(0);
    // A take-over refused (the running engine is newer) ends as a home found busy does.
    const running = err instanceof EngineRunningError || err instanceof TakeOverRefusedError;
    port?.post({ type: 'fatal', error: toErrorData(err), running });
    process.exit(running ? 3 : 1);
  }
  const started = engine;
  // Stopped after the start's last check: the signal found no engine to stop yet.
  if (stop.aborted) return void started.dispose().finally(() => process.exit(0));
  port?.onMessage((message) => {
    const req = message as ControlRequest;
    if (!req || typeof req.id !== 'number') return;
    void started.control.handle(req.method, req.params).then(
      (result) => port.post({ id: req.id, result } satisfies ControlResponse),
      (err) => port.post({ id: req.id, error: toErrorData(err) } satisfies ControlResponse),
    );
  });
  port?.post({ type: 'ready', http: started.http ? { url: started.http.url, token: started.token } : null });
}

void start();
