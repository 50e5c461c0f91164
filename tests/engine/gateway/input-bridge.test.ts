// The input bridge on its own: rounds, answers, a forged or foreign requestState, expiry.
import { describe, expect, it } from 'vitest';
import { InputBridge } from '../../../src-main/engine/gateway/input-bridge.ts';

const never = new AbortController().signal;

describe('InputBridge', () => {
  it('asks, takes the answer on the retry, and returns the result', async () => {
    const b = new InputBridge();
    const first = await b.start('p', 'c', async (origin) => `got ${JSON.stringify(await b.ask(origin, 'elicitation/create', { message: 'name?' }))}`, never);
    expect(first.result).toBeUndefined();
    expect(first.inputRequests).toEqual({ input_1: { method: 'elicitation/create', params: { message: 'name?' } } });
    const second = await b.resume<string>(first.requestState!, 'p', 'c', { input_1: { action: 'accept', content: { n: 1 } } }, never);
    expect(second.result).toBe('got {"action":"accept","content":{"n":1}}');
    // The state is spent with the call.
    expect(() => b.resume(first.requestState!, 'p', 'c', {}, never)).toThrow(/unknown or has expired/);
  });

  it('refuses a state from another profile or client', async () => {
    const b = new InputBridge();
    const first = await b.start('p', 'c', async (origin) => b.ask(origin, 'roots/list', {}), never);
    expect(() => b.resume(first.requestState!, 'other', 'c', {}, never)).toThrow(/unknown/);
    expect(() => b.resume(first.requestState!, 'p', 'someone-else', {}, never)).toThrow(/unknown/);
  });

  it('cancels the call when the client never comes back', async () => {
    const b = new InputBridge(50);
    let aborted: unknown;
    let askFailed: unknown;
    const first = await b.start(
      'p',
      'c',
      async (origin, signal) => {
        signal.addEventListener('abort', () => (aborted = signal.reason));
        await b.ask(origin, 'elicitation/create', {}).catch((e: unknown) => (askFailed = e));
        return 'late';
      },
      never,
    );
    expect(first.inputRequests).toBeDefined();
    await new Promise((r) => setTimeout(r, 150));
    expect(String(askFailed)).toContain('did not answer in time');
    expect(String(aborted)).toContain('did not answer');
    expect(b.owns(`input:${first.requestState}`)).toBe(false);
  });
});
