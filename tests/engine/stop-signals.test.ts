// The stop signals of a long-running command, caught from its first moment: until the command
// says how to stop, a signal ends the process as if nobody listened; after, the command stops it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src-main/engine/stop-signals.mjs', import.meta.url));

/** Runs `body` (after importing the module as `s`), sends `signal` once it prints "ready"; its exit and output. */
function run(body: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `const s = await import(${JSON.stringify(MODULE)});\n${body}\nprocess.stdout.write('ready\\n'); setInterval(() => {}, 1 << 30);`]);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    if (out === 'ready\n') child.kill(signal);
  });
  return new Promise((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig, out })));
}

describe('stop signals', () => {
  it('end the process by the signal itself while nothing has taken them over', async () => {
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      const r = await run('s.catchStopSignals();', sig);
      expect(r, sig).toMatchObject({ signal: sig, code: null });
    }
  });

  it('go to the command once it takes them over', async () => {
    const r = await run("s.catchStopSignals(); s.onStopSignal((sig) => { console.log('stopping on ' + sig); setTimeout(() => process.exit(7), 100); });", 'SIGTERM');
    expect(r).toMatchObject({ code: 7, signal: null });
    expect(r.out).toContain('stopping on SIGTERM');
  });

  it('bound a stop that hangs: stopSignal() exits within its deadline', async () => {
    const t0 = Date.now();
    const r = await run("const stop = s.stopSignal(); stop.addEventListener('abort', () => console.log('aborted'));", 'SIGTERM');
    expect(r).toMatchObject({ code: 0, signal: null });
    expect(r.out).toContain('aborted');
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});
