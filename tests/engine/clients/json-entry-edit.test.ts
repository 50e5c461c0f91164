// Entries written into an object that starts on a line with a key before it (`  "mcpServers": {}`)
// sit one level inside that line, as the file's own entries would: not one level in from the margin.
import { describe, expect, it } from 'vitest';
import { setEntry } from '../../../src-main/engine/clients/json-entry-edit.ts';

describe('setEntry', () => {
  it('indents an entry in an empty object by the line the object starts on', () => {
    const text = '{\n   "mcpServers": {},\n   "x": 1\n}\n';
    const out = setEntry(text, ['mcpServers'], 'switchboard-my-tools', { command: 'sb' }, { eol: '\n', indent: '   ' }, 'mcp.json').text;
    expect(out).toBe('{\n   "mcpServers": {\n      "switchboard-my-tools": {\n         "command": "sb"\n      }\n   },\n   "x": 1\n}\n');
  });

  it('keeps comments in an object that holds only comments, the entry at the same depth', () => {
    const text = '{\n\t"mcpServers": { // mine\n\t},\n}\n';
    const out = setEntry(text, ['mcpServers'], 'a', 1, { eol: '\n', indent: '\t' }, 'mcp.json').text;
    expect(out).toBe('{\n\t"mcpServers": {\n\t\t"a": 1 // mine\n\t},\n}\n');
  });
});
