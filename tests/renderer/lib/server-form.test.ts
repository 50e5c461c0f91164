// The add/edit server form: round trip with config, and every problem it can see by itself.
import { describe, expect, it } from 'vitest';
import { checkName, draftFromConfig, draftToConfig, emptyDraft, fieldForProblemPath, serverPointer } from '../../../src-renderer/lib/server-form.ts';

describe('server form', () => {
  it('round-trips a local server, keeping unknown keys and secret references', () => {
    const cfg = { command: 'npx', args: ['-y', 'pkg with space'], env: { TOKEN: { secret: 'GH' }, MODE: 'x=y' }, cwd: '/tmp', callTimeoutSec: 30, note: 'mine' };
    const d = draftFromConfig('gh', cfg);
    expect(d.kind).toBe('local');
    expect(d.args).toBe('-y\npkg with space');
    const { value, errors } = draftToConfig(d, cfg);
    expect(errors).toEqual({});
    expect(value).toEqual(cfg);
  });

  it('round-trips a remote server', () => {
    const cfg = { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, transport: 'sse' };
    const { value, errors } = draftToConfig(draftFromConfig('r', cfg), cfg);
    expect(errors).toEqual({});
    expect(value).toEqual(cfg);
  });

  it('says what is wrong with each field', () => {
    expect(draftToConfig(emptyDraft('local')).errors.command).toMatch(/program that starts the server/);
    expect(draftToConfig({ ...emptyDraft('remote'), url: 'file:///etc/passwd' }).errors.url).toMatch(/is not a web address/);
    expect(draftToConfig({ ...emptyDraft('local'), command: 'node', env: 'NOEQUALS' }).errors.env).toBe('Line 1 should look like NAME=value.');
    expect(draftToConfig({ ...emptyDraft('remote'), url: 'https://a.example', headers: 'bad' }).errors.headers).toBe('Line 1 should look like Name: value.');
    expect(draftToConfig({ ...emptyDraft('local'), command: 'node', callTimeoutSec: '0' }).errors.callTimeoutSec).toMatch(/whole number of seconds/);
  });

  it('checks names and places engine problems next to their field', () => {
    expect(checkName('', [], null)).toMatch(/Give the server a name/);
    expect(checkName('has space', [], null)).toMatch(/letters, digits/);
    expect(checkName('gh', ['gh'], null)).toMatch(/already a server named “gh”/);
    expect(checkName('gh', ['gh'], 'gh')).toBeUndefined();
    expect(fieldForProblemPath('servers.a.b.url', 'a.b')).toBe('url');
    expect(fieldForProblemPath('servers.a.b', 'a.b')).toBe('name');
    expect(fieldForProblemPath('profiles.x', 'a.b')).toBe('form');
    expect(serverPointer('a/b')).toBe('/servers/a~1b');
  });
});
