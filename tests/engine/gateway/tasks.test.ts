// Tasks through a profile, end to end: a real v1-SDK client through the real shim (2025-11-25
// core tasks) and raw 2026-07-28 requests on the real HTTP endpoint (the tasks extension), to a
// v1-SDK server that runs tools as tasks and to servers that have no tasks at all.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, TaskStatusNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { auditEntryOf, cleanupHomes, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';
import { modernPost, serve, type Served } from '../../helpers/serve.ts';

afterAll(cleanupHomes);

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const RELATED = 'io.modelcontextprotocol/related-task';

const home = makeHome({
  // A task outlives the call timeout: callTimeoutSec bounds each request, not a server's task.
  servers: { tl: fixtureServer('tasks-legacy.mjs', { callTimeoutSec: 1 }), plain: fixtureServer('basic.mjs'), modern: fixtureServer('v2-modern.mjs'), vt: fixtureServer('v2-tasks.mjs') },
  profiles: {
    main: { servers: ['tl', 'plain', 'modern', 'vt'] },
    code: { servers: ['plain'], surface: 'code' },
    'code-tl': { servers: ['tl', 'vt'], surface: 'code' },
  },
});

async function ready(client: Client, names: string[]): Promise<void> {
  await waitFor(async () => {
    const { tools } = await client.listTools();
    return names.every((n) => tools.some((t) => t.name === n)) ? true : undefined;
  }, 20_000, names.join(', '));
}

/** The notifications/tasks/status a client hears. */
function hearStatuses(client: Client): { taskId: string; status: string }[] {
  const seen: { taskId: string; status: string }[] = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void seen.push({ taskId: n.params.taskId, status: n.params.status }));
  return seen;
}

const taskCall = (client: Client, name: string, args: Record<string, unknown>, ttl = 60_000) =>
  client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl } } }, CreateTaskResultSchema);

