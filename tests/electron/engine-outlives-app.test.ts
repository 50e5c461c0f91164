// The desktop app's engine outlives the app during an update (docs/updates.md, "The engine
// outlives the app"), with real processes: a plain Node program runs the app's engine modules
// (fixtures/desktop-app.ts: supervisor, detached engine, RPC, auto-update, as main.ts wires
// them), the engine is src-main/engine/entry.ts, a real shim and MCP client call a slow fixture
// tool. Electron itself cannot run here; what it adds (windows, tray) plays no part in this.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupHomes, shimClient, waitFor } from '../helpers/home.ts';
import { CAN_FIND_MARKED, MARK_VAR, killMarked, markedGone, newMark } from '../helpers/processes.ts';
import { alive, homeWithServers, status, text } from '../helpers/take-over.ts';

afterAll(cleanupHomes);

const APP = fileURLToPath(new URL('./fixtures/desktop-app.ts', import.meta.url));
/** The call in flight, in ms: still running when the app has quit and its next version's engine (tsx, a loaded machine: seconds) takes over. */
const CALL_MS = 20_000;

interface App {
  child: ChildProcess;
  /** Resolves with the pid of its engine once that is ready. */
  engine: Promise<number>;
  exited: Promise<number | null>;
  send(command: 'update' | 'quit'): void;
}

function startApp(home: string, mark: string): App {
  const child = spawn(process.execPath, ['--import', 'tsx', APP, '--home', home], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, [MARK_VAR]: mark } });
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const engine = new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as { engine?: number; error?: string };
      if (m.engine) resolve(m.engine);
      if (m.error) reject(new Error(m.error));
    });
    child.on('exit', (code) => reject(new Error(`the app exited (${code}) before its engine was ready: ${err}`)));
  });
  engine.catch(() => undefined);
  return { child, engine, exited: new Promise((r) => child.on('exit', (code) => r(code))), send: (c) => child.stdin!.write(`${c}\n`) };
}

describe('the desktop engine and its app', () => {
  it(
    'an engine started the desktop way survives its app quitting to update, and the new version takes over with the call in flight answered',
    { timeout: 120_000 },
    async () => {
      const mark = newMark();
      const home = homeWithServers(mark);
      const oldApp = startApp(home, mark);
      try {
        const oldEngine = await oldApp.engine;
        const client = await shimClient(home, 'demo', { name: 'client-a' });
        await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'slow__wait'), 30_000, 'slow__wait');
        let answeredAt = 0;
        const call = client.callTool({ name: 'slow__wait', arguments: { ms: CALL_MS } }, undefined, { timeout: 90_000 }).then((r) => ((answeredAt = Date.now()), r));
        // The call has reached the engine before the person clicks Restart to update.
        await new Promise((r) => setTimeout(r, 500));
        oldApp.send('update');
        expect(await oldApp.exited).toBe(0);
        const appGoneAt = Date.now();
        // Left running: it still holds the call.
        await new Promise((r) => setTimeout(r, 1000));
        expect(alive(oldEngine)).toBe(true);
        expect(answeredAt).toBe(0);

        const newApp = startApp(home, mark);
        const newEngine = await newApp.engine;
        expect(newEngine).not.toBe(oldEngine);
        expect(text(await call)).toBe(`waited ${CALL_MS}`);
        expect(answeredAt).toBeGreaterThan(appGoneAt);
        await waitFor(() => !alive(oldEngine), 20_000, 'the old engine to leave');
        expect(status(home).pid).toBe(newEngine);
        // The same session goes on, through the new engine.
        expect(text(await client.callTool({ name: 'slow__wait', arguments: { ms: 10 } }))).toBe('waited 10');
        await client.close();

        // Quitting the usual way stops the engine: nothing is left.
        newApp.send('quit');
        expect(await newApp.exited).toBe(0);
        await waitFor(() => !alive(newEngine), 15_000, 'the engine to stop with its app');
        if (CAN_FIND_MARKED) expect(await markedGone(mark, 15_000)).toEqual([]);
      } finally {
        killMarked(mark);
      }
    },
  );

  it('an engine whose app crashes without releasing it stops: no orphan', { timeout: 90_000 }, async () => {
    const mark = newMark();
    const home = homeWithServers(mark);
    const app = startApp(home, mark);
    try {
      const engine = await app.engine;
      app.child.kill('SIGKILL');
      await app.exited;
      await waitFor(() => !alive(engine), 15_000, 'the engine to stop after its app crashed');
      if (CAN_FIND_MARKED) expect(await markedGone(mark, 15_000)).toEqual([]);
    } finally {
      killMarked(mark);
    }
  });
});
