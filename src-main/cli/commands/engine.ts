// `switchboard engine [--take-over]` (internal): the background engine a shim or a command
// starts. Exits quietly when another engine already serves the home (two shims started at once).
// With --take-over (what the app runs after an update) it asks that engine to hand the home over
// instead, and exits 3 when it refuses (it is newer). Stopped at any moment, even while it starts,
// it goes and takes its servers with it.
import { Engine } from '../../engine/engine.ts';
import { EngineRunningError } from '../../engine/engine-files.ts';
import { stopSignal } from '../../engine/stop-signals.mjs';
import { TakeOverRefusedError } from '../../engine/handover/take-over.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { serveUntil } from './serve.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseFlags('engine', args, { 'take-over': { type: 'boolean' } });
  const stop = stopSignal();
  const left = new AbortController();
  let engine: Engine;
  const log = (l: string) => ctx.stderr(`${new Date().toISOString()} ${l}\n`);
  try {
    engine = await Engine.start({ home: ctx.home, log, signal: stop, takeOver: values['take-over'] === true, onHandedOver: () => left.abort() });
  } catch (err) {
    // Stopped while starting: what the start made is already stopped.
    if (stop.aborted) return 0;
    if (err instanceof TakeOverRefusedError) {
      ctx.stderr(`switchboard engine: ${err.message}\n`);
      return 3;
    }
    if (err instanceof EngineRunningError) return 0;
    throw err;
  }
  await serveUntil(engine, AbortSignal.any([stop, left.signal]));
  return 0;
}
