// Mistral Vibe's `[[mcp_servers]]` list: one block added, replaced or removed by its name field,
// every other line (comments, other items and their sub-tables, later tables) left as it was.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTomlArrayEntries, removeTomlArrayEntry, setTomlArrayEntry } from '../../../src-main/engine/clients/toml-entry-edit.ts';
import { FIXTURES, singleInsertion } from './helpers.ts';

const VIBE = readFileSync(path.join(FIXTURES, 'vibe-config.toml'), 'utf8');
const layout = { eol: '\n', indent: '  ' };
const entry = { transport: 'stdio', command: '/opt/sb/switchboard', args: ['shim', '--profile', 'demo'] };

describe('[[mcp_servers]] list editing', () => {
  it('reads the items by name, sub-tables included, the name left out', () => {
    expect(readTomlArrayEntries(VIBE, 'mcp_servers', 'name', 'config.toml')).toEqual({
      my_http_server: { transport: 'http', url: 'http://localhost:8000', headers: { Authorization: 'Bearer my_token' }, api_key_env: 'MY_API_KEY_ENV_VAR' },
      fetch_server: { transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: { DEBUG: '1' } },
    });
  });

  it('appends one block, replaces only that block on a second write, and removal gives back the bytes', () => {
    const added = setTomlArrayEntry(VIBE, 'mcp_servers', 'name', 'switchboard-demo', entry, layout, 'config.toml');
    expect(singleInsertion(VIBE, added)).toBe('\n[[mcp_servers]]\nname = "switchboard-demo"\ntransport = "stdio"\ncommand = "/opt/sb/switchboard"\nargs = [ "shim", "--profile", "demo" ]\n');
    expect(readTomlArrayEntries(added, 'mcp_servers', 'name', 'config.toml')!['switchboard-demo']).toEqual(entry);
    const updated = setTomlArrayEntry(added, 'mcp_servers', 'name', 'switchboard-demo', { ...entry, args: ['shim', '--profile', 'other'] }, layout, 'config.toml');
    expect(updated.match(/switchboard-demo/g)).toHaveLength(1);
    expect(updated.startsWith(VIBE)).toBe(true);
    expect(removeTomlArrayEntry(updated, 'mcp_servers', 'name', 'switchboard-demo', 'config.toml')).toBe(VIBE);
  });

  it('replaces an item in the middle without touching its neighbours or their sub-tables', () => {
    const ours = setTomlArrayEntry(VIBE.replace('name = "my_http_server"', 'name = "switchboard-demo"'), 'mcp_servers', 'name', 'switchboard-demo', entry, layout, 'config.toml');
    const items = readTomlArrayEntries(ours, 'mcp_servers', 'name', 'config.toml')!;
    expect(items['switchboard-demo']).toEqual(entry);
    expect(items['fetch_server']).toEqual({ transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: { DEBUG: '1' } });
    expect(ours).toContain('args = ["mcp-server-fetch"]   # web fetch');
    expect(ours).toContain('[tools.bash]\npermission = "ask"');
  });

  it('refuses a file where mcp_servers is not a list, and leaves it unchanged', () => {
    expect(() => setTomlArrayEntry('[mcp_servers.x]\ncommand = "a"\n', 'mcp_servers', 'name', 'switchboard-demo', entry, layout, 'config.toml')).toThrow(/not a \[\[mcp_servers\]\] list|other than a \[\[mcp_servers\]\] list/);
  });
});
