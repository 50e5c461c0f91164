import { describe, expect, it } from 'vitest';
import { CLIENT_LIMITS } from '../../../src-shared/client-limits.ts';
import { clientSubsetValue, tooLongFor } from '../../../src-renderer/lib/client-subset.ts';

describe('clientSubsetValue', () => {
  it('allows exactly the picked names per server, none for a server with nothing picked', () => {
    expect(clientSubsetValue(['github', 'fs'], { github: ['list_issues', 'create_issue'] })).toEqual({
      github: { allow: ['create_issue', 'list_issues'] },
      fs: { allow: [] },
    });
  });

  it('writes names with glob characters so that they match only themselves', () => {
    expect(clientSubsetValue(['x'], { x: ['a*b', 'c?d'] })).toEqual({ x: { allow: ['a\\*b', 'c\\?d'] } });
  });

  it('drops picks of servers that are not the profile\'s', () => {
    expect(clientSubsetValue(['a'], { a: ['t'], gone: ['u'] })).toEqual({ a: { allow: ['t'] } });
  });
});

describe('tooLongFor', () => {
  it('counts the name as the client composes it with its prefix', () => {
    // "switchboard-big_" is 16 characters: Cursor takes 44 more.
    expect(tooLongFor(CLIENT_LIMITS.cursor, 'big', 'x'.repeat(44))).toBe(false);
    expect(tooLongFor(CLIENT_LIMITS.cursor, 'big', 'x'.repeat(45))).toBe(true);
    // VS Code adds "mcp_" too.
    expect(tooLongFor(CLIENT_LIMITS.vscode, 'big', 'x'.repeat(44))).toBe(false);
    expect(tooLongFor(CLIENT_LIMITS.vscode, 'big', 'x'.repeat(45))).toBe(true);
  });
});
