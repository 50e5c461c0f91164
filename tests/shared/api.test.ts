// The control API's method list is what every transport accepts (socket, /api/, IPC): a method
// added to ControlApi but not to CONTROL_METHODS would be refused everywhere as unknown, and one
// without a params schema (api-schema.ts) could not be called at all.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CONTROL_METHODS, type UnlistedControlMethods } from '../../src-shared/api.ts';
import { CONTROL_PARAMS, parseControlParams, parseSocketHello } from '../../src-shared/api-schema.ts';
import { SwitchboardError } from '../../src-shared/errors.ts';

function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SwitchboardError);
    expect((err as SwitchboardError).code).toBe('bad-request');
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('CONTROL_METHODS', () => {
  it('lists every method of the contract (checked by the typecheck step)', () => {
    // A method missing from the list makes this line a type error in `npm test`'s tsc step.
    const everyMethodListed: [UnlistedControlMethods] extends [never] ? true : UnlistedControlMethods = true;
    expect(everyMethodListed).toBe(true);
    expectTypeOf<UnlistedControlMethods>().toEqualTypeOf<never>();
  });

  it('lists each method once', () => {
    expect(new Set(CONTROL_METHODS).size).toBe(CONTROL_METHODS.length);
  });

  it('has a params schema for every method and none for a method it does not list', () => {
    expect(Object.keys(CONTROL_PARAMS).sort()).toEqual([...CONTROL_METHODS].sort());
  });
});

describe('parseControlParams', () => {
  it('passes valid params through, treats absent params as none and drops keys the method does not take', () => {
    expect(parseControlParams('config.set', { path: 'a.b', value: [1] })).toEqual({ path: 'a.b', value: [1] });
    expect(parseControlParams('status', undefined)).toEqual({});
    expect(parseControlParams('runs.get', { id: 'r1', extra: true })).toEqual({ id: 'r1' });
    expect(parseControlParams('runs.list', { outcome: 'timeout', limit: 5 })).toEqual({ outcome: 'timeout', limit: 5 });
  });

  it('refuses a missing field with bad-request naming it', () => {
    expect(badRequest(() => parseControlParams('servers.restart', {}))).toBe('Bad parameters for servers.restart: "name" is missing.');
  });

  it('refuses a field of the wrong type, naming it and what was expected', () => {
    const msg = badRequest(() => parseControlParams('servers.log', { name: 'x', lines: 'ten' }));
    expect(msg).toMatch(/^Bad parameters for servers\.log: "lines" is wrong \(.*expected number.*\)\.$/);
    expect(badRequest(() => parseControlParams('audit.list', { outcome: 'maybe' }))).toMatch(/"outcome" is wrong/);
    expect(badRequest(() => parseControlParams('runs.list', { limit: -1 }))).toMatch(/"limit" is wrong/);
  });

  it('refuses params that are not an object', () => {
    expect(badRequest(() => parseControlParams('exec', ['code']))).toMatch(/^Bad parameters for exec: the parameters must be an object of named values/);
    expect(badRequest(() => parseControlParams('exec', 'code'))).toMatch(/the parameters must be an object/);
  });

  it('refuses a method that is not in the contract', () => {
    expect(badRequest(() => parseControlParams('engine.format' as never, {}))).toBe('Unknown API method "engine.format".');
  });
});

describe('parseSocketHello', () => {
  it('takes the hellos the shim and the CLI send, with the resume the shim sends after an engine restart', () => {
    expect(parseSocketHello({ kind: 'control', v: 1 })).toEqual({ kind: 'control', v: 1 });
    expect(parseSocketHello({ kind: 'mcp', profile: 'p', v: 1 })).toEqual({ kind: 'mcp', profile: 'p', v: 1 });
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    expect(parseSocketHello({ kind: 'mcp', profile: 'p', v: 1, resume: { initialize: init } })).toEqual({ kind: 'mcp', profile: 'p', v: 1, resume: { initialize: init } });
  });

  it('takes the client id a connector\'s entry gave the shim, and drops one that is no client id', () => {
    expect(parseSocketHello({ kind: 'mcp', profile: 'p', v: 1, client: 'claude-desktop' })).toEqual({ kind: 'mcp', profile: 'p', v: 1, client: 'claude-desktop' });
    for (const client of ['', 'Cursor', '../x', 'a'.repeat(41), 7, { id: 'cursor' }]) {
      expect(parseSocketHello({ kind: 'mcp', profile: 'p', v: 1, client })).toEqual({ kind: 'mcp', profile: 'p', v: 1 });
    }
  });

  it('refuses anything else without throwing', () => {
    for (const v of [null, 3, 'mcp', [], {}, { kind: 'mcp', v: 1 }, { kind: 'mcp', profile: 7, v: 1 }, { kind: 'control', v: 2 }, { kind: 'other', v: 1 }]) {
      expect(parseSocketHello(v)).toBeUndefined();
    }
  });
});
