// The rounds of a 2026-07-28 call that answers `input_required`: each question answered for that
// call, the retry carrying the answers and the echoed state, and the bounds (rounds, methods).
// A real 2026-07-28 server answers the same way in tests/engine/upstream/eras.test.ts and
// tests/engine/gateway/server-requests.test.ts; these are the edges a well-behaved one never shows.
import { describe, expect, it } from 'vitest';
import { answerInputRounds, MAX_INPUT_ROUNDS } from '../../../src-main/engine/upstream/input-rounds.ts';

const never = new AbortController().signal;
const asking = (requestState?: string, inputRequests: Record<string, unknown> = { q: { method: 'elicitation/create', params: { message: 'name?' } } }) => ({
  resultType: 'input_required',
  inputRequests,
  ...(requestState !== undefined ? { requestState } : {}),
});

describe('answerInputRounds', () => {
  it('answers each round and retries with the answers and the state, until a result', async () => {
    const retries: unknown[] = [];
    const asked: string[] = [];
    const result = await answerInputRounds(asking('s1'), { name: 'ask' }, {
      what: 'v.ask',
      signal: never,
      answer: async (ask) => (asked.push(ask.method), { action: 'accept', content: { name: 'Ada' } }),
      retry: async (params) => (retries.push(params), retries.length === 1 ? asking('s2') : { content: [{ type: 'text', text: 'hello Ada' }] }),
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'hello Ada' }] });
    expect(asked).toEqual(['elicitation/create', 'elicitation/create']);
    expect(retries).toEqual([
      { name: 'ask', inputResponses: { q: { action: 'accept', content: { name: 'Ada' } } }, requestState: 's1' },
      { name: 'ask', inputResponses: { q: { action: 'accept', content: { name: 'Ada' } } }, requestState: 's2' },
    ]);
  });

  it(`gives a call up after ${MAX_INPUT_ROUNDS} rounds`, async () => {
    let rounds = 0;
    const run = answerInputRounds(asking(), undefined, { what: 'v.loop', signal: never, answer: async () => ({ action: 'decline' }), retry: async () => (rounds++, asking()) });
    await expect(run).rejects.toThrow(`v.loop still asked for input after ${MAX_INPUT_ROUNDS} rounds and was given up`);
    expect(rounds).toBe(MAX_INPUT_ROUNDS);
  });

  it('refuses a question that is not elicitation, sampling or roots, asking nobody', async () => {
    let answered = 0;
    const run = answerInputRounds(asking(undefined, { x: { method: 'tools/call', params: {} } }), undefined, {
      what: 'v.odd',
      signal: never,
      answer: async () => (answered++, {}),
      retry: async () => ({}),
    });
    await expect(run).rejects.toThrow('v.odd asked for input Switchboard cannot give (tools/call)');
    expect(answered).toBe(0);
  });
});
