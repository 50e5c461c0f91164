import { describe, expect, it } from 'vitest';
import { CLIENT_LIMITS, clientSurfaceLine, limitedClientFor, nameBudget, surfaceWarnings } from '../../src-shared/client-limits.ts';

describe('limitedClientFor', () => {
  it('recognises clients from their clientInfo names, Cursor before VS Code', () => {
    expect(limitedClientFor('cursor-vscode')).toBe('cursor');
    expect(limitedClientFor('Visual Studio Code')).toBe('vscode');
    expect(limitedClientFor('Visual Studio Code - Insiders')).toBe('vscode-insiders');
    expect(limitedClientFor('windsurf-client')).toBe('windsurf');
    expect(limitedClientFor('claude-code')).toBe('claude-code');
    expect(limitedClientFor('claude-ai')).toBe('claude-desktop');
    expect(limitedClientFor('gemini-cli-mcp-client')).toBe('gemini-cli');
    expect(limitedClientFor('codex-mcp-client')).toBe('codex');
    expect(limitedClientFor('qwen-cli-mcp-client-switchboard-demo-code')).toBe('qwen-code');
    expect(limitedClientFor('Zed')).toBeUndefined();
    expect(limitedClientFor('')).toBeUndefined();
  });
});

describe('Kilo CLI and Kimi Code (missing from the limits, a 66-character name reached the model)', () => {
  it('are recognised from their clientInfo names', () => {
    expect(limitedClientFor('kilo')).toBe('kilo-cli');
    expect(limitedClientFor('Kilo Code')).toBeUndefined();
    expect(limitedClientFor('kimi-code')).toBe('kimi-code');
  });

  it('take 64 characters with their own prefix', () => {
    const tool = `files__${'c'.repeat(45)}`;
    expect(surfaceWarnings(CLIENT_LIMITS['kilo-cli'], 'demo', [tool])[0]).toMatch(/Kilo CLI takes tool names of at most 64 characters/);
    expect(nameBudget(CLIENT_LIMITS['kimi-code'], 'demo')).toBe(64 - 'mcp__switchboard-demo__'.length);
  });
});

describe('surfaceWarnings', () => {
  const tools = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('is empty while the tools fit', () => {
    expect(surfaceWarnings(CLIENT_LIMITS.windsurf, 'p', tools(50))).toEqual([]);
    expect(surfaceWarnings(CLIENT_LIMITS.vscode, 'p', tools(128))).toEqual([]);
  });

  it('warns one past the count, with the setting that fixes it', () => {
    expect(surfaceWarnings(CLIENT_LIMITS.windsurf, 'p', tools(51))).toEqual([
      'Windsurf uses at most 50 tools; profile "p" gives it 51, so some are left out: set profiles.p.clients.windsurf.surface to "code" or pick a subset in profiles.p.clients.windsurf.tools.',
    ]);
  });

  it("counts a name with the client's own prefix: VS Code's mcp_<entry>_ makes 64 the edge", () => {
    // "mcp_switchboard-p_" is 18 characters: a 46-character tool name fits, 47 does not.
    const fits = 'x'.repeat(46);
    const over = 'y'.repeat(47);
    expect(surfaceWarnings(CLIENT_LIMITS.vscode, 'p', [fits])).toEqual([]);
    const [w] = surfaceWarnings(CLIENT_LIMITS.vscode, 'p', [fits, over, `${over}2`, `${over}3`]);
    expect(w).toBe(
      `VS Code takes tool names of at most 64 characters with its prefix; 3 of profile "p" are longer ("${over}", "${over}2" and 1 more): set profiles.p.clients.vscode.surface to "code" or pick a subset in profiles.p.clients.vscode.tools.`,
    );
  });
});

describe('clientSurfaceLine', () => {
  const cursor = { client: 'cursor' as const, maxTools: 40, maxNameChars: 60 };
  it('says which client it is, how that was known, and what it gets', () => {
    expect(clientSurfaceLine({ limits: { ...cursor, from: 'connector' }, connector: 'cursor', surface: 'tools', tools: 12, subset: true })).toBe(
      'Cursor (known from its connector; takes 40 tools, names up to 60 characters) gets 12 tools, a picked subset',
    );
    expect(clientSurfaceLine({ limits: { ...cursor, from: 'clientInfo' }, surface: 'code', tools: 3 })).toBe(
      'Cursor (known from its clientInfo; takes 40 tools, names up to 60 characters) gets code mode',
    );
    expect(clientSurfaceLine({ connector: 'claude-desktop', surface: 'tools', tools: 1 })).toBe('connected with "claude-desktop" (no known limits) gets 1 tool');
    expect(clientSurfaceLine({})).toBe('no known limits');
  });
});
