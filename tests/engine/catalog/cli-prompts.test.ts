// The small items of finding 7, as a user at a shell sees them: with answers piped in,
// every prompt comes out on stdout before what follows its answer; a bundle's values are asked
// only after the yes, so one `n` ends cleanly; code-loading env (NODE_OPTIONS, LD_PRELOAD…) is
// flagged on the approval screen as `import` flags it; `search --json` prints one JSON array,
// and the next page is one `--cursor` away, said on stderr.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run as search } from '../../../src-main/cli/commands/search.ts';
import { startRegistry, type LocalRegistry } from '../../fixtures/registry/registry-server.ts';
import { cleanupHomes, makeHome } from '../../helpers/home.ts';
import { markManifest, markServer, writeZip } from './bundle-zip.ts';
import { catalogContext } from './helpers.ts';
import { runCli } from './run-cli.ts';

let root: string;
let home: string;
let registry: LocalRegistry;

beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(async () => {
  await registry.close();
  await cleanupHomes();
});
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sb-prompts-'));
  home = makeHome({ settings: { registry: registry.url }, servers: {}, profiles: {} });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const servers = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).servers as Record<string, { env?: Record<string, unknown> }>;

function keyBundle(env: Record<string, string> = {}): string {
  const m = markManifest('notes', '1.0.0', {
    user_config: {
      folder: { type: 'directory', title: 'Notes folder', required: true },
      api_key: { type: 'string', title: 'API key', sensitive: true, required: true },
    },
  });
  (m.server as { mcp_config: Record<string, unknown> }).mcp_config.args = ['${__dirname}/server.js', '${user_config.folder}'];
  (m.server as { mcp_config: Record<string, unknown> }).mcp_config.env = { NOTES_KEY: '${user_config.api_key}', ...env };
  return writeZip(path.join(root, 'notes.mcpb'), { 'manifest.json': JSON.stringify(m), 'server.js': markServer('NOTES') });
}

/** Where each piece first appears in `text`; fails when one is missing. */
function order(text: string, pieces: string[]): number[] {
  return pieces.map((p) => {
    const i = text.indexOf(p);
    expect(i, `"${p}" in:\n${text}`).toBeGreaterThanOrEqual(0);
    return i;
  });
}
const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);

describe('piped answers', () => {
  it('a bundle answered `n` ends at once with exit 1: the question before "Nothing was written.", no value asked', { timeout: 60_000 }, async () => {
    const r = await runCli(home, ['install', keyBundle()], { input: 'n\n' });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('No value for');
    expect(r.stdout).not.toContain('Notes folder (');
    expect(ascending(order(r.stdout, ['Server "notes"', 'notes needs 2 value(s), asked after your yes: Notes folder, API key.', 'Add "notes" to config.json? [y/N] \nNothing was written.\n']))).toBe(true);
    expect(servers()).toEqual({});
  });

  it('a yes, then the values: each prompt comes before what follows it, and the "Added" line is last', { timeout: 60_000 }, async () => {
    const r = await runCli(home, ['install', keyBundle()], { input: `y\n${root}\nkey-1\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(ascending(order(r.stdout, ['Add "notes" to config.json? [y/N] \n', 'Notes folder (required): \n', 'API key (secret, not shown; required): \n', 'With your values, the entry is:', 'Added "notes" to config.json and 1 secret(s)']))).toBe(true);
    expect(servers().notes!.env).toEqual({ NOTES_KEY: { secret: 'notes.NOTES_KEY' } });
  });

  it('a link answered `n`: "Nothing was written." comes after the question', { timeout: 60_000 }, async () => {
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=pg&config=${Buffer.from(JSON.stringify({ command: 'npx', args: ['-y', 'pg'] })).toString('base64')}`;
    const r = await runCli(home, ['install', link], { input: 'n\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Add "pg" to config.json? [y/N] \nNothing was written.\n');
  });
});

describe('code-loading env on the approval screen', () => {
  it('NODE_OPTIONS and LD_PRELOAD in a bundle\'s env are flagged; a plain variable is not', { timeout: 60_000 }, async () => {
    const r = await runCli(home, ['install', keyBundle({ NODE_OPTIONS: '--require /tmp/x.js', LD_PRELOAD: '/tmp/x.so', NOTES_LANG: 'en' })], { input: 'n\n' });
    expect(r.stdout).toContain('  env NODE_OPTIONS = "--require /tmp/x.js"\n    WARNING: NODE_OPTIONS changes what code the command loads; agree only if you trust where this server came from.');
    expect(r.stdout).toContain('    WARNING: LD_PRELOAD changes what code the command loads;');
    expect(r.stdout).not.toContain('WARNING: NOTES_LANG');
  });

  it('the same for an install link', { timeout: 60_000 }, async () => {
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=pg&config=${Buffer.from(JSON.stringify({ command: 'npx', args: ['pg'], env: { DYLD_INSERT_LIBRARIES: '/tmp/x.dylib' } })).toString('base64')}`;
    const r = await runCli(home, ['install', link], { input: 'n\n' });
    expect(r.stdout).toContain('    WARNING: DYLD_INSERT_LIBRARIES changes what code the command loads;');
  });
});

describe('search --json', () => {
  it('prints one JSON array; the next page is given on stderr as a --cursor command, which works', async () => {
    let out = '';
    let err = '';
    const ctx = { ...catalogContext(home, { PATH: '' }, (s) => void (out += s)), stderr: (s: string) => void (err += s) };
    expect(await search(['example', '--json', '--limit', '2'], ctx)).toBe(0);
    const first = JSON.parse(out) as { name: string }[];
    expect(Array.isArray(first)).toBe(true);
    expect(first).toHaveLength(2);
    const more = /the next ones: switchboard search example --json --limit 2 --cursor (\S+)\n$/.exec(err);
    expect(more, err).not.toBeNull();
    out = '';
    err = '';
    expect(await search(['example', '--json', '--limit', '2', '--cursor', more![1]!.replace(/^'|'$/g, '')], ctx)).toBe(0);
    const second = JSON.parse(out) as { name: string }[];
    expect(second.length).toBeGreaterThan(0);
    expect(second.map((s) => s.name)).not.toContain(first[0]!.name);
  });
});
