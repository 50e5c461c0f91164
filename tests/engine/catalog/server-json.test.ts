// Registry versions compare as semver says (issue 29, finding 10), and other shapes still compare.
import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../../src-main/engine/catalog/server-json.ts';

describe('compareVersions', () => {
  it('orders semver pre-releases as semver does: alpha < alpha.1 < alpha.beta < beta < beta.2 < beta.11 < rc.1 < release', () => {
    const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    for (let i = 0; i < order.length - 1; i++) {
      expect(compareVersions(order[i]!, order[i + 1]!), `${order[i]} < ${order[i + 1]}`).toBe(-1);
      expect(compareVersions(order[i + 1]!, order[i]!), `${order[i + 1]} > ${order[i]}`).toBe(1);
    }
  });

  it('ignores build metadata: 1.0.0+a is 1.0.0+b is 1.0.0, and 1.0.1+old is still newer', () => {
    expect(compareVersions('1.0.0+a', '1.0.0+b')).toBe(0);
    expect(compareVersions('1.0.0+build.9', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.1+old', '1.0.0+new')).toBe(1);
  });

  it('compares versions that are not semver part by part, numbers as numbers', () => {
    expect(compareVersions('2024.10', '2024.9')).toBe(1);
    expect(compareVersions('1.2.3.10', '1.2.3.9')).toBe(1);
    expect(compareVersions('1.2', '1.2')).toBe(0);
    expect(compareVersions('1.2-beta', '1.2')).toBe(-1);
    expect(compareVersions('2024.05+x', '2024.05+y')).toBe(0);
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
  });
});
