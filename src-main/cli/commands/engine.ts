// `switchboard engine` (internal): the background engine a shim or a command starts. Exits
// quietly when another engine already serves the home (two shims started at once).
import { Engine } from '../../engine/engine.ts';
import { EngineRunningError } from '../../engine/engine-files.ts';
import type { CliContext } from '../context.ts';
import { waitForSignal } from './serve.ts';

export async function run(_args: string[], ctx: CliContext): Promise<number> {
  let engine: Engine;
  const log = (l: string) => ctx.stderr(`${new Date().toISOString()} ${l}\n`);
  try {
    engine = await Engine.start({ home: ctx.home, log });
  } catch (err) {
    if (err instanceof EngineRunningError) return 0;
    throw err;
  }
  await waitForSignal(engine);
  return 0;
}
