// config.json validation: every problem at once, with the path users type.
import { describe, expect, it } from 'vitest';
import { validateConfigText } from '../../../src-shared/config/validate.ts';

function problems(value: unknown) {
  const r = validateConfigText(JSON.stringify(value));
  return r.ok ? [] : r.problems;
}

describe('config validation', () => {
  it('reports a wrong field and a dangling server reference together', () => {
    expect(problems({ servers: { a: { command: 'x' } }, profiles: { p: { servers: ['ghost'], surface: 'fast' } } })).toEqual([
      { path: 'profiles.p.surface', message: 'expected "tools" or "code"' },
      { path: 'profiles.p.servers.0', message: 'unknown server "ghost"; add it under "servers" first' },
    ]);
  });

  it('checks names, duplicates, filters of other servers and namespace in one pass', () => {
    const ps = problems({
      servers: { 'bad name': { command: 'x' }, a: { command: 'x' }, b: { url: 'https://example.com/mcp' } },
      profiles: {
        'no/slash': { servers: ['a', 'a'], tools: { b: { allow: ['*'] } }, resources: { b: { deny: ['*'] } }, prompts: { b: {} }, namespace: false },
        p: { servers: ['constructor', 'toString'] },
      },
    }).map((p) => p.path);
    expect(ps).toEqual(
      expect.arrayContaining([
        'servers.bad name',
        'profiles.no/slash',
        'profiles.no/slash.servers.1',
        'profiles.no/slash.tools.b',
        'profiles.no/slash.resources.b',
        'profiles.no/slash.prompts.b',
        // Names every object inherits are not servers.
        'profiles.p.servers.0',
        'profiles.p.servers.1',
      ]),
    );
  });

  it('refuses a server whose tools would be shown under another server\'s names, naming the later one', () => {
    const local = { command: 'x' };
    const clash = (a: string, b: string) => problems({ servers: { [a]: local, [b]: local }, profiles: {} });
    expect(clash('files.v2', 'files_v2')).toEqual([
      {
        path: 'servers.files_v2',
        message:
          '"files_v2" and "files.v2" would show their tools to clients under the same names (files_v2__…), so a tool of one could take the place of a tool of the other; ' +
          'rename "files_v2" (server names that differ only in ".", "-" and "_", or where one is the other followed by "__", clash)',
      },
    ]);
    // One's names begin with the other's: `gh__x__y` is tool `x__y` of gh and tool `y` of gh__x.
    expect(clash('gh', 'gh__x').map((p) => p.path)).toEqual(['servers.gh__x']);
    expect(clash('a', 'a_').map((p) => p.path)).toEqual(['servers.a_']);
    // In code both would be the global my_server; "catalog" is catalog_ there.
    expect(clash('my-server', 'my_server').map((p) => p.path)).toEqual(['servers.my_server']);
    expect(clash('catalog', 'catalog_').map((p) => p.path)).toEqual(['servers.catalog_']);
    for (const [a, b] of [['a', 'ab'], ['github', 'gitlab'], ['a_b', 'a'], ['files', 'files-v2']]) expect(clash(a!, b!)).toEqual([]);
  });

  it('accepts a valid config with unknown keys kept', () => {
    const r = validateConfigText(JSON.stringify({ servers: { a: { command: 'x', extra: 1 } }, profiles: { p: { servers: ['a'] } }, mine: true }));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.raw.mine).toBe(true);
  });

  it('keeps the welcome\'s "done" and other settings, and says what settings.welcomeDone takes', () => {
    const r = validateConfigText(JSON.stringify({ settings: { welcomeDone: true, registry: 'https://r.example.com', later: 1 } }));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.config.settings).toEqual({ welcomeDone: true, registry: 'https://r.example.com', later: 1 });
    expect(problems({ settings: { welcomeDone: 'yes' } })).toEqual([{ path: 'settings.welcomeDone', message: 'expected true or false' }]);
  });

  it('takes true or false for settings.checkForUpdates and "stable" or "beta" for settings.updateChannel', () => {
    expect(problems({ settings: { checkForUpdates: false, updateChannel: 'beta' } })).toEqual([]);
    expect(problems({ settings: { checkForUpdates: 'no' } })).toEqual([{ path: 'settings.checkForUpdates', message: 'expected true or false' }]);
    expect(problems({ settings: { updateChannel: 'nightly' } })).toEqual([{ path: 'settings.updateChannel', message: 'expected "stable" or "beta"' }]);
  });

  it('takes only absolute folder paths as a server\'s roots, and "config" or "client" as rootsFrom', () => {
    const ok = { servers: { a: { command: 'x', roots: ['/srv/data', 'C:\\Users\\me', '\\\\host\\share'], rootsFrom: 'client' } }, profiles: {} };
    expect(problems(ok)).toEqual([]);
    expect(problems({ servers: { a: { command: 'x', roots: ['relative/dir', '~/x', ''], rootsFrom: 'anyone' } }, profiles: {} })).toEqual([
      { path: 'servers.a.roots.0', message: 'expected an absolute folder path, such as "/Users/me/projects"' },
      { path: 'servers.a.roots.1', message: 'expected an absolute folder path, such as "/Users/me/projects"' },
      { path: 'servers.a.roots.2', message: 'expected an absolute folder path, such as "/Users/me/projects"' },
      { path: 'servers.a.rootsFrom', message: 'expected "config" or "client"' },
    ]);
    expect(problems({ servers: { a: { command: 'x', roots: '/srv' } }, profiles: {} })).toEqual([
      { path: 'servers.a.roots', message: 'expected an array of absolute folder paths' },
    ]);
  });

  it('checks the code-mode feature switches (codeMode) and fills their defaults', async () => {
    const { resolveCodeModeFeatures } = await import('../../../src-shared/config/schema.ts');
    expect(problems({ servers: { a: { command: 'x' } }, profiles: { p: { servers: ['a'], codeMode: { results: 'yes', ledger: false } } } })).toEqual([
      { path: 'profiles.p.codeMode.results', message: 'expected true or false' },
    ]);
    expect(problems({ servers: { a: { command: 'x' } }, profiles: { p: { servers: ['a'], codeMode: [] } } })[0]?.path).toBe('profiles.p.codeMode');
    expect(resolveCodeModeFeatures(undefined)).toEqual({ ledger: true, results: false, learnedTypes: false, nameIndex: true, skills: false });
    expect(resolveCodeModeFeatures({ results: true, ledger: false })).toMatchObject({ results: true, ledger: false });
  });

  it('gives the line and column of a syntax error', () => {
    const r = validateConfigText('{\n  "servers": {\n    "a": { "command": "x", }\n  }\n}\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]).toMatchObject({ path: '', line: 3, column: 28 });
  });
});
