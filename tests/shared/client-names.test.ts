// The one mapping from raw clientInfo names to connector ids and the names people know
// (src-shared/client-names.ts), as records, filters and status use it.
import { describe, expect, it } from 'vitest';
import { CLIENT_NAMES, clientDisplayName, clientFilterKey, clientIdField, clientIdentity, clientKey } from '../../src-shared/client-names.ts';
import { auditDropSentence } from '../../src-shared/records.ts';

describe('client names', () => {
  it('names raw clientInfo names as people know the app', () => {
    expect(clientIdentity('gemini-cli-mcp-client')).toEqual({ id: 'gemini-cli', name: 'Gemini CLI' });
    expect(clientIdentity('codex-mcp-client')).toEqual({ id: 'codex', name: 'Codex CLI' });
    expect(clientIdentity('qwen-cli-mcp-client-switchboard-demo-code')).toEqual({ id: 'qwen-code', name: 'Qwen Code' });
    expect(clientIdentity('claude-ai')).toEqual({ id: 'claude-desktop', name: 'Claude Desktop' });
    expect(clientIdentity('cursor-vscode')).toEqual({ id: 'cursor', name: 'Cursor' });
    expect(clientIdentity('some-other-client')).toEqual({ name: 'some-other-client' });
    expect(clientIdentity('')).toEqual({ name: 'unknown' });
  });

  it('takes the connector of the entry first (it names the client exactly), then the clientInfo', () => {
    // VS Code over a remote server says "Visual Studio Code"; its entry says vscode-server.
    expect(clientIdentity('Visual Studio Code', 'vscode-server')).toEqual({ id: 'vscode-server', name: 'VS Code Server (remote)' });
    expect(clientIdentity('my-agent', 'cursor')).toEqual({ id: 'cursor', name: 'Cursor' });
    // A connector Switchboard does not know is not taken.
    expect(clientIdentity('gemini-cli-mcp-client', 'not-a-client')).toEqual({ id: 'gemini-cli', name: 'Gemini CLI' });
    expect(clientIdField('my-agent', 'cursor')).toEqual({ clientId: 'cursor' });
    expect(clientIdField('some-other-client')).toEqual({});
  });

  it('a record shows its clientId’s name, else what its raw name maps to, else the raw name', () => {
    expect(clientDisplayName('my-agent', 'windsurf')).toBe('Windsurf');
    expect(clientDisplayName('gemini-cli-mcp-client')).toBe('Gemini CLI');
    expect(clientDisplayName('some-other-client')).toBe('some-other-client');
  });

  it('filters line up with connect ids: an id, a shown name (any case) or a raw name give the same key as the records', () => {
    const key = clientKey('gemini-cli-mcp-client', 'gemini-cli');
    expect(key).toBe('gemini-cli');
    expect(clientKey('gemini-cli-mcp-client')).toBe(key);
    for (const f of ['gemini-cli', 'Gemini CLI', 'gemini cli', ' Gemini CLI ', 'gemini-cli-mcp-client']) expect(clientFilterKey(f), f).toBe(key);
    expect(clientFilterKey('some-other-client')).toBe(clientKey('some-other-client'));
    // Every connector's shown name finds its id.
    for (const [id, name] of Object.entries(CLIENT_NAMES)) expect(clientFilterKey(name), name).toBe(id);
  });

  it('says whose audit entries the size cap removed by the app’s name', () => {
    const d = { client: 'gemini-cli', count: 3, from: 'a', to: 'b' };
    expect(auditDropSentence(d, (s) => s)).toBe('Removed to keep the audit within its size limit: 3 calls of "Gemini CLI", made a to b.');
    expect(auditDropSentence({ ...d, client: 'flood' }, (s) => s)).toContain('of "flood"');
  });
});
