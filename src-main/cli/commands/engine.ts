// `switchboard engine` (internal): the background engine a shim or a command starts. Exits
// quietly when another engine already serves the home (two shims started at once). Stopped at any
// moment, even while it starts, it goes and takes its servers with it.
import { Engine } from '../../engine/engine.ts';
import { EngineRunningError } from '../../engine/engine-files.ts';
import { stopSignal } from '../../engine/stop-signals.mjs';
import type { CliContext } from '../context.ts';
import { serveUntil } from './serve.ts';

export async function run(_args: string[], ctx: CliContext): Promise<number> {
  const stop = stopSignal();
  let engine: Engine;
  const log = (l: string) => ctx.stderr(`${new Date().toISOString()} ${l}\n`);
  try {
    engine = await Engine.start({ home: ctx.home, log, signal: stop });
  } catch (err) {
    // Stopped while starting: what the start made is already stopped.
    if (err instanceof EngineRunningError || stop.aborted) return 0;
    throw err;
  }
  await serveUntil(engine, stop);
  return 0;
}
