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

  it('refuses a pattern of another glob dialect with a sentence, in approvals and in every filter', () => {
    const found = problems({
      approvals: { approve: ['!gh.list_*'], never: ['gh.@(a|b)'] },
      tools: { gh: { deny: ['!read_*'] } },
      resources: { gh: { allow: ['file:///docs/*', 'x'] } },
      clients: { cursor: { tools: { gh: { allow: ['+(x)'] } } } },
    });
    expect(found.map((p) => p.path)).toEqual([
      'profiles.p.tools.gh.deny.0',
      'profiles.p.approvals.approve.0',
      'profiles.p.approvals.never.0',
      'profiles.p.clients.cursor.tools.gh.allow.0',
    ]);
    expect(found[0]!.message).toMatch(/^"!read_\*" starts with "!", which does not mean "not" here .*: list what to keep in allow/);
    expect(found[2]!.message).toMatch(/uses "@\(…\)", which is not a pattern here/);
  });
});
