// The engine as the desktop app runs it: a utilityProcess started by Electron main with
// `--home DIR`. Control API requests arrive on the process's parent port (ControlRequest in,
// ControlResponse out) — the same contract the socket and /api/ carry. No Electron import:
// the port is a plain property Electron puts on `process` in a utility process.
import type { ControlRequest, ControlResponse } from '../../src-shared/api.ts';
import { toErrorData } from '../../src-shared/errors.ts';
import { Engine } from './engine.ts';
import { EngineRunningError } from './engine-files.ts';
import { resolveHome } from './platform/home.ts';
import { TakeOverRefusedError } from './handover/take-over.ts';
import { stopSignal } from './stop-signals.mjs';

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function start(): Promise<void> {
  const home = resolveHome(argValue('--home'));
  const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
  // Stopped at any moment, even while it starts, the engine goes and takes its servers with it.
  const stop = stopSignal();
  let engine: Engine | undefined;
  // A start under way stops itself (Engine.start throws); a started engine is stopped here.
  stop.addEventListener('abort', () => void engine?.dispose().finally(() => process.exit(0)), { once: true });
  try {
    engine = await Engine.start({
      home, log: (l) => process.stderr.write(`${new Date().toISOString()} ${l}\n`), signal: stop,
      // After an update the app starts its engine with --take-over (docs/updates.md).
      takeOver: process.argv.includes('--take-over'),
      // Handed over to the next engine (it serves the home now): nothing of this one is left to stop.
      onHandedOver: () => process.exit(0),
    });
  } catch (err) {
    if (stop.aborted) process.exit(0);
    // A take-over refused (the running engine is newer) ends as a home found busy does.
    const running = err instanceof EngineRunningError || err instanceof TakeOverRefusedError;
    port?.postMessage({ type: 'fatal', error: toErrorData(err), running });
    process.exit(running ? 3 : 1);
  }
  const started = engine;
  // Stopped after the start's last check: the signal found no engine to stop yet.
  if (stop.aborted) return void started.dispose().finally(() => process.exit(0));
  port?.on('message', (e) => {
    const req = e.data as ControlRequest;
    if (!req || typeof req.id !== 'number') return;
    void started.control.handle(req.method, req.params).then(
      (result) => port.postMessage({ id: req.id, result } satisfies ControlResponse),
      (err) => port.postMessage({ id: req.id, error: toErrorData(err) } satisfies ControlResponse),
    );
  });
  port?.postMessage({ type: 'ready', http: started.http ? { url: started.http.url, token: started.token } : null });
}

void start();
