import { describe, expect, it } from 'vitest';
import type { ClientInfo, StatusClient } from '../../../src-shared/api.ts';
import { defaultProfile, liveLine } from '../../../src-renderer/lib/welcome-clients.ts';

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

describe('defaultProfile', () => {
  it('takes the profile an app here already uses, then demo, then the first', () => {
    expect(defaultProfile([info('cursor'), info('zed', ['work'])], ['demo', 'work'])).toBe('work');
    expect(defaultProfile([info('cursor', ['gone'])], ['b', 'demo'])).toBe('demo');
    expect(defaultProfile([], ['b', 'c'])).toBe('b');
    expect(defaultProfile([info('cursor')], [])).toBeNull();
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
