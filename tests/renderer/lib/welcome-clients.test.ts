import { describe, expect, it } from 'vitest';
import type { ClientInfo, StatusClient } from '../../../src-shared/api.ts';
import { demoProfile, liveLine, oneOfferPerFile, ownProfile, profileContents } from '../../../src-renderer/lib/welcome-clients.ts';

const info = (id: string, connected: string[] = []): ClientInfo => ({
  id,
  displayName: id === 'cursor' ? 'Cursor' : id,
  installed: true,
  configPath: `/x/${id}.json`,
  lookedAt: [],
  connected,
  profiles: [],
  canUndo: false,
});
const session = (over: Partial<StatusClient>): StatusClient => ({ id: 's1', name: 'x', profile: 'demo', transport: 'socket', since: '2026-01-01T00:00:00Z', ...over });

describe('ownProfile', () => {
  it("takes the person's my-tools, else a profile an app here uses that is not the demo; never the demo", () => {
    expect(ownProfile([info('cursor', ['demo'])], ['demo', 'my-tools'])).toBe('my-tools');
    expect(ownProfile([info('cursor'), info('zed', ['work'])], ['demo', 'work'])).toBe('work');
    expect(ownProfile([info('cursor', ['demo'])], ['demo', 'demo-code', 'b'])).toBeNull();
    expect(ownProfile([info('cursor', ['gone'])], ['b', 'demo'])).toBeNull();
    expect(ownProfile([info('cursor')], [])).toBeNull();
    expect(demoProfile(['demo-code', 'demo'])).toBe('demo');
    expect(demoProfile(['my-tools'])).toBeNull();
  });

  it('offers one import per file (Cursor and its CLI share one) and says what an empty profile holds', () => {
    const cli = { ...info('cursor-cli'), configPath: '/x/cursor.json' };
    expect(oneOfferPerFile([info('cursor'), cli, info('zed')]).map((c) => c.id)).toEqual(['cursor', 'zed']);
    expect(profileContents({ tools: 0, servers: [] })).toBe(' (no servers yet)');
    expect(profileContents({ tools: 1, servers: ['a'] })).toBe(' (1 tool from a)');
  });
});

describe('liveLine', () => {
  it('finds the app by the entry that started its session, and says how many tools it gets', () => {
    expect(liveLine(info('cursor'), [session({ name: 'cursor-vscode', connector: 'cursor', tools: 12 })])).toBe('Cursor is connected — 12 tools');
    expect(liveLine(info('cursor'), [session({ name: 'Cursor', tools: 1 })])).toBe('Cursor is connected — 1 tool');
  });

  it('finds the app by the client id status gives it, with no entry of its own (over the network)', () => {
    expect(liveLine(info('gemini-cli'), [session({ name: 'gemini-cli-mcp-client', clientId: 'gemini-cli', displayName: 'Gemini CLI', transport: 'http', tools: 4 })])).toBe('gemini-cli is connected — 4 tools');
  });

  it('says connected without a count until the count is known, and nothing for other apps', () => {
    expect(liveLine(info('cursor'), [session({ name: 'cursor-vscode', connector: 'cursor' })])).toBe('Cursor is connected');
    expect(liveLine(info('cursor'), [session({ name: 'claude-ai', connector: 'claude-desktop', tools: 3 })])).toBeNull();
  });
});
