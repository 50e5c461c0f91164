// The profile editor's data: what it reads from config, what it refuses, and what it writes back.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS } from '../../../src-shared/config/schema.ts';
import {
  checkProfile, draftFromProfile, effectiveBudgets, profileFieldFor, profilePointer, profileValue,
} from '../../../src-renderer/lib/profile-form.ts';

describe('profile form', () => {
  it('reads a profile, filling unset budgets with the defaults, the time limit in seconds', () => {
    const d = draftFromProfile('work', { servers: ['a', 7, 'b'], surface: 'code', budgets: { timeoutMs: 5000 } });
    expect(d.servers).toEqual(['a', 'b']);
    expect(d.budgets.timeoutMs).toBe('5');
    expect(d.budgets.maxToolCalls).toBe(String(DEFAULT_BUDGETS.maxToolCalls));
    expect(draftFromProfile('x', {}).surface).toBe('tools');
  });

  it('refuses empty, malformed and taken names, and bad budgets on the code surface only', () => {
    const d = draftFromProfile('', { surface: 'code' });
    expect(checkProfile(d, [], null).name).toMatch(/Give the profile a name/);
    expect(checkProfile({ ...d, name: 'a b' }, [], null).name).toMatch(/letters, digits/);
    expect(checkProfile({ ...d, name: 'work' }, ['work'], null).name).toMatch(/already a profile named “work”/);
    expect(checkProfile({ ...d, name: 'work' }, ['work'], 'work').name).toBeUndefined();
    const bad = { ...d, name: 'ok', budgets: { ...d.budgets, timeoutMs: 'soon' } };
    expect(checkProfile(bad, [], null).timeoutMs).toMatch(/number of seconds/);
    expect(checkProfile({ ...bad, surface: 'tools' }, [], null).timeoutMs).toBeUndefined();
    expect(effectiveBudgets(bad).timeoutMs).toBe(DEFAULT_BUDGETS.timeoutMs);
  });

  it('writes back the changes and keeps keys it does not know', () => {
    const base = { servers: ['a'], surface: 'code', namespace: false, custom: { keep: 1 }, tools: { gone: { deny: ['*'] } } };
    const d = draftFromProfile('p', base);
    d.servers = ['a', 'b'];
    // Typed in seconds, written in milliseconds.
    d.budgets.timeoutMs = '9';
    d.checked = { a: ['read', 'list*'], b: ['x', 'y'] };
    const v = profileValue(d, base, { a: ['read', 'write', 'list*'], b: ['x', 'y'] });
    expect(v).toEqual({
      servers: ['a', 'b'], surface: 'code', namespace: false, custom: { keep: 1 },
      budgets: { timeoutMs: 9000 },
      // Every tool of b is checked: no filter. Only a's checked tools, as literal globs.
      tools: { a: { allow: ['read', 'list\\*'] } },
    });
  });

  it('reads and writes the code-mode switches: only those off their default or already set, unknown keys kept', () => {
    const d = draftFromProfile('p', { servers: [], surface: 'code' });
    expect(d.codeMode).toEqual({ ledger: true, results: false, learnedTypes: false, nameIndex: true, skills: false });
    expect(profileValue(d, {}, {}).codeMode).toBeUndefined();
    d.codeMode.results = true;
    d.codeMode.nameIndex = false;
    expect(profileValue(d, {}, {}).codeMode).toEqual({ results: true, nameIndex: false });
    const base = { servers: [], surface: 'code', codeMode: { ledger: true, future: 'x' } };
    const kept = draftFromProfile('p', base);
    expect(profileValue(kept, base, {}).codeMode).toEqual({ ledger: true, future: 'x' });
    kept.codeMode.ledger = false;
    expect(profileValue(kept, base, {}).codeMode).toEqual({ ledger: false, future: 'x' });
    expect(draftFromProfile('p', { codeMode: 'junk' }).codeMode.ledger).toBe(true);
  });

  it("keeps each client's entry, and drops from a client's subset the servers the profile no longer has", () => {
    const base = {
      servers: ['a', 'b'],
      clients: { cursor: { surface: 'code' }, vscode: { tools: { a: { allow: ['x'] }, b: { deny: ['y'] } }, future: 1 } },
    };
    const d = draftFromProfile('p', base);
    d.servers = ['a'];
    expect(profileValue(d, base, {}).clients).toEqual({ cursor: { surface: 'code' }, vscode: { tools: { a: { allow: ['x'] } }, future: 1 } });
    expect(profileValue(d, { servers: ['a'] }, {}).clients).toBeUndefined();
  });

  it('points at profiles whose names hold / or ~ and places engine problems by field', () => {
    expect(profilePointer('a/b~c')).toBe('/profiles/a~1b~0c');
    expect(profileFieldFor('profiles.p.budgets.timeoutMs', 'p')).toBe('timeoutMs');
    expect(profileFieldFor('profiles.p.servers.0', 'p')).toBe('servers');
    expect(profileFieldFor('profiles.p', 'p')).toBe('name');
    expect(profileFieldFor('profiles.p.tools.a', 'p')).toBe('form');
  });
});
