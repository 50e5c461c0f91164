// The gateway's task store on its own: tasks it runs (status, result, cancellation reaching the
// call), how many a client keeps, and their ttl. No clock waits: a ttl of 0 is past at once.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_TASKS_PER_CLIENT, MAX_TASKS_PER_PROFILE, TaskBridge, type Rev20251125Task, type TaskOwner } from '../../../src-main/engine/gateway/task-bridge.ts';

/** A 2025 client's session: its tasks are the session's, whatever name it gave. */
const owner: TaskOwner = { profile: 'p', client: 'c', session: 's1' };
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
    const heard: Rev20251125Task[] = [];
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

  it("keeps a task from any other session or profile, and says it does not know it", async () => {
    const bridge = new TaskBridge(noRelay);
    const task = bridge.runHere(owner, 's', undefined, async () => ok('x'));
    await expect(bridge.get({ profile: 'p', client: 'c', session: 's2' }, task.taskId)).rejects.toThrow(/no task/);
    await expect(bridge.get({ profile: 'q', client: 'c', session: 's1' }, task.taskId)).rejects.toThrow(/no task/);
    expect(await bridge.list({ profile: 'p', client: 'other', session: 's2' })).toEqual([]);
  });

  it("never hands a task to whoever claims its client's name: another session or a sessionless request with the same name and the id gets nothing", async () => {
    const bridge = new TaskBridge(noRelay);
    const task = bridge.runHere(owner, 's', undefined, async () => ok('secret'));
    await bridge.result(owner, task.taskId);
    for (const claimant of [{ profile: 'p', client: 'c', session: 's2' }, { profile: 'p', client: 'c' }]) {
      await expect(bridge.get(claimant, task.taskId)).rejects.toThrow(/no task/);
      await expect(bridge.result(claimant, task.taskId)).rejects.toThrow(/no task/);
      await expect(bridge.detailed(claimant, task.taskId)).rejects.toThrow(/no task/);
      expect(bridge.has(claimant, task.taskId)).toBe(false);
      expect(await bridge.list(claimant)).toEqual([]);
    }
  });

  it('reaches a sessionless task by its id under its client\'s name on its profile (another name with the id gets nothing), and drops a session\'s tasks when it ends', async () => {
    const bridge = new TaskBridge(noRelay);
    const t = bridge.runHere({ profile: 'p', client: 'a' }, 's', undefined, async () => ok('mine'));
    expect((await bridge.detailed({ profile: 'p', client: 'a' }, t.taskId)).status).toMatch(/working|completed/);
    await expect(bridge.detailed({ profile: 'p', client: 'renamed' }, t.taskId)).rejects.toThrow(/no task/);
    await expect(bridge.cancel({ profile: 'p', client: 'renamed' }, t.taskId)).rejects.toThrow(/no task/);
    expect(bridge.has({ profile: 'p', client: 'renamed' }, t.taskId)).toBe(false);
    await expect(bridge.get({ profile: 'q', client: 'a' }, t.taskId)).rejects.toThrow(/no task/);
    await expect(bridge.get({ profile: 'p', client: 'a', session: 's1' }, t.taskId)).rejects.toThrow(/no task/);
    const call = controlled();
    const running = bridge.runHere(owner, 's', undefined, call.run);
    await tick();
    bridge.forgetSession('s1');
    expect(call.aborted()).toBe(true);
    await expect(bridge.get(owner, running.taskId)).rejects.toThrow(/no task/);
  });

  it(`keeps ${MAX_TASKS_PER_CLIENT} sessionless tasks per profile however the requests name themselves`, async () => {
    const bridge = new TaskBridge(noRelay);
    const calls = Array.from({ length: MAX_TASKS_PER_CLIENT * 2 }, () => controlled());
    const ids = calls.map((c, i) => bridge.runHere({ profile: 'p', client: `rotating-${i}` }, 's', undefined, c.run).taskId);
    await tick();
    const kept = (await Promise.all(ids.map((id, i) => bridge.get({ profile: 'p', client: `rotating-${i}` }, id).then(() => 1, () => 0)))).reduce((a: number, b) => a + b, 0);
    expect(kept).toBe(MAX_TASKS_PER_CLIENT);
    // The ones pushed out never ran.
    expect(calls.filter((c) => c.started() && !c.aborted()).length).toBe(MAX_TASKS_PER_CLIENT);
  });

  it(`keeps at most ${MAX_TASKS_PER_PROFILE} tasks per profile: past it a new one is refused with a sentence, and never started`, async () => {
    const bridge = new TaskBridge(noRelay);
    const sessions = MAX_TASKS_PER_PROFILE / MAX_TASKS_PER_CLIENT;
    for (let s = 0; s < sessions; s++) {
      for (let i = 0; i < MAX_TASKS_PER_CLIENT; i++) bridge.runHere({ profile: 'p', client: 'same', session: `s${s}` }, 's', undefined, controlled().run);
    }
    const late = controlled();
    expect(() => bridge.runHere({ profile: 'p', client: 'same', session: 'late' }, 's', undefined, late.run)).toThrow(
      `Profile "p" already holds ${MAX_TASKS_PER_PROFILE} tasks, the most it keeps: wait for some to end (or cancel them), then try again.`,
    );
    await tick();
    expect(late.started()).toBe(false);
    // Another profile is not affected, and a session that ends makes room.
    expect(bridge.runHere({ profile: 'q', client: 'same', session: 'x' }, 's', undefined, controlled().run).status).toBe('working');
    bridge.forgetSession('s0');
    expect(bridge.runHere({ profile: 'p', client: 'same', session: 'late' }, 's', undefined, controlled().run).status).toBe('working');
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
    const heard: Rev20251125Task[] = [];
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
