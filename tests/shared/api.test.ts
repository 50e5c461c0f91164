// The control API's method list is what every transport accepts (socket, /api/, IPC): a method
// added to ControlApi but not to CONTROL_METHODS would be refused everywhere as unknown.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CONTROL_METHODS, type UnlistedControlMethods } from '../../src-shared/api.ts';

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
});
