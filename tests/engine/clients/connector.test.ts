import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientFileError } from '../../../src-main/engine/clients/client-errors.ts';
import { getConnector } from '../../../src-main/engine/clients/connector.ts';
import { readClientFile, writeClientFile } from '../../../src-main/engine/clients/config-file-writer.ts';
import { leftovers, SHIM, singleInsertion, tempUser, type TempUser } from './helpers.ts';

let u: TempUser;
beforeEach(() => {
  u = tempUser();
});
afterEach(() => u.cleanup());

const CASES: [client: string, fixture: string][] = [
  ['claude-desktop', 'several-servers.json'],
  ['cursor', 'comments-trailing-commas.json'],
  ['cursor', 'crlf-tabs.json'],
  ['windsurf', 'bom.json'],
  ['lmstudio', 'empty.json'],
  ['claude-desktop', 'no-container.json'],
  ['gemini-cli', 'empty-container-minified.json'],
  ['windsurf', 'windsurf-mcp_config.json'],
  ['vscode', 'vscode-mcp.json'],
  ['zed', 'zed-settings.json'],
  ['codex', 'codex-config.toml'],
];

function parseAny(file: string, text: string): Record<string, unknown> {
  const body = text.replace(/^\ufeff/, '');
  if (file.endsWith('.toml')) return parseToml(body) as Record<string, unknown>;
  return (parseJsonc(body, [], { allowTrailingComma: true }) ?? {}) as Record<string, unknown>;
}

describe('connect and disconnect', () => {
  it.each(CASES)('%s with %s: adds only our entry, and disconnect restores the file byte for byte', async (client, fixture) => {
    const file = u.place(client, fixture);
    const original = readFileSync(file);
    const c = u.connector(client);

    const out = await c.connect('demo', SHIM);
    expect(out.changed).toBe(true);
    const connected = readFileSync(file, 'utf8');
    const inserted = client === 'lmstudio' ? connected : singleInsertion(original.toString('utf8'), connected);
    expect(inserted, 'the only change is one inserted run of text').not.toBeNull();
    expect(inserted).toContain('switchboard-demo');
    if (original.includes('\r\n')) expect(inserted!.replace(/\r\n/g, '')).not.toContain('\n');
    expect(original.includes('\ufeff')).toBe(connected.startsWith('\ufeff'));

    const servers = await c.readServers();
    expect(servers['switchboard-demo']).toEqual(c.spec.entryFor(SHIM));
    const st = await c.status('demo', SHIM);
    expect(st).toMatchObject({ connected: true, matches: true, drift: 'none' });

    // Everything but our entry parses to what it was.
    const before = parseAny(file, original.toString('utf8'));
    const after = parseAny(file, connected);
    const container = c.spec.container[0]!;
    delete (after[container] as Record<string, unknown>)['switchboard-demo'];
    if (!(container in before) && Object.keys(before).length > 0) delete after[container];
    if (Object.keys(before).length === 0) expect(after).toEqual({ [container]: {} });
    else expect(after).toEqual(before);

    await c.disconnect('demo');
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(leftovers(path.dirname(file))).toEqual([]);
  });

  it('writes a working entry whose paths contain spaces, with VS Code type and Claude Code env', () => {
    expect(u.connector('vscode').spec.entryFor(SHIM)).toEqual({ type: 'stdio', command: SHIM.command, args: [...SHIM.args, '--client', 'vscode'] });
    expect(u.connector('cursor').spec.entryFor(SHIM)).toEqual({ command: SHIM.command, args: [...SHIM.args, '--client', 'cursor'] });
  });

  it('does not write when the entry is already what it should be', async () => {
    const file = u.place('cursor', 'several-servers.json');
    await u.connector('cursor').connect('demo', SHIM);
    const once = readFileSync(file);
    const again = await u.connector('cursor').connect('demo', SHIM);
    expect(again.changed).toBe(false);
    expect(readFileSync(file).equals(once)).toBe(true);
  });

  it('counts an entry written before --client existed as up to date, and a connect adds the flag', async () => {
    const c = u.connector('cursor');
    const file = c.configPath();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ mcpServers: { 'switchboard-demo': { command: SHIM.command, args: SHIM.args } } }, null, 2) + '\n');
    expect(await c.status('demo', SHIM)).toMatchObject({ connected: true, matches: true });
    // Another profile's old entry, or a moved shim, is still out of date.
    expect(await c.status('demo', { ...SHIM, command: '/moved/node' })).toMatchObject({ connected: true, matches: false });
    expect((await c.connect('demo', SHIM)).changed).toBe(true);
    expect((await c.readServers())['switchboard-demo']).toEqual({ command: SHIM.command, args: [...SHIM.args, '--client', 'cursor'] });
  });

  it('updates a stale entry in place and keeps a backup of each write', async () => {
    const file = u.place('cursor', 'several-servers.json');
    const c = u.connector('cursor');
    await c.connect('demo', SHIM);
    const moved = { command: '/new/node', args: ['/new/bin.mjs', 'shim', '--profile', 'demo'] };
    expect(await c.status('demo', moved)).toMatchObject({ connected: true, matches: false });
    const out = await c.connect('demo', moved);
    expect(out.backup && existsSync(out.backup)).toBe(true);
    expect((await c.readServers())['switchboard-demo']).toEqual({ ...moved, args: [...moved.args, '--client', 'cursor'] });
    expect(readdirSync(path.join(u.sbHome, 'backups', 'cursor'))).toHaveLength(2);
    expect(readFileSync(file, 'utf8')).toContain('"globalShortcut": "Ctrl+Space"');
  });

  it('creates the file when the client has none yet', async () => {
    const c = u.connector('cursor');
    await c.connect('demo', SHIM);
    expect(JSON.parse(readFileSync(c.configPath(), 'utf8'))).toEqual({ mcpServers: { 'switchboard-demo': { command: SHIM.command, args: [...SHIM.args, '--client', 'cursor'] } } });
  });
});

