// Whose a task is (issue 20, tasks): a client's clientInfo name is its own claim, so it cannot be
// what opens a task. A real `switchboard serve`, real 2025 clients over HTTP (sessions) and raw
// 2026-07-28 requests (sessionless, the tasks extension) against a server that runs tasks.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { MAX_TASKS_PER_CLIENT } from '../../src-main/engine/gateway/task-bridge.ts';
import { cleanupHomes, fixtureServer, makeHome, waitFor } from '../helpers/home.ts';
import { modernPost, serve, type Served } from '../helpers/serve.ts';
import { hardeningCase } from './hardening-case.ts';
import net from 'node:net';
import { socketPath } from '../../src-main/shim/home-paths.mjs';

afterAll(cleanupHomes);

let served: Served;
let home: string;
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

beforeAll(async () => {
  home = makeHome({
    servers: { tl: fixtureServer('tasks-legacy.mjs'), plain: fixtureServer('basic.mjs') },
    profiles: { p: { servers: ['tl', 'plain'] } },
  });
  served = await serve(home);
}, 60_000);

afterAll(() => served?.stop());

async function legacyClient(name: string): Promise<Client> {
  const c = new Client({ name, version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp/p`), { requestInit: { headers: { Authorization: `Bearer ${served.token}` } } }));
  return c;
}

describe('tasks are reached by who made them, not by a claimed name', () => {
  hardeningCase('attack', "a request naming a 2025 client's name on its profile cannot read that client's task, even holding its id", async (tally) => {
    const victim = await legacyClient('victim');
    const other = await legacyClient('victim');
    try {
      await waitFor(async () => ((await victim.listTools()).tools.some((t) => t.name === 'plain__echo') ? true : undefined), 20_000, 'tools');
      const { task } = await victim.request({ method: 'tools/call', params: { name: 'plain__echo', arguments: { text: 'the secret' }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      const own = await victim.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(JSON.stringify(own.content)).toContain('the secret');

      await tally.attempt('a stateless 2026-07-28 request named "victim" with the task id', async () => {
        const r = (await modernPost(served, 'p', 'tasks/get', { taskId: task.taskId }, { name: task.taskId, clientName: 'victim', capabilities: TASKS })).json();
        expect(r.error?.message).toMatch(/no task/);
        expect(JSON.stringify(r)).not.toContain('the secret');
      });
      await tally.attempt('another 2025 session named "victim": tasks/list', async () => {
        expect((await other.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
      });
      await tally.attempt('another 2025 session named "victim": tasks/result with the id', async () => {
        await expect(other.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toThrow(/no task/);
      });
    } finally {
      await victim.close();
      await other.close();
    }
  }, 90_000);

  hardeningCase('attack', "another 2026-07-28 client on the profile holding a task's id cannot read, cancel or update it, and hears what an unknown id hears", async (tally) => {
    const post = (method: string, params: Record<string, unknown>, clientName: string) =>
      modernPost(served, 'p', method, params, { name: String(params.taskId ?? params.name), clientName, capabilities: TASKS }).then((r) => r.json());
    const created = await waitFor(async () => {
      const r = await post('tools/call', { name: 'tl__job', arguments: { ms: 20_000, label: 'alice-only' } }, 'alice');
      return r.result?.resultType === 'task' ? r.result : undefined;
    }, 20_000, "alice's task");
    const id = String(created.taskId);
    const unknown = '00000000-0000-4000-8000-000000000000';
    // What a client hears of a task id it has no task under, with the id itself left out.
    const answer = (r: { result?: unknown; error?: { code: number; message: string } }, asked: string) => ({
      result: r.result,
      error: r.error && { code: r.error.code, message: r.error.message.replaceAll(asked, '<id>') },
    });
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update'] as const) {
      await tally.attempt(`"mallory" sends ${method} with alice's task id`, async () => {
        const theirs = answer(await post(method, { taskId: id }, 'mallory'), id);
        const none = answer(await post(method, { taskId: unknown }, 'mallory'), unknown);
        expect(theirs.result).toBeUndefined();
        expect(theirs).toEqual(none);
      });
    }
    await tally.attempt('alice still has her task, running', async () => {
      const r = await post('tasks/get', { taskId: id }, 'alice');
      expect(r.result?.status).toBe('working');
      await post('tasks/cancel', { taskId: id }, 'alice');
    });
  }, 90_000);

  hardeningCase('attack', "a 2026-07-28 client on the shim's socket keeps its tasks to its connection: another connection with its name and the task id gets nothing", async (tally) => {
    const owner = await modernSocket('same-name');
    const other = await modernSocket('same-name');
    try {
      const created = await waitFor(async () => {
        const r = await owner.ask('tools/call', { name: 'tl__job', arguments: { ms: 20_000, label: 'socket-only' } });
        return (r.result as { resultType?: string } | undefined)?.resultType === 'task' ? (r.result as { taskId: string }) : undefined;
      }, 20_000, 'the task');
      const unknown = '00000000-0000-4000-8000-000000000000';
      for (const method of ['tasks/get', 'tasks/cancel'] as const) {
        await tally.attempt(`another connection named the same sends ${method} with the id`, async () => {
          const theirs = await other.ask(method, { taskId: created.taskId });
          const none = await other.ask(method, { taskId: unknown });
          expect(theirs.result).toBeUndefined();
          expect({ ...theirs.error, message: theirs.error?.message.replaceAll(created.taskId, '<id>') }).toEqual({ ...none.error, message: none.error?.message.replaceAll(unknown, '<id>') });
        });
      }
      await tally.attempt('its own connection still reaches it, running', async () => {
        expect((await owner.ask('tasks/get', { taskId: created.taskId })).result).toMatchObject({ status: 'working' });
        await owner.ask('tasks/cancel', { taskId: created.taskId });
      });
    } finally {
      owner.close();
      other.close();
    }
  }, 90_000);

  hardeningCase('attack', `rotating clientInfo names on sessionless requests keeps no more than ${MAX_TASKS_PER_CLIENT} tasks`, async (tally) => {
    const ids: string[] = [];
    const total = MAX_TASKS_PER_CLIENT + 20;
    for (let i = 0; i < total; i++) {
      const created = await waitFor(async () => {
        const r = (await modernPost(served, 'p', 'tools/call', { name: 'tl__job', arguments: { ms: 1, label: `r${i}` } }, { name: 'tl__job', clientName: `rotating-${i}`, capabilities: TASKS })).json();
        return r.result?.resultType === 'task' ? r.result : undefined;
      }, 20_000, `task ${i}`);
      ids.push(String(created.taskId));
    }
    let kept = 0;
    for (const [i, id] of ids.entries()) {
      // Asked under the name it was made with (what the old keying needed).
      const r = (await modernPost(served, 'p', 'tasks/get', { taskId: id }, { name: id, clientName: `rotating-${i}`, capabilities: TASKS })).json();
      if (r.result) kept++;
    }
    tally.notes!.push(`${total} tasks made under ${total} names, ${kept} kept`);
    await tally.attempt('at most the bound is kept, the oldest gone', async () => {
      expect(kept).toBe(MAX_TASKS_PER_CLIENT);
    });
  }, 180_000);
});

/** A 2026-07-28 client on the engine's socket, as behind a shim: raw requests with the `_meta` envelope. */
async function modernSocket(clientName: string) {
  const sock = net.connect(socketPath(home));
  await new Promise<void>((resolve, reject) => sock.once('connect', resolve).once('error', reject));
  sock.write(`${JSON.stringify({ kind: 'mcp', profile: 'p', v: 1 })}\n`);
  const waiting = new Map<number, (m: { result?: Record<string, unknown>; error?: { code: number; message: string } }) => void>();
  let buf = '';
  sock.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const m = JSON.parse(line) as { id?: number };
      if (typeof m.id === 'number') waiting.get(m.id)?.(m as never);
    }
  });
  let id = 0;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1' },
    'io.modelcontextprotocol/clientCapabilities': TASKS,
  };
  return {
    ask(method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
      const n = ++id;
      return new Promise((resolve) => {
        waiting.set(n, resolve);
        sock.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params: { ...params, _meta } })}\n`);
      });
    },
    close: () => sock.destroy(),
  };
}
