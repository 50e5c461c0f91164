// The control API's clients.* methods against a real `switchboard serve` whose $HOME is a temp
// folder, so every client file it reads or writes lives there.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientInfo, ControlApi, ControlMethod } from '../../../src-shared/api.ts';
import type { ErrorData } from '../../../src-shared/errors.ts';
import { cleanupHomes, fixtureServer, makeHome, referenceServer } from '../../helpers/home.ts';
import { serve, type Served } from '../../helpers/serve.ts';

let s: Served;
let home: string;
let user: string;
let claudeFile: string;

// A real-world Claude Desktop file: another server, an unknown key, two-space indent.
const ORIGINAL =
  JSON.stringify(
    {
      mcpServers: {
        weather: { command: 'uvx', args: ['weather-mcp', '--units', 'metric'], env: { API_KEY: 'sk-weather-123' } },
      },
      globalShortcut: 'Ctrl+Space',
    },
    null,
    2,
  ) + '\n';

async function call<M extends ControlMethod>(method: M, params: ControlApi[M]['params']): Promise<ControlApi[M]['result']> {
  const res = await fetch(`${s.url}/api/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
  const body = (await res.json()) as { result?: ControlApi[M]['result']; error?: ErrorData };
  if (body.error) throw Object.assign(new Error(body.error.message), { data: body.error });
  return body.result!;
}

async function claude(): Promise<ClientInfo> {
  const { clients } = await call('clients.list', {});
  return clients.find((c) => c.id === 'claude-desktop')!;
}

beforeAll(async () => {
  user = mkdtempSync(path.join(os.tmpdir(), 'sb-api-user-'));
  claudeFile = path.join(user, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claudeFile), { recursive: true });
  writeFileSync(claudeFile, ORIGINAL);
  home = makeHome({
    servers: { basic: fixtureServer('basic.mjs'), memory: referenceServer('memory') },
    profiles: { demo: { servers: ['basic'] }, coded: { servers: ['basic', 'memory'], surface: 'code' } },
  });
  // No PATH entries that could hold a real `claude` CLI; XDG_CONFIG_HOME must not point outside.
  s = await serve(home, { HOME: user, XDG_CONFIG_HOME: path.join(user, '.config'), CODEX_HOME: path.join(user, '.codex') });
}, 60_000);

afterAll(async () => {
  await s?.stop();
  await cleanupHomes();
  rmSync(user, { recursive: true, force: true });
});

describe('clients.* control API', () => {
  it('lists every client with where it looked, its path and each profile', async () => {
    const { clients } = await call('clients.list', {});
    expect(clients.map((c) => c.id)).toEqual(expect.arrayContaining(['claude-desktop', 'cursor', 'vscode', 'claude-code', 'windsurf', 'lmstudio']));
    const c = clients.find((x) => x.id === 'claude-desktop')!;
    expect(c).toMatchObject({ displayName: 'Claude Desktop', installed: true, configPath: claudeFile, connected: [], canUndo: false });
    expect(c.profiles.map((p) => p.profile).sort()).toEqual(['coded', 'demo']);
    const cursor = clients.find((x) => x.id === 'cursor')!;
    expect(cursor.installed).toBe(false);
    expect(cursor.lookedAt).toEqual([path.join(user, '.cursor')]);
  });

  it('connects a profile without touching the other server, and disconnect restores the bytes', async () => {
    const out = await call('clients.connect', { client: 'claude-desktop', profile: 'demo' });
    expect(out).toMatchObject({ path: claudeFile, changed: true, via: 'file' });
    const written = JSON.parse(readFileSync(claudeFile, 'utf8'));
    expect(written.mcpServers.weather).toEqual(JSON.parse(ORIGINAL).mcpServers.weather);
    expect(written.globalShortcut).toBe('Ctrl+Space');
    const entry = written.mcpServers['switchboard-demo'];
    expect(path.isAbsolute(entry.command)).toBe(true);
    expect(entry.args).toEqual(expect.arrayContaining(['shim', '--profile', 'demo', '--home', home]));

    const listed = await claude();
    expect(listed.connected).toEqual(['demo']);
    expect(listed.canUndo).toBe(true);
    expect(listed.profiles.find((p) => p.profile === 'demo')).toMatchObject({ connected: true, matches: true, drift: 'none', known: true });

    const off = await call('clients.disconnect', { client: 'claude-desktop', profile: 'demo' });
    expect(off.changed).toBe(true);
    expect(readFileSync(claudeFile, 'utf8')).toBe(ORIGINAL);
  });

  it('reports drift when the client changes or removes our entry', async () => {
    await call('clients.connect', { client: 'claude-desktop', profile: 'demo' });
    const doc = JSON.parse(readFileSync(claudeFile, 'utf8'));
    doc.mcpServers['switchboard-demo'].args.push('--verbose');
    writeFileSync(claudeFile, JSON.stringify(doc, null, 2));
    expect((await claude()).profiles.find((p) => p.profile === 'demo')!.drift).toBe('changed');
    delete doc.mcpServers['switchboard-demo'];
    writeFileSync(claudeFile, JSON.stringify(doc, null, 2));
    expect((await claude()).profiles.find((p) => p.profile === 'demo')).toMatchObject({ connected: false, drift: 'removed' });
    writeFileSync(claudeFile, ORIGINAL);
  });

  it('undo puts the file back as it was before the last write', async () => {
    await call('clients.connect', { client: 'claude-desktop', profile: 'coded' });
    expect(readFileSync(claudeFile, 'utf8')).toContain('switchboard-coded');
    const r = await call('clients.undo', { client: 'claude-desktop' });
    expect(r.path).toBe(claudeFile);
    expect(readFileSync(claudeFile, 'utf8')).toBe(ORIGINAL);
  });

  it('refuses a client that is not installed unless forced, and writes nothing', async () => {
    const cursorFile = path.join(user, '.cursor', 'mcp.json');
    const err = await call('clients.connect', { client: 'cursor', profile: 'demo' }).catch((e: { data: ErrorData }) => e.data);
    expect(err).toMatchObject({ code: 'not-found' });
    expect((err as ErrorData).message).toContain(path.join(user, '.cursor'));
    expect(existsSync(cursorFile)).toBe(false);
    await call('clients.connect', { client: 'cursor', profile: 'demo', force: true });
    expect(JSON.parse(readFileSync(cursorFile, 'utf8')).mcpServers['switchboard-demo']).toBeDefined();
  });

  it('says what to do next after a connect, and adds a folder to Gemini CLI\'s trust list byte-preserving', async () => {
    const out = await call('clients.connect', { client: 'claude-desktop', profile: 'demo' });
    expect(out.outcome).toEqual({ nextSteps: [expect.stringMatching(/^Quit Claude Desktop completely/)], warnings: [] });
    // Hand-edit our entry: the next connect replaces it and says so.
    const doc = JSON.parse(readFileSync(claudeFile, 'utf8'));
    doc.mcpServers['switchboard-demo'].args.push('--hand-edited');
    writeFileSync(claudeFile, JSON.stringify(doc, null, 2));
    const again = await call('clients.connect', { client: 'claude-desktop', profile: 'demo' });
    expect(again.replaced).toBe('other');
    expect(again.outcome!.warnings).toEqual([expect.stringMatching(/"switchboard-demo" had been changed by hand.*Undo last change/)]);
    writeFileSync(claudeFile, ORIGINAL);

    const trustFile = path.join(user, '.gemini', 'trustedFolders.json');
    mkdirSync(path.dirname(trustFile), { recursive: true });
    const trustBefore = '{\n    "/home/someone/old": "TRUST_FOLDER"\n}\n';
    writeFileSync(trustFile, trustBefore);
    const g = await call('clients.connect', { client: 'gemini-cli', profile: 'demo', force: true });
    expect(g.outcome!.trustNeeded).toEqual({ file: trustFile });
    expect(g.outcome!.nextSteps).toEqual([expect.stringMatching(/^Trust the folder you work in: Gemini CLI ignores MCP servers in folders it does not trust/), expect.stringMatching(/^Start a new Gemini CLI session/)]);
    const w = await call('clients.connect', { client: 'windsurf', profile: 'demo', force: true });
    expect(w.outcome!.warnings).toEqual([expect.stringMatching(/^Windsurf was not found on this computer\. The entry is in .*mcp_config\.json/)]);
    await call('clients.disconnect', { client: 'windsurf', profile: 'demo' });
    const work = path.join(user, 'work', 'my project');
    const t = await call('clients.trustFolder', { client: 'gemini-cli', folder: work });
    expect(t).toMatchObject({ path: trustFile, changed: true });
    expect(readFileSync(trustFile, 'utf8')).toBe(`{\n    "/home/someone/old": "TRUST_FOLDER",\n    ${JSON.stringify(work)}: "TRUST_FOLDER"\n}\n`);
    const listed = (await call('clients.list', {})).clients.find((c) => c.id === 'gemini-cli')!;
    expect(listed.trust).toEqual({ file: trustFile, folders: ['/home/someone/old', work] });
    expect((await call('clients.list', {})).clients.find((c) => c.id === 'claude-desktop')!.trust).toBeUndefined();
    const rel = await call('clients.trustFolder', { client: 'gemini-cli', folder: 'relative/dir' }).catch((e: { data: ErrorData }) => e.data);
    expect((rel as ErrorData).message).toMatch(/must be an absolute path/);
    const none = await call('clients.trustFolder', { client: 'cursor', folder: work }).catch((e: { data: ErrorData }) => e.data);
    expect((none as ErrorData).message).toMatch(/Cursor has no folder-trust list/);
    // Trusted now: connecting again changes nothing and does not offer the trust step again.
    const second = await call('clients.connect', { client: 'gemini-cli', profile: 'demo', force: true });
    expect(second.changed).toBe(false);
    expect(second.outcome!.trustNeeded).toBeUndefined();
    expect(second.outcome!.nextSteps).toEqual([`Gemini CLI loads the entry in sessions started in /home/someone/old, ${work} (its trusted folders).`]);
    await call('clients.disconnect', { client: 'gemini-cli', profile: 'demo' });
  });

  it("shows Cursor's CLI connected, with Cursor's undo, once Cursor's shared file has the entry", async () => {
    await call('clients.connect', { client: 'cursor', profile: 'demo', force: true });
    const cli = (await call('clients.list', {})).clients.find((c) => c.id === 'cursor-cli')!;
    expect(cli).toMatchObject({ configPath: path.join(user, '.cursor', 'mcp.json'), connected: ['demo'], canUndo: true });
    const again = await call('clients.connect', { client: 'cursor-cli', profile: 'demo', force: true });
    expect(again.changed).toBe(false);
    // ~/.cursor is the editor's: the CLI itself is not installed here, and the card says so.
    expect(again.outcome!.warnings).toEqual([
      expect.stringMatching(/^Cursor CLI was not found on this computer/),
      `Cursor CLI reads Cursor's file (${path.join(user, '.cursor', 'mcp.json')}): the one entry serves both.`,
    ]);
    await call('clients.disconnect', { client: 'cursor', profile: 'demo' });
  });

  it('lists copy-paste clients with that kind, and their connect answers with the steps and writes nothing', async () => {
    const { clients } = await call('clients.list', {});
    expect(clients.length).toBeGreaterThanOrEqual(36);
    const jan = clients.find((c) => c.id === 'jan')!;
    expect(jan).toMatchObject({ kind: 'copy-paste', configPath: '', connected: [] });
    expect(clients.find((c) => c.id === 'cursor')!.kind).toBeUndefined();
    const before = readdirSync(user, { recursive: true }).sort();
    const r = await call('clients.connect', { client: 'jan', profile: 'demo' });
    expect(r).toMatchObject({ path: '', changed: false, backup: null });
    expect(r.outcome!.copyPaste).toBe(true);
    const steps = r.outcome!.nextSteps.join('\n');
    expect(steps).toContain('Settings → MCP Servers');
    expect(steps).toContain('switchboard-demo');
    expect(steps).toMatch(/"--client"\s+"jan"/);
    expect(readdirSync(user, { recursive: true }).sort()).toEqual(before);
  });

  it('refuses an unknown client or profile with the names it knows', async () => {
    const badClient = await call('clients.connect', { client: 'notepad', profile: 'demo' }).catch((e: { data: ErrorData }) => e.data);
    expect((badClient as ErrorData).message).toMatch(/Known clients: claude-desktop/);
    const badProfile = await call('clients.connect', { client: 'claude-desktop', profile: 'nope' }).catch((e: { data: ErrorData }) => e.data);
    expect(badProfile).toMatchObject({ code: 'unknown-profile' });
    expect((badProfile as ErrorData).message).toMatch(/demo/);
    expect(readFileSync(claudeFile, 'utf8')).toBe(ORIGINAL);
  });

  it('leaves an unparseable file untouched and says where it breaks', async () => {
    const broken = '{\n  "mcpServers": {\n    "x": { "command": "a" ,, }\n}\n';
    writeFileSync(claudeFile, broken);
    const listed = await claude();
    expect(listed.problem).toMatch(/line 3, column/);
    const err = await call('clients.connect', { client: 'claude-desktop', profile: 'demo' }).catch((e: { data: ErrorData }) => e.data);
    expect(err).toMatchObject({ code: 'invalid-config' });
    expect((err as ErrorData).message).toMatch(/line 3, column \d+/);
    expect(readFileSync(claudeFile, 'utf8')).toBe(broken);
    writeFileSync(claudeFile, ORIGINAL);
  });

  it('previews an import with the exact command and args, hiding secret values, and writes nothing', async () => {
    const configBefore = readFileSync(path.join(home, 'config.json'), 'utf8');
    const plan = await call('clients.importPlan', { client: 'claude-desktop' });
    expect(plan.entries).toEqual([
      { action: 'add', clientName: 'weather', name: 'weather', server: { command: 'uvx', args: ['weather-mcp', '--units', 'metric'], envKeys: ['API_KEY'] } },
    ]);
    expect(JSON.stringify(plan)).not.toContain('sk-weather-123');
    expect(plan.replaceProfile).toBe('my-tools');
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).toBe(configBefore);
  });

  it('applies an import with replace: config.json gains the server and the client one Switchboard entry', async () => {
    const out = await call('clients.importApply', { client: 'claude-desktop', replace: true, profile: 'desk' });
    expect(out.added).toEqual(['weather']);
    expect(out.replaced).toMatchObject({ profile: 'desk', entries: ['weather'], write: { changed: true } });
    const cfg = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));
    expect(cfg.servers.weather).toEqual({ command: 'uvx', args: ['weather-mcp', '--units', 'metric'], env: { API_KEY: 'sk-weather-123' } });
    expect(cfg.profiles.desk).toEqual({ servers: ['weather'] });
    const client = JSON.parse(readFileSync(claudeFile, 'utf8'));
    expect(Object.keys(client.mcpServers)).toEqual(['switchboard-desk']);
    expect(client.globalShortcut).toBe('Ctrl+Space');
    // A second dry run sees the server as already imported.
    await call('clients.undo', { client: 'claude-desktop' });
    expect(readFileSync(claudeFile, 'utf8')).toBe(ORIGINAL);
    expect((await call('clients.importPlan', { client: 'claude-desktop' })).entries).toEqual([
      { action: 'duplicate', clientName: 'weather', existing: 'weather' },
    ]);
  });
});

describe('profiles.catalog with a draft', () => {
  it('sizes an unsaved profile over the live catalogs without writing it', async () => {
    const configBefore = readFileSync(path.join(home, 'config.json'), 'utf8');
    // Wait for the servers' catalogs: the saved code profile lists memory's tools once it is up.
    let saved = await call('profiles.catalog', { profile: 'coded' });
    for (let i = 0; i < 100 && !saved.declarations.includes('memory'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      saved = await call('profiles.catalog', { profile: 'coded' });
    }
    const basicOnly = await call('profiles.catalog', { profile: 'coded', draft: { servers: ['basic'], surface: 'code' } });
    expect(basicOnly.declarationChars).toBeLessThan(saved.declarationChars);
    expect(basicOnly.declarations).not.toContain('memory');
    const denied = await call('profiles.catalog', { draft: { servers: ['basic', 'memory'], surface: 'code', tools: { memory: { deny: ['*'] } } } });
    expect(denied.declarationChars).toBeLessThan(saved.declarationChars);
    const bad = await call('profiles.catalog', { draft: { servers: 'basic' } as never }).catch((e: { data: ErrorData }) => e.data);
    expect(bad).toMatchObject({ code: 'bad-request' });
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).toBe(configBefore);
  });
});
