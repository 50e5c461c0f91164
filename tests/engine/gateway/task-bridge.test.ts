// The gateway's task store on its own: tasks it runs (status, result, cancellation reaching the
// call), how many a client keeps, and their ttl. No clock waits: a ttl of 0 is past at once.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_TASKS_PER_CLIENT, TaskBridge, type LegacyTask, type TaskOwner } from '../../../src-main/engine/gateway/task-bridge.ts';

const owner: TaskOwner = { profile: 'p', client: 'c' };
const noRelay = () => Promise.reject(new Error('no server in this test'));
const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

/** A call that ends when told to, and says whether it was cancelled. */
function controlled() {
  let finish!: (r: CallToolResult) => void;
  let signal: AbortSignal | undefined;
  const run = (s: AbortSignal) => {
    signal = s;
    return new Promise<CallToolResult>((resolve, reject) => {
      finish = resolve;
      s.addEventListener('abort', () => reject(s.reason));
    });
  };
  return { run, finish: (r: CallToolResult) => finish(r), started: () => signal !== undefined, aborted: () => signal?.aborted ?? false };
}

/** Lets a task's call start (it starts a tick after the task is made). */
const tick = () => new Promise((r) => setImmediate(r));

describe('TaskBridge', () => {
  it('runs a call as a task: working, then completed with its result, and tells the owner', async () => {
    const heard: LegacyTask[] = [];
    const bridge = new TaskBridge(noRelay, (_o, t) => void heard.push(t));
    const call = controlled();
    const task = bridge.runHere(owner, 's', undefined, call.run);
    expect((await bridge.get(owner, task.taskId)).status).toBe('working');
    call.finish(ok('done'));
    const result = await bridge.result(owner, task.taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
    expect((await bridge.get(owner, task.taskId)).status).toBe('completed');
    expect(heard.map((t) => t.status)).toEqual(['completed']);
    await expect(bridge.cancel(owner, task.taskId)).rejects.toThrow(/already ended/);
  });

  it('cancels the call of a cancelled task, and its result is an error', async () => {
    const bridge = new TaskBridge(noRelay);
    const call = controlled();
    const task = bridge.runHere(owner, 's', undefined, call.run);
    await tick();
    expect((await bridge.cancel(owner, task.taskId)).status).toBe('cancelled');
    expect(call.aborted()).toBe(true);
    await expect(bridge.result(owner, task.taskId)).rejects.toThrow(/cancelled/);
    expect((await bridge.get(owner, task.taskId)).status).toBe('cancelled');
    // Cancelled before its call started: the call never starts, and its result does not wait for it.
    const early = controlled();
    const soon = bridge.runHere(owner, 's', undefined, early.run);
    await bridge.cancel(owner, soon.taskId);
    await expect(bridge.result(owner, soon.taskId)).rejects.toThrow(/cancelled/);
    await tick();
    expect(early.started()).toBe(false);
  });

  it("keeps a task from any other client or profile, and says it does not know it", async () => {
    const bridge = new TaskBridge(noRelay);
    const task = bridge.runHere(owner, 's', undefined, async () => ok('x'));
    await expect(bridge.get({ profile: 'p', client: 'other' }, task.taskId)).rejects.toThrow(/no task/);
    await expect(bridge.get({ profile: 'q', client: 'c' }, task.taskId)).rejects.toThrow(/no task/);
    expect(await bridge.list({ profile: 'p', client: 'other' })).toEqual([]);
  });

  it(`keeps ${MAX_TASKS_PER_CLIENT} tasks per client: finished ones go first, then the oldest running`, async () => {
    const bridge = new TaskBridge(noRelay);
    const finished = bridge.runHere(owner, 's', undefined, async () => ok('early'));
    await bridge.result(owner, finished.taskId);
    const running = Array.from({ length: MAX_TASKS_PER_CLIENT }, () => controlled());
    const ids = running.map((c) => bridge.runHere(owner, 's', undefined, c.run).taskId);
    await tick();
    await expect(bridge.get(owner, finished.taskId)).rejects.toThrow(/no task/);
    expect((await bridge.list(owner)).length).toBe(MAX_TASKS_PER_CLIENT);
    const one = controlled();
    bridge.runHere(owner, 's', undefined, one.run);
    expect(running[0]!.aborted()).toBe(true);
    await expect(bridge.get(owner, ids[0]!)).rejects.toThrow(/no task/);
    expect((await bridge.get(owner, ids[1]!)).status).toBe('working');
  });

  it('drops a task past its ttl and stops its call', async () => {
    const bridge = new TaskBridge(noRelay);
    const call = controlled();
    const task = bridge.runHere(owner, 's', 0, call.run);
    await tick();
    await expect(bridge.get(owner, task.taskId)).rejects.toThrow(/no task/);
    expect(call.aborted()).toBe(true);
  });

  it("routes a server's task there under the gateway's id, and relays its status notifications only for tasks it knows", async () => {
    const asked: string[] = [];
    const heard: LegacyTask[] = [];
    const upstream = { taskId: 'server-1', status: 'working' as const, ttl: 1000, createdAt: new Date().toISOString(), lastUpdatedAt: new Date().toISOString() };
    const bridge = new TaskBridge(
      async (server, method, params) => {
        asked.push(`${server} ${method} ${(params as { taskId: string }).taskId}`);
        return method === 'tasks/result' ? ok('from server') : { ...upstream, status: 'completed' };
      },
      (_o, t) => void heard.push(t),
    );
    const task = bridge.adopt(owner, 'srv', upstream);
    expect(task.taskId).not.toBe('server-1');
    bridge.fromServer('srv', { ...upstream, taskId: 'unknown' });
    bridge.fromServer('other', { ...upstream, status: 'completed' });
    expect(heard).toEqual([]);
    bridge.fromServer('srv', { ...upstream, statusMessage: 'half way' });
    expect(heard).toMatchObject([{ taskId: task.taskId, status: 'working', statusMessage: 'half way' }]);
    expect(await bridge.get(owner, task.taskId)).toMatchObject({ taskId: task.taskId, status: 'completed' });
    expect((await bridge.result(owner, task.taskId)).content).toEqual([{ type: 'text', text: 'from server' }]);
    expect(await bridge.detailed(owner, task.taskId)).toMatchObject({ taskId: task.taskId, status: 'completed', ttlMs: 1000, result: { content: [{ type: 'text', text: 'from server' }] } });
    expect(asked).toEqual(['srv tasks/get server-1', 'srv tasks/result server-1', 'srv tasks/result server-1']);
  });
});