describe('refusals leave the file untouched', () => {
  it('refuses an unparseable file, naming the file, line and column', async () => {
    const file = u.place('claude-desktop', 'invalid.json');
    const original = readFileSync(file);
    const err = await u.connector('claude-desktop').connect('demo', SHIM).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientFileError);
    expect((err as ClientFileError).reason).toBe('unparseable');
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/line 4, column 5/);
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(existsSync(path.join(u.sbHome, 'backups'))).toBe(false);
  });

  it('refuses a read-only file even when running as root', async () => {
    const file = u.place('cursor', 'several-servers.json');
    chmodSync(file, 0o444);
    const original = readFileSync(file);
    const err = await u.connector('cursor').connect('demo', SHIM).catch((e: unknown) => e);
    expect((err as ClientFileError).reason).toBe('read-only');
    expect((err as Error).message).toMatch(/read-only/);
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it('aborts when another program changes the file between read and write', async () => {
    const file = u.place('cursor', 'several-servers.json');
    const snapshot = await readClientFile(file);
    const foreign = snapshot.text.replace('Ctrl+Space', 'Ctrl+Alt+Space');
    writeFileSync(file, foreign);
    const err = await writeClientFile(snapshot, '{}', { home: u.sbHome, client: 'cursor' }).catch((e: unknown) => e);
    expect((err as ClientFileError).reason).toBe('changed-during-write');
    expect(readFileSync(file, 'utf8')).toBe(foreign);
    expect(leftovers(path.dirname(file))).toEqual([]);
  });

  it('refuses a file that is not UTF-8', async () => {
    const file = u.connector('cursor').configPath();
    u.place('cursor', 'empty.json');
    writeFileSync(file, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    const err = await u.connector('cursor').connect('demo', SHIM).catch((e: unknown) => e);
    expect((err as ClientFileError).reason).toBe('unparseable');
  });

  it('names the known clients for an unknown one', () => {
    expect(() => getConnector('notepad', { home: u.sbHome, env: u.env, platform: 'linux' })).toThrow(/Known clients: claude-desktop, cursor, vscode, claude-code/);
  });
});

describe('undo', () => {
  it('restores the file from before our last write', async () => {
    const file = u.place('claude-desktop', 'several-servers.json');
    const original = readFileSync(file);
    const c = u.connector('claude-desktop');
    await c.connect('demo', SHIM);
    const res = await c.undo();
    expect(res.restoredFrom).toMatch(/backups/);
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(await c.status('demo', SHIM)).toMatchObject({ connected: false, drift: 'none' });
    await expect(c.undo()).rejects.toMatchObject({ reason: 'nothing-to-undo' });
  });

  it('refuses once someone else changed the file, and changes nothing', async () => {
    const file = u.place('claude-desktop', 'several-servers.json');
    const c = u.connector('claude-desktop');
    await c.connect('demo', SHIM);
    const foreign = readFileSync(file, 'utf8').replace('"off"', '"on"');
    writeFileSync(file, foreign);
    await expect(c.undo()).rejects.toMatchObject({ reason: 'changed-since-write' });
    expect(readFileSync(file, 'utf8')).toBe(foreign);
  });

  it('removes a file that did not exist before our write', async () => {
    const c = u.connector('cursor');
    await c.connect('demo', SHIM);
    await c.undo();
    expect(existsSync(c.configPath())).toBe(false);
  });
});

describe('status', () => {
  it('reports drift when the client or the user changes or removes our entry', async () => {
    const file = u.place('cursor', 'several-servers.json');
    const c = u.connector('cursor');
    expect(await c.status('demo', SHIM)).toMatchObject({ connected: false, drift: 'none', installed: true, path: file });
    await c.connect('demo', SHIM);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"shim"', '"shim", "--verbose"'));
    expect(await c.status('demo', SHIM)).toMatchObject({ connected: true, matches: false, drift: 'changed' });
    const backups = path.join(u.sbHome, 'backups', 'cursor');
    writeFileSync(file, readFileSync(path.join(backups, readdirSync(backups)[0]!)));
    expect(await c.status('demo', SHIM)).toMatchObject({ connected: false, drift: 'removed' });
    expect(await c.connectedProfiles()).toEqual([]);
  });

  it('reports an unreadable file as a problem instead of throwing', async () => {
    u.place('cursor', 'invalid.json');
    const st = await u.connector('cursor').status('demo', SHIM);
    expect(st.connected).toBe(false);
    expect(st.problem).toMatch(/not valid JSON/);
  });
});
