import { describe, expect, it } from 'vitest';
import type { ControlRequest } from '../../src-shared/api.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';
import { createEngineRpc } from '../../src-main/electron/engine-rpc.ts';
import { FakeClock, FakeProcess } from './fake-electron.ts';

describe('engine rpc', () => {
  it('matches replies to calls by id, in any order', async () => {
    const rpc = createEngineRpc(new FakeClock());
    const p = new FakeProcess();
    rpc.attach(p);
    const a = rpc.call('servers.log', { name: 'a' });
    const b = rpc.call('servers.log', { name: 'b' });
    const [ra, rb] = p.sent as ControlRequest[];
    expect(ra).toEqual({ id: 1, method: 'servers.log', params: { name: 'a' } });
    p.reply({ id: rb!.id, result: { lines: ['b'] } });
    p.reply({ id: ra!.id, result: { lines: ['a'] } });
    expect(await a).toEqual({ lines: ['a'] });
    expect(await b).toEqual({ lines: ['b'] });
  });

  it('turns error replies into errors that keep their code and problems', async () => {
    const rpc = createEngineRpc(new FakeClock());
    const p = new FakeProcess();
    rpc.attach(p);
    const call = rpc.call('config.set', { path: 'x', value: 1 });
    const problems = [{ path: 'x', message: 'bad' }];
    p.reply({ id: 1, error: { code: 'invalid-config', message: 'Refused.', problems } });
    await expect(call).rejects.toMatchObject({ code: 'invalid-config', problems });
  });

  it('fails pending calls when the engine exits, instead of hanging', async () => {
    const rpc = createEngineRpc(new FakeClock());
    const p = new FakeProcess();
    rpc.attach(p);
    const call = rpc.call('status', {});
    p.crash();
    await expect(call).rejects.toMatchObject({ code: 'engine-unavailable' });
    await expect(rpc.call('status', {})).rejects.toBeInstanceOf(SwitchboardError);
  });

  it('times out a call the engine never answers, but not an exec run', async () => {
    const clock = new FakeClock();
    const rpc = createEngineRpc(clock, 1000);
    rpc.attach(new FakeProcess());
    const status = rpc.call('status', {});
    const exec = rpc.call('exec', { profile: 'p', code: '1' });
    let execSettled = false;
    exec.then(() => (execSettled = true), () => (execSettled = true));
    clock.advance(1000);
    await expect(status).rejects.toMatchObject({ code: 'timeout' });
    await Promise.resolve();
    expect(execSettled).toBe(false);
    rpc.dispose();
    await expect(exec).rejects.toMatchObject({ code: 'engine-unavailable' });
  });
});
