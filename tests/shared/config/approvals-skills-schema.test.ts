// The profile keys of issue 14's approvals and skills, validated like the rest of config.json.
import { describe, expect, it } from 'vitest';
import { validateConfigText } from '../../../src-shared/config/validate.ts';

function problems(profile: unknown) {
  const r = validateConfigText(JSON.stringify({ servers: { gh: { command: 'x' } }, profiles: { p: { servers: ['gh'], surface: 'code', ...(profile as object) } } }));
  return r.ok ? [] : r.problems;
}

describe('profile approvals and skills keys', () => {
  it('accepts a full approvals block and codeMode.skills', () => {
    expect(problems({ approvals: { destructive: true, writes: false, approve: ['gh.delete_*'], never: ['gh.list_*'], timeoutSec: 120 }, codeMode: { skills: true } })).toEqual([]);
  });

  it('reports each wrong value with its path', () => {
    expect(problems({ approvals: { destructive: 'yes', approve: 'gh.delete_*', timeoutSec: 0 }, codeMode: { skills: 1 } })).toEqual(
      expect.arrayContaining([
        { path: 'profiles.p.approvals.destructive', message: 'expected true or false' },
        { path: 'profiles.p.approvals.approve', message: 'expected an array of glob patterns such as "github.delete_*"' },
        { path: 'profiles.p.approvals.timeoutSec', message: 'expected a positive integer' },
        { path: 'profiles.p.codeMode.skills', message: 'expected true or false' },
      ]),
    );
  });
});