describe('a 2025-11-25 client asking for tasks', () => {
  it('offers tasks in its capabilities', async () => {
    const client = await shimClient(home, 'main');
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    await client.close();
  });

  it("routes a task to the server that runs it: status, result, list, under the gateway's own id", async () => {
    const client = await shimClient(home, 'main', { name: 'tasker' });
    const statuses = hearStatuses(client);
    await ready(client, ['tl__job']);
    // Longer than the server's callTimeoutSec (1 s): the gateway polls, it holds no request open that long.
    const { task } = await taskCall(client, 'tl__job', { ms: 1500, label: 'routed' });
    expect(task.status).toBe('working');
    expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/); // the server's ids are 32 hex digits: this one is the gateway's
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toMatch(/working|completed/);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(text(result)).toBe('job done: routed');
    expect(result._meta?.[RELATED]).toEqual({ taskId: task.taskId });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((t) => t.taskId)).toContain(task.taskId);
    // The server's notifications/tasks/status reach the owner under the gateway's id, and no other id.
    await waitFor(() => (statuses.some((s) => s.taskId === task.taskId && s.status === 'completed') ? true : undefined), 10_000, 'the completed status');
    expect(statuses.every((s) => s.taskId === task.taskId)).toBe(true);
    await client.close();
  });

  it('cancels a routed task at its server', async () => {
    const client = await shimClient(home, 'main', { name: 'tasker' });
    await ready(client, ['tl__job']);
    const { task } = await taskCall(client, 'tl__job', { ms: 30_000, label: 'never' });
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
    // The server itself stopped the work.
    await waitFor(() => (/task [0-9a-f]{32} cancelled/.test(readFileSync(path.join(home, 'logs', 'tl.log'), 'utf8')) ? true : undefined), 10_000, 'the server to stop the task');
    await client.close();
  });

  it('runs a call to a server without tasks as an ordinary call behind a task the gateway keeps', async () => {
    const client = await shimClient(home, 'main', { name: 'tasker' });
    const statuses = hearStatuses(client);
    await ready(client, ['plain__sleep', 'modern__echo']);
    const { task } = await taskCall(client, 'plain__sleep', { ms: 200 });
    expect(task).toMatchObject({ status: 'working', ttl: 60_000 });
    expect(text(await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toBe('slept');
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
    await waitFor(() => (statuses.some((s) => s.taskId === task.taskId && s.status === 'completed') ? true : undefined), 10_000, 'the completed status');
    // A 2026-07-28 server's tool too (the engine declares no tasks to those: a plain call).
    const echo = await taskCall(client, 'modern__echo', { text: 'via task' });
    expect(text(await client.experimental.tasks.getTaskResult(echo.task.taskId, CallToolResultSchema))).toBe('via task');
    await client.close();
  });

  it('cancelling a task the gateway keeps cancels its upstream call', async () => {
    const client = await shimClient(home, 'main', { name: 'canceller' });
    await ready(client, ['plain__sleep']);
    const { task } = await taskCall(client, 'plain__sleep', { ms: 30_000 });
    await new Promise((r) => setTimeout(r, 200));
    expect((await client.experimental.tasks.cancelTask(task.taskId)).status).toBe('cancelled');
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toThrow(/cancelled/);
    const entry = await auditEntryOf(home, 'canceller', 'sleep');
    expect(entry.outcome).toBe('cancelled');
    await client.close();
  });

  it('runs execute as a task in a code profile', async () => {
    const client = await shimClient(home, 'code', { name: 'tasker' });
    await ready(client, ['execute']);
    const { task } = await taskCall(client, 'execute', { code: 'async () => (await plain.echo({ text: "in code" }))' });
    const r = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(text(r)).toContain('in code');
    await client.close();
  });

  it("keeps clients out of each other's tasks and names unknown ones", async () => {
    const a = await shimClient(home, 'main', { name: 'owner-a' });
    const b = await shimClient(home, 'main', { name: 'owner-b' });
    await ready(a, ['plain__echo']);
    const { task } = await taskCall(a, 'plain__echo', { text: 'mine' });
    await expect(b.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/no task/);
    expect((await b.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
    await expect(a.experimental.tasks.getTask('no-such-task')).rejects.toThrow(/-32602|no task/);
    await expect(taskCall(a, 'nope__nothing', {})).rejects.toThrow(/Unknown tool/);
    await a.close();
    await b.close();
  });

  it('answers a plain call to a tool that runs only as a task (the gateway waits for the task), in code too', async () => {
    const client = await shimClient(home, 'main');
    await ready(client, ['tl__must_task']);
    // Sent as is: the SDK's callTool() itself refuses a plain call to a task-only tool.
    const r = await client.request({ method: 'tools/call', params: { name: 'tl__must_task', arguments: {} } }, CallToolResultSchema);
    expect(text(r)).toBe('required task ran');
    await client.close();
    const coder = await shimClient(home, 'code-tl');
    await ready(coder, ['execute']);
    expect(text(await coder.callTool({ name: 'execute', arguments: { code: 'async () => (await tl.must_task({}))' } }))).toContain('required task ran');
    await coder.close();
  });
});

describe("a 2026-07-28 server's tasks (the extension, declared by the engine)", () => {
  it('answers a plain call with the result of the task the server made (was: -32021, missing capability)', async () => {
    const client = await shimClient(home, 'main');
    await ready(client, ['vt__job']);
    expect(text(await client.callTool({ name: 'vt__job', arguments: { ms: 200, label: 'followed' } }))).toBe('job done: followed');
    await client.close();
    const coder = await shimClient(home, 'code-tl');
    await ready(coder, ['execute']);
    expect(text(await coder.callTool({ name: 'execute', arguments: { code: 'async () => (await vt.job({ ms: 50, label: "in code" }))' } }))).toContain('job done: in code');
    await coder.close();
  });

  it("runs under a task the gateway keeps for a 2025 client that asked for one; cancelling it cancels the server's task", async () => {
    const client = await shimClient(home, 'main', { name: 'tasker' });
    await ready(client, ['vt__job']);
    const { task } = await taskCall(client, 'vt__job', { ms: 100, label: 'kept' });
    expect(text(await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toBe('job done: kept');
    const long = await taskCall(client, 'vt__job', { ms: 30_000, label: 'never' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await client.experimental.tasks.cancelTask(long.task.taskId)).status).toBe('cancelled');
    await waitFor(() => (/v2 task \S+ cancelled/.test(readFileSync(path.join(home, 'logs', 'vt.log'), 'utf8')) ? true : undefined), 10_000, 'the server to cancel its task');
    await client.close();
  });
});

describe('a 2026-07-28 client with the tasks extension (HTTP)', () => {
  // A home of its own: `serve` is the engine there (the shim's engine holds the other one).
  const web = makeHome({
    servers: { tl: fixtureServer('tasks-legacy.mjs'), plain: fixtureServer('basic.mjs'), vt: fixtureServer('v2-tasks.mjs') },
    profiles: { main: { servers: ['tl', 'plain', 'vt'] } },
  });
  let s: Served;
  beforeAll(async () => {
    s = await serve(web);
  });
  afterAll(async () => {
    await s?.stop();
  });

  const post = async (method: string, params: Record<string, unknown>, opts: { tasks?: boolean } = {}) => {
    const name = method === 'tools/call' ? String(params.name) : typeof params.taskId === 'string' ? params.taskId : undefined;
    const capabilities = opts.tasks === false ? {} : { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    return (await modernPost(s, 'main', method, params, { name, capabilities, clientName: 'raw-tasks' })).json();
  };

  it('announces the extension, answers a task for a tool its server runs as one, and inlines the result in tasks/get', async () => {
    const discover = await post('server/discover', {});
    expect((discover.result?.capabilities as { extensions?: Record<string, unknown> }).extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
    const created = await waitFor(async () => {
      const r = await post('tools/call', { name: 'tl__job', arguments: { ms: 200, label: 'modern' } });
      return r.result?.resultType === 'task' ? r.result : undefined;
    }, 20_000, 'a task answer');
    expect(created).toMatchObject({ status: 'working', ttlMs: expect.any(Number) });
    const id = String(created.taskId);
    const done = await waitFor(async () => {
      const r = await post('tasks/get', { taskId: id });
      return r.result?.status === 'completed' ? r.result : undefined;
    }, 10_000, 'the task to complete');
    expect(done.resultType).toBe('complete');
    expect(text(done.result)).toBe('job done: modern');
  });

  it('cancels the task at its server', async () => {
    const created = (await post('tools/call', { name: 'tl__job', arguments: { ms: 30_000, label: 'x' } })).result!;
    expect(created.resultType).toBe('task');
    expect((await post('tasks/cancel', { taskId: String(created.taskId) })).result).toMatchObject({ resultType: 'complete' });
    expect((await post('tasks/get', { taskId: String(created.taskId) })).result?.status).toBe('cancelled');
  });

  it('answers plainly when the tool does not run as a task, or the client did not declare the extension', async () => {
    const plain = await post('tools/call', { name: 'plain__echo', arguments: { text: 'no task' } });
    expect(plain.result).toMatchObject({ resultType: 'complete' });
    expect(text(plain.result)).toBe('no task');
    const undeclared = await post('tools/call', { name: 'tl__job', arguments: { ms: 10, label: 'sync' } }, { tasks: false });
    expect(text(undeclared.result)).toBe('job done: sync');
    // A tool that runs only as a task still answers a client without the extension: the gateway waits for it.
    expect(text((await post('tools/call', { name: 'tl__must_task', arguments: {} }, { tasks: false })).result)).toBe('required task ran');
    // A 2026-07-28 server's task too, for clients with the extension or without.
    for (const tasks of [true, false]) expect(text((await post('tools/call', { name: 'vt__job', arguments: { ms: 50, label: 'v2' } }, { tasks })).result)).toBe('job done: v2');
  });

  it('refuses tasks/get to a client that did not declare the extension (-32021), and unknown tasks (-32602)', async () => {
    expect((await post('tasks/get', { taskId: 'x' }, { tasks: false })).error?.code).toBe(-32021);
    expect((await post('tasks/get', { taskId: 'x' })).error?.code).toBe(-32602);
  });
});
