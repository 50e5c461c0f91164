// `switchboard serve`: the engine in the foreground, headless, with the UI on 127.0.0.1.
import { Engine } from '../../engine/engine.ts';
import { EngineRunningError } from '../../engine/engine-files.ts';
import { homePaths } from '../../engine/home.ts';
import { intFlag, parseFlags } from '../args.ts';
import type { CliContext } from '../context.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseFlags('serve', args, { port: { type: 'string' } });
  const port = values.port === undefined ? undefined : intFlag(values.port, '--port', 0);
  let engine: Engine;
  try {
    engine = await Engine.start({ home: ctx.home, port, log: (l) => ctx.stderr(`[engine] ${l}\n`) });
  } catch (err) {
    if (err instanceof EngineRunningError) {
      ctx.stderr(
        `switchboard: an engine (pid ${err.pid}) already serves ${ctx.home}. Stop it first, or run \`switchboard status\` for its address.\n`,
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
  await waitForSignal(engine);
  void homePaths;
  return 0;
}

/** Serves until SIGINT/SIGTERM, then shuts down cleanly (children killed, socket removed). */
export function waitForSignal(engine: Engine): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      // Bounded shutdown: a stuck dispose must not keep the process alive.
      const force = setTimeout(() => process.exit(0), 5000);
      force.unref();
      void engine.dispose().finally(() => {
        clearTimeout(force);
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    process.on('SIGHUP', stop);
  });
}
