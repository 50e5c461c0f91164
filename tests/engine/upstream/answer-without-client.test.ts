// One answer, wherever it is given (the gateway with no fitting client, or an upstream with no
// gateway), for a request an upstream makes of a client that is not there.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { answerWithoutClient } from '../../../src-main/engine/upstream/answer-without-client.ts';

describe('answerWithoutClient', () => {
  it('answers as a client without the feature would: no roots, a declined elicitation, a ping', () => {
    expect(answerWithoutClient('roots/list')).toEqual({ roots: [] });
    expect(answerWithoutClient('elicitation/create')).toEqual({ action: 'decline' });
    expect(answerWithoutClient('ping')).toEqual({});
  });

  it('refuses sampling with a JSON-RPC error naming the method and what to do', () => {
    let err: unknown;
    try {
      answerWithoutClient('sampling/createMessage');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.MethodNotFound);
    expect((err as Error).message).toMatch(/No connected client can answer sampling\/createMessage: connect a client that supports it/);
  });
});
