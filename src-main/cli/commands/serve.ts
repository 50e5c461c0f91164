// `switchboard serve`: the engine in the foreground, headless, with the UI on 127.0.0.1.
import { Engine } from '../../engine/engine.ts';
import { EngineRunningError } from '../../engine/engine-files.ts';
import { homePaths } from '../../engine/platform/home.ts';
import { SocketControlClient } from '../engine-client.ts';
import { stopSignal } from '../../engine/stop-signals.mjs';
import { TakeOverRefusedError } from '../../engine/handover/take-over.ts';
import { intFlag, parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseFlags('serve', args, { port: { type: 'string' }, 'take-over': { type: 'boolean' } });
  const port = values.port === undefined ? undefined : intFlag(values.port, '--port', 0);
  const stop = stopSignal();
  const left = new AbortController();
  let engine: Engine;
  try {
    engine = await Engine.start({
      home: ctx.home, port, log: (l) => ctx.stderr(`[engine] ${l}\n`), signal: stop,
      takeOver: values['take-over'] === true, onHandedOver: () => left.abort(),
    });
  } catch (err) {
    if (stop.aborted) return 0;
    if (err instanceof TakeOverRefusedError) {
      ctx.stderr(`switchboard serve: ${err.message}\n`);
      return 3;
    }
    if (err instanceof EngineRunningError) {
      // Usually an engine a client's shim started: serving it is what the user wanted anyway.
      const ui = await runningUiAddress(ctx.home);
      if (ui) {
        ctx.stdout(`Switchboard is already running (pid ${err.pid}): ${ui}\n`);
        ctx.stdout(`Home: ${ctx.home}\n`);
        return 0;
      }
      ctx.stderr(
        `switchboard: an engine (pid ${err.pid}) already serves ${ctx.home} but could not be asked for its address. Stop it first, or run \`switchboard status\`.\n`,
      );
      return 1;
    }
    throw err;
  }
  const st = engine.status();
  ctx.stdout(`Switchboard is running: ${engine.http!.url}/#token=${engine.token}\n`);
  ctx.stdout(`Home: ${ctx.home}\n`);
  if (!st.config.valid) {
    ctx.stdout(`config.json has problems (serving the last valid version):\n`);
    for (const p of st.config.problems) ctx.stdout(`  ${p.path || '(file)'}: ${p.message}\n`);
  }
  await serveUntil(engine, AbortSignal.any([stop, left.signal]));
  if (left.signal.aborted) ctx.stdout(`Handed over to the engine that took this home over; this one has stopped.\n`);
  return 0;
}

/** The UI address (with its token) of the engine already running for `home`, or null. */
export async function runningUiAddress(home: string): Promise<string | null> {
  const client = await SocketControlClient.connect(homePaths(home));
  if (!client) return null;
  try {
    const st = await client.call('status', {});
    return st.http ? `${st.http.url}/#token=${st.http.token}` : null;
  } catch {
    return null;
  } finally {
    client.close();
  }
}

/** Serves until `signal` aborts, then shuts down cleanly (children killed, socket removed). */
export async function serveUntil(engine: Engine, signal: AbortSignal): Promise<void> {
  if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  await engine.dispose();
}
