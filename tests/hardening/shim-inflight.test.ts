// The shims' set of requests in flight: a call waiting on the engine gets an error
// when the engine dies, even when the engine has since put the client a question with the same
// id and a `"result":` in its params. Real shims of both kinds speaking raw lines (so the
// client's ids are chosen), a real engine killed with SIGKILL, the real askers fixture server.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect } from 'vitest';
import { NATIVE_SHIM_UNAVAILABLE, SHIM_KINDS, cleanupHomes, enginePid, fixtureServer, makeHome, shimCommand, stopEngine, type ShimKind } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

const KINDS = SHIM_KINDS.filter((k) => k === 'node' || !NATIVE_SHIM_UNAVAILABLE);

type Msg = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };

/** A shim spoken to in raw JSON-RPC lines, its answers kept in order. */
function rawShim(kind: ShimKind, home: string) {
  const cmd = shimCommand(kind, home, 'p');
  const proc = spawn(cmd.command, cmd.args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } }) as ChildProcessWithoutNullStreams;
  const seen: Msg[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: proc.stdout }).on('line', (l) => {
    seen.push(JSON.parse(l) as Msg);
    for (const w of waiters) w();
  });
  return {
    proc,
    send: (m: unknown) => proc.stdin.write(JSON.stringify(m) + '\n'),
    /** The first line from `from` on that `pred` accepts (its index too), or an error after `ms`. */
    next(pred: (m: Msg) => boolean, ms: number, what: string, from = 0): Promise<{ msg: Msg; at: number }> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const at = seen.findIndex((m, i) => i >= from && pred(m));
          if (at === -1) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve({ msg: seen[at]!, at });
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${what}: none in ${ms} ms (saw ${JSON.stringify(seen.slice(from)).slice(0, 600)})`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
  };
}

/** The processes `pid` started (its servers), which outlive an engine killed with SIGKILL. */
function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('issue 29: the shims\' requests in flight', () => {
  hardeningCase('attack', 'a server→client request with a pending call\'s id and "result": in its params does not cost that call its error when the engine dies', async (tally) => {
    for (const kind of KINDS) {
      const home = makeHome({ servers: { askers: fixtureServer('askers.mjs') }, profiles: { p: { servers: ['askers'] } } });
      const shim = rawShim(kind, home);
      let orphans: number[] = [];
      try {
        await tally.attempt(`the ${kind} shim answers the call with an error when the engine is killed`, async () => {
          shim.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'inflight-test', version: '1' } } });
          await shim.next((m) => m.id === 'init', 30_000, 'initialize');
          shim.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          for (let i = 0; ; i++) {
            shim.send({ jsonrpc: '2.0', id: `list${i}`, method: 'tools/list' });
            const { msg } = await shim.next((m) => m.id === `list${i}`, 20_000, 'tools/list');
            if ((msg.result as { tools: { name: string }[] }).tools.some((t) => t.name === 'askers__ask')) break;
            if (i > 100) throw new Error('askers never listed its tools');
            await new Promise((r) => setTimeout(r, 100));
          }
          // A first question shows the id the engine gives its next one to this client.
          shim.send({ jsonrpc: '2.0', id: 'warm', method: 'tools/call', params: { name: 'askers__ask', arguments: { who: 'warm-up' } } });
          const first = await shim.next((m) => m.method === 'elicitation/create', 20_000, 'the first question');
          shim.send({ jsonrpc: '2.0', id: first.msg.id, result: { action: 'decline' } });
          const warm = await shim.next((m) => m.id === 'warm', 20_000, 'the warm-up call');
          const next = (first.msg.id as number) + 1;

          // The call whose id the engine's next question will carry, a "result" key inside that question.
          shim.send({ jsonrpc: '2.0', id: next, method: 'tools/call', params: { name: 'askers__ask', arguments: { who: 'x', field: 'result' } } });
          const q = await shim.next((m) => m.method === 'elicitation/create', 20_000, 'the second question', warm.at + 1);
          expect(q.msg.id, 'the question has the pending call\'s id').toBe(next);
          expect(q.msg.params?.requestedSchema).toMatchObject({ properties: { result: { type: 'string' } } });

          // Unanswered, the engine dies: the call must get its error.
          const pid = enginePid(home)!;
          orphans = childPids(pid);
          process.kill(pid, 'SIGKILL');
          const end = await shim.next((m) => m.id === next && !m.method, 10_000, `an answer to call ${next} after the engine died`, q.at + 1);
          expect(end.msg.error?.message).toMatch(/engine stopped during this request/);
        });
      } finally {
        shim.proc.kill();
        await stopEngine(home);
        for (const p of orphans) {
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            // Gone with its engine.
          }
        }
      }
    }
  }, 180_000);
});
