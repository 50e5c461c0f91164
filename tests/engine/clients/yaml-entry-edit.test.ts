// The YAML editor on its own: every edit is a splice of our entry's lines, and removing the entry
// gives back the exact text, whatever the file's line ends, final newline or list style.
import { describe, expect, it } from 'vitest';
import { readYamlEntries, removeYamlEntry, setYamlEntry, type YamlShape } from '../../../src-main/engine/clients/yaml-entry-edit.ts';
import { ClientFileError } from '../../../src-main/engine/clients/client-errors.ts';
import { singleInsertion } from './helpers.ts';

const list: YamlShape = { container: 'mcpServers', style: 'list', nameField: 'name', newFileHeader: 'name: Local Config\nversion: 1.0.0\nschema: v1\n' };
const map: YamlShape = { container: 'extensions', style: 'map', nameField: 'name' };
const entry = { type: 'stdio', command: '/opt/Switch Board/node', args: ['shim', '--home', '/tmp/sb home'] };
const lf = { eol: '\n', indent: '  ' };

const cases: [string, YamlShape, string][] = [
  ['list without a final newline', list, 'name: a\nmcpServers:\n- name: x\n  command: y'],
  ['list key with no value, before another key', list, 'name: a\nmcpServers:\nmodels: []\n'],
  ['list item whose map starts on the line after the dash', list, 'mcpServers:\n  -\n    name: a\n    command: b\n'],
  ['no container, no final newline', list, 'name: a\nversion: 1'],
  ['CRLF file without the container', list, 'name: a\r\nversion: 1\r\n'],
  ['map followed by a blank line and a comment', map, 'extensions:\n  developer:\n    enabled: true   # c\n\n# end\n'],
  ['map with four-space indentation', map, 'extensions:\n    dev:\n        enabled: true\nGOOSE_MODEL: x\n'],
];

describe('yaml entry edits', () => {
  it.each(cases)('%s: connect inserts one run, replace and disconnect give the bytes back', (_n, shape, text) => {
    const eol = text.includes('\r\n') ? { ...lf, eol: '\r\n' } : lf;
    const added = setYamlEntry(text, shape, 'switchboard-demo', entry, eol, 'f.yaml');
    expect(singleInsertion(text, added.text)).not.toBeNull();
    expect(readYamlEntries(added.text, shape, 'f.yaml')!['switchboard-demo']).toEqual(entry);
    expect(removeYamlEntry(added.text, shape, 'switchboard-demo', 'f.yaml', added.created)).toBe(text);
    const replaced = setYamlEntry(added.text, shape, 'switchboard-demo', { ...entry, args: ['other'] }, eol, 'f.yaml');
    expect(readYamlEntries(replaced.text, shape, 'f.yaml')!['switchboard-demo']).toEqual({ ...entry, args: ['other'] });
    expect(removeYamlEntry(replaced.text, shape, 'switchboard-demo', 'f.yaml', added.created)).toBe(text);
    if (eol.eol === '\r\n') expect(added.text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('a new Continue file starts with the name and version Continue requires, and disconnect empties it', () => {
    const added = setYamlEntry('', list, 'switchboard-demo', entry, lf, 'f.yaml');
    expect(added.created).toBe('empty-file');
    expect(added.text.startsWith('name: Local Config\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: switchboard-demo\n')).toBe(true);
    expect(removeYamlEntry(added.text, list, 'switchboard-demo', 'f.yaml', 'empty-file')).toBe('');
  });

  it('refuses flow-style containers and invalid YAML with a sentence, never guessing', () => {
    const refuse = (text: string) => {
      try {
        setYamlEntry(text, list, 'x', entry, lf, 'f.yaml');
      } catch (err) {
        expect(err).toBeInstanceOf(ClientFileError);
        return (err as ClientFileError).message;
      }
      throw new Error('no refusal');
    };
    expect(refuse('mcpServers: [{name: a}]\n')).toMatch(/flow style/);
    expect(refuse('mcpServers: a string\n')).toMatch(/not a YAML list/);
    expect(refuse('a: [\n')).toMatch(/not valid YAML \(/);
    expect(refuse('- just\n- a list\n')).toMatch(/mapping at the top/);
  });
});

describe('Goose rewriting its own file', () => {
  it('our entry still reads as ours after Goose re-serialises config.yaml (serde order, no comments)', async () => {
    const { CLIENT_SPECS } = await import('../../../src-main/engine/clients/client-specs.ts');
    const goose = CLIENT_SPECS.find((s) => s.id === 'goose')!;
    const entry = goose.entryFor({ command: '/opt/sb/switchboard', args: ['shim', '--profile', 'demo'] });
    // What serde_yaml writes for an ExtensionEntry { enabled, #[flatten] Stdio { … } }.
    const rewritten = [
      'extensions:',
      '  switchboard-demo:',
      '    enabled: true',
      '    type: stdio',
      '    name: switchboard-demo',
      '    description: Switchboard profile',
      '    cmd: /opt/sb/switchboard',
      '    args:',
      ...(entry.args as string[]).map((a) => `    - ${a}`),
      '    envs: {}',
      '    env_keys: []',
      '    timeout: 300',
      '    bundled: null',
      '    available_tools: []',
      '',
    ].join('\n');
    expect(readYamlEntries(rewritten, map, 'config.yaml')!['switchboard-demo']).toEqual(entry);
  });
});
