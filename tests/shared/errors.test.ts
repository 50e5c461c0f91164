import { describe, expect, it } from 'vitest';
import { httpStatusFor, SwitchboardError, toErrorData, type ErrorCode } from '../../src-shared/errors.ts';

describe('httpStatusFor', () => {
  it('answers the caller\'s mistakes with 4xx and failures on our side with 5xx', () => {
    const cases: [ErrorCode, number][] = [
      ['bad-request', 400],
      ['bad-path', 400],
      ['invalid-config', 400],
      ['denied', 403],
      ['not-found', 404],
      ['unknown-profile', 404],
      ['unknown-server', 404],
      ['unknown-tool', 404],
      ['upstream-error', 502],
      ['server-unavailable', 503],
      ['engine-unavailable', 503],
      ['timeout', 504],
      ['internal', 500],
      ['io-error', 500],
    ];
    for (const [code, status] of cases) expect([code, httpStatusFor(code)]).toEqual([code, status]);
  });

  it('answers a code this build does not know, or a name that only looks like one, with 500', () => {
    expect(httpStatusFor('unknown-widget')).toBe(500);
    expect(httpStatusFor('toString')).toBe(500);
  });
});

describe('toErrorData', () => {
  it('keeps code and message of a SwitchboardError, and makes anything else internal', () => {
    expect(toErrorData(new SwitchboardError('denied', 'no'))).toEqual({ code: 'denied', message: 'no' });
    expect(toErrorData(new Error('boom'))).toEqual({ code: 'internal', message: 'boom' });
  });
});
