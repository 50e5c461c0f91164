// Install links from web pages (switchboard://, Cursor's and VS Code's formats) go through the
// same approval screen as `switchboard install`; anything malformed, foreign or that would hide a
// secret in config.json is refused with nothing written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src-main/cli/command-context.ts';
import { run as install } from '../../../src-main/cli/commands/install.ts';
import { parseInstallLink } from '../../../src-main/engine/catalog/install-link.ts';
import { FileSecretStore } from '../../../src-main/engine/secrets/secret-store.ts';
import { homePaths } from '../../../src-main/engine/platform/home.ts';
import { startRegistry, type LocalRegistry } from '../../fixtures/registry/registry-server.ts';
import { catalogContext, failure } from './helpers.ts';

let registry: LocalRegistry;
let home: string;
let out: string;
let ctx: CliContext;
const answering = (...a: (string | null)[]) => ({ ask: async () => (a.length ? a.shift()! : null), loginPath: async () => '' });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const config = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));

beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'sb-links-'));
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ settings: { registry: registry.url }, servers: {}, profiles: {} }));
  out = '';
  ctx = catalogContext(home, { PATH: '' }, (s) => void (out += s));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const fails = async (p: Promise<number>) => (await failure(p)).message;

describe('reading install links', () => {
  it('reads Cursor links, plain or wrapped in the server name', () => {
    const entry = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/mydb'] };
    expect(parseInstallLink(`cursor://anysphere.cursor-deeplink/mcp/install?name=postgres&config=${b64(entry)}`)).toEqual({ kind: 'entry', from: 'cursor', name: 'postgres', entry, inputs: [] });
    expect(parseInstallLink(`cursor://anysphere.cursor-deeplink/mcp/install?config=${encodeURIComponent(b64({ postgres: entry }))}`)).toMatchObject({ name: 'postgres', entry });
  });

  it('reads VS Code links, their inputs, and the vscode.dev redirect', () => {
    const v = { name: 'gh', type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${input:gh-token}' }, inputs: [{ id: 'gh-token', type: 'promptString', description: 'GitHub token', password: true }] };
    const link = `vscode:mcp/install?${encodeURIComponent(JSON.stringify(v))}`;
    const parsed = parseInstallLink(link);
    expect(parsed).toMatchObject({ kind: 'entry', from: 'vscode', name: 'gh', entry: { url: v.url, transport: 'http', headers: v.headers }, inputs: [{ id: 'gh-token', password: true }] });
    expect(parseInstallLink(`https://insiders.vscode.dev/redirect?url=${encodeURIComponent(link)}`)).toEqual(parsed);
    expect(parseInstallLink(`vscode-insiders:mcp/install?${encodeURIComponent(JSON.stringify({ name: 'x', command: 'uvx', args: ['mcp-server-time'] }))}`)).toMatchObject({ entry: { command: 'uvx', args: ['mcp-server-time'] } });
  });

  it('reads switchboard:// registry and entry links', () => {
    expect(parseInstallLink('switchboard://install?name=io.github.example/weather&version=1.0.0')).toEqual({ kind: 'registry', name: 'io.github.example/weather', version: '1.0.0' });
    expect(parseInstallLink(`switchboard://install?server=t&config=${b64({ command: 'uvx', args: ['mcp-server-time'] })}`)).toMatchObject({ kind: 'entry', name: 't' });
  });

  it('refuses foreign schemes, other deeplinks and entries config.json would not accept', () => {
    for (const [link, why] of [
      ['javascript:alert(1)', /not javascript:/],
      ['file:///etc/passwd', /not file:/],
      ['cursor://anysphere.cursor-deeplink/settings?x=1', /not an MCP install link/],
      [`cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=${b64({ command: 'a', url: 'https://x' })}`, /not both/],
      [`cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=${b64({ url: 'ftp://x' })}`, /http:\/\/ or https:\/\//],
      ['cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=%%%', /not base64-encoded JSON/],
      ['vscode:mcp/install?{nope', /not URL-encoded JSON/],
      ['switchboard://install', /names no server/],
    ] as const) {
      expect(() => parseInstallLink(link), link).toThrow(why);
    }
  });
});

describe('installing from a link', () => {
  it('a Cursor link shows the exact command and writes only after yes', async () => {
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=postgres&config=${b64({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/mydb'] })}`;
    expect(await install([link], ctx, answering('n'))).toBe(1);
    expect(out).toContain('An install link (cursor) asks to add the server "postgres". Check every part below before you agree.');
    expect(out).toContain('  args:    ["-y","@modelcontextprotocol/server-postgres","postgresql://localhost/mydb"]');
    expect(config().servers).toEqual({});
    expect(await install([link], ctx, answering('y'))).toBe(0);
    expect(config().servers.postgres).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/mydb'] });
  });

  it('a VS Code link asks its password input and keeps it in the secret store', async () => {
    const v = { name: 'gh', type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${input:gh-token}' }, inputs: [{ id: 'gh-token', type: 'promptString', description: 'GitHub token', password: true }] };
    expect(await install([`vscode:mcp/install?${encodeURIComponent(JSON.stringify(v))}`, '--yes'], ctx, answering('ghp_secret'))).toBe(0);
    expect(config().servers.gh).toEqual({ url: 'https://api.githubcopilot.com/mcp/', transport: 'http', headers: { Authorization: { secret: 'gh.Authorization' } } });
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).not.toContain('ghp_secret');
    expect(new FileSecretStore(homePaths(home).secretsFile).get('gh.Authorization')).toBe('Bearer ghp_secret');
  });

  it('a switchboard:// registry link installs from the configured registry', async () => {
    expect(await install(['switchboard://install?name=io.github.example/weather&version=1.0.0', '--yes'], ctx, answering('sk', '', ''))).toBe(0);
    expect(config().servers.weather.args).toContain('@example/weather-mcp@1.0.0');
  });

  it('--propose writes the entry with proposedBy, asking nothing, so it waits for the user\'s approval', async () => {
    const entry = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/mydb'] };
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=postgres&config=${b64(entry)}`;
    const asked: string[] = [];
    expect(await install([link, '--propose'], ctx, { ask: async (q) => (asked.push(q), null), loginPath: async () => '' })).toBe(0);
    expect(asked).toEqual([]);
    expect(out).toContain('  args:    ["-y","@modelcontextprotocol/server-postgres","postgresql://localhost/mydb"]');
    expect(out).toContain('Proposed "postgres": it waits for your approval');
    expect(config().servers.postgres).toEqual({ ...entry, proposedBy: 'an install link (cursor)' });
    expect(await fails(install([link, '--propose', '--yes'], ctx, answering()))).toMatch(/use one of them/);
  });

  it('--propose refuses an entry that needs a value only the user can give, and writes nothing', async () => {
    const v = { name: 'gh', type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${input:gh-token}' }, inputs: [{ id: 'gh-token', type: 'promptString', description: 'GitHub token', password: true }] };
    const r = await failure(install([`vscode:mcp/install?${encodeURIComponent(JSON.stringify(v))}`, '--propose'], ctx, answering('ghp_secret')));
    expect(r.message).toMatch(/needs a value only you can give/);
    expect(config().servers).toEqual({});
  });

  it('refuses a link that puts a password input on the command line, or names a local secret', async () => {
    const v = { name: 'x', command: 'tool', args: ['--token=${input:t}'], inputs: [{ id: 't', password: true }] };
    expect(await fails(install([`vscode:mcp/install?${encodeURIComponent(JSON.stringify(v))}`, '--yes'], ctx, answering('s')))).toMatch(/password input into the command line/);
    const s = `switchboard://install?server=x&config=${b64({ command: 'tool', env: { K: { secret: 'github-token' } } })}`;
    expect(await fails(install([s, '--yes'], ctx, answering()))).toMatch(/refers to a secret/);
    expect(config().servers).toEqual({});
  });
});
