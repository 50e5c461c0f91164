// The profile editor's approvals fields (and the skills switch among the code-mode features):
// read from config, checked, and written back with unknown keys kept and nothing written when
// nothing is asked.
import { describe, expect, it } from 'vitest';
import { checkProfile, draftFromProfile, profileValue } from '../../../src-renderer/lib/profile-form.ts';

describe('profile form: approvals and skills', () => {
  it('reads the keys, and writes them back unchanged with unknown keys kept', () => {
    const base = { servers: ['gh'], surface: 'code', codeMode: { skills: true }, approvals: { destructive: true, approve: ['gh.delete_*', 'gh.merge'], timeoutSec: 30, mine: 1 } };
    const d = draftFromProfile('p', base);
    expect(d.approvals).toEqual({ destructive: true, writes: false, approve: 'gh.delete_*, gh.merge', never: '', timeoutSec: '30' });
    expect(d.codeMode.skills).toBe(true);
    expect(profileValue(d, base, {})).toEqual(base);
  });

  it('writes what the user set, and leaves the keys out when nothing is asked', () => {
    const d = draftFromProfile('p', { servers: ['gh'], surface: 'code' });
    expect(profileValue(d, {}, {})).not.toHaveProperty('approvals');
    expect(profileValue(d, {}, {})).not.toHaveProperty('codeMode');
    d.approvals.writes = true;
    d.approvals.never = ' gh.list_* ,, gh.get_me ';
    d.codeMode.skills = true;
    expect(profileValue(d, {}, {})).toMatchObject({ approvals: { writes: true, never: ['gh.list_*', 'gh.get_me'] }, codeMode: { skills: true } });
    // Default timeout: not written.
    expect(profileValue(d, {}, {}).approvals).not.toHaveProperty('timeoutSec');
    d.approvals.writes = false;
    const cleared = profileValue(d, { approvals: { writes: true } }, {});
    expect(cleared).not.toHaveProperty('approvals');
  });

  it('refuses an approval timeout that is not 1–3600 whole seconds', () => {
    const d = draftFromProfile('p', { servers: [], surface: 'code' });
    for (const bad of ['0', '1.5', 'soon', '4000']) {
      d.approvals.timeoutSec = bad;
      expect(checkProfile(d, [], null).approvalTimeout).toMatch(/whole seconds, from 1 to 3600/);
    }
    d.approvals.timeoutSec = '90';
    expect(checkProfile(d, [], null).approvalTimeout).toBeUndefined();
  });
});
