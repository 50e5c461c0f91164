// The client commands run in-process with a CliContext over a temp home; with no engine running,
// import edits config.json through the store under its lock, as the real CLI does.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toErrorData } from '../../../src-shared/errors.ts';
import type { CliContext } from '../../../src-main/cli/command-context.ts';
import { run as connect } from '../../../src-main/cli/commands/connect.ts';
import { run as disconnect } from '../../../src-main/cli/commands/disconnect.ts';
import { run as importCmd } from '../../../src-main/cli/commands/import.ts';
import { run as undo } from '../../../src-main/cli/commands/undo.ts';
import { checkoutNativeShim, defaultShimEntry } from '../../../src-main/engine/platform/shim-entry.ts';
import { FIXTURES, singleInsertion, tempUser, type TempUser } from './helpers.ts';
import { run as clientsCmd } from '../../../src-main/cli/commands/clients.ts';

let u: TempUser;
let out: string;
let ctx: CliContext;

function configFile(): string {
  return path.join(u.sbHome, 'config.json');
}

function readConfig(): { servers: Record<string, unknown>; profiles: Record<string, { servers: string[] }> } {
  return JSON.parse(readFileSync(configFile(), 'utf8'));
}

beforeEach(() => {
  u = tempUser();
  out = '';
  mkdirSync(u.sbHome, { recursive: true });
  writeFileSync(configFile(), JSON.stringify({ servers: { mem: { command: 'node', args: ['/opt/mcp/memory/dist/index.js'] } }, profiles: { demo: { servers: ['mem'] } } }, null, 2));
  ctx = {
    home: u.sbHome,
    homeIsDefault: false,
    stdout: (s) => void (out += s),
    stderr: (s) => void (out += s),
    env: u.env,
    platform: 'linux',
    shimEntry: (p) => defaultShimEntry(u.sbHome, false, p),
    profiles: async () => Object.keys(readConfig().profiles),
  };
});
afterEach(() => u.cleanup());

async function fails(p: Promise<number>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return toErrorData(err);
  }
  throw new Error('expected the command to fail');
}

describe('connect / disconnect / undo commands', () => {
  it('connects, disconnects and undoes with messages that say where', async () => {
    const file = u.place('cursor', 'several-servers.json');
    const original = readFileSync(file);
    expect(await connect(['cursor', '--profile', 'demo'], ctx)).toBe(0);
    expect(out).toContain(`Connected Cursor to profile "demo"`);
    expect(out).toContain(file);
    const entry = JSON.parse(readFileSync(file, 'utf8')).mcpServers['switchboard-demo'];
    // The Node shim, or this checkout's native one when npm run build:native-shim built it.
    const native = checkoutNativeShim();
    if (native) expect(entry).toEqual({ command: native, args: ['shim', '--profile', 'demo', '--home', u.sbHome, '--client', 'cursor'] });
    else {
      expect(entry).toEqual({ command: process.execPath, args: [expect.stringMatching(/bin[\\/]switchboard\.mjs$/), 'shim', '--profile', 'demo', '--home', u.sbHome, '--client', 'cursor'] });
      expect(path.isAbsolute(entry.args[0])).toBe(true);
    }
    expect(await disconnect(['cursor', '--profile', 'demo'], ctx)).toBe(0);
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(await undo(['cursor'], ctx)).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers['switchboard-demo']).toBeDefined();
  });

  it('rejects an unknown client, listing the known ids', async () => {
    const e = await fails(connect(['notepad', '--profile', 'demo'], ctx));
    expect(e.message).toMatch(/"notepad" is not a client.*claude-desktop, cursor, vscode, claude-code, windsurf, lmstudio/);
  });

  it('rejects an unknown profile, listing the profiles, and writes nothing', async () => {
    const file = u.place('cursor', 'several-servers.json');
    const original = readFileSync(file);
    const e = await fails(connect(['cursor', '--profile', 'nope'], ctx));
    expect(e.code).toBe('unknown-profile');
    expect(e.message).toContain('Profiles in config.json: demo');
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it('refuses a client that is not installed unless --force, saying where it looked', async () => {
    const e = await fails(connect(['windsurf', '--profile', 'demo'], ctx));
    expect(e.message).toContain(path.join(u.userHome, '.codeium', 'windsurf'));
    expect(e.message).toContain('--force');
    expect(existsSync(path.join(u.userHome, '.codeium'))).toBe(false);
    expect(await connect(['windsurf', '--profile', 'demo', '--force'], ctx)).toBe(0);
    expect(existsSync(path.join(u.userHome, '.codeium', 'windsurf', 'mcp_config.json'))).toBe(true);
  });

  it('says "replaced" when the entry it overwrote had been edited by hand, "updated" when it was its own', async () => {
    const file = u.place('cursor', 'several-servers.json');
    expect(await connect(['cursor', '--profile', 'demo'], ctx)).toBe(0);
    expect(out).toContain('added "switchboard-demo" to');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"shim"', '"shim", "--hand-edited"'));
    out = '';
    expect(await connect(['cursor', '--profile', 'demo'], ctx)).toBe(0);
    expect(out).toContain('replaced the existing "switchboard-demo" entry (it had been changed by hand or by another program)');
    expect(out).not.toContain('added');
    // An entry someone else wrote under our name, with no record of ours, is also a replacement.
    const other = u.place('windsurf', 'several-servers.json');
    writeFileSync(other, readFileSync(other, 'utf8').replace('"mcpServers": {', '"mcpServers": {\n    "switchboard-demo": { "command": "old" },'));
    out = '';
    expect(await connect(['windsurf', '--profile', 'demo'], ctx)).toBe(0);
    expect(out).toContain('replaced the existing "switchboard-demo" entry');
  });

  it('says what to do next in the client, and offers to trust a folder for Gemini CLI', async () => {
    u.place('cursor', 'several-servers.json');
    expect(await connect(['cursor', '--profile', 'demo'], ctx)).toBe(0);
    expect(out).toContain('Next: Open Cursor Settings');
    out = '';
    const trust = path.join(u.userHome, '.gemini', 'trustedFolders.json');
    u.place('gemini-cli', 'several-servers.json');
    expect(await connect(['gemini-cli', '--profile', 'demo'], ctx)).toBe(0);
    expect(out).toContain('Next: Start a new Gemini CLI session in a folder you trust');
    expect(out).toContain(`switchboard connect gemini-cli --profile demo --trust-folder DIR   (adds DIR to ${trust})`);
    expect(existsSync(trust)).toBe(false);

    copyFileSync(path.join(FIXTURES, 'gemini-trustedFolders.json'), trust);
    const before = readFileSync(trust, 'utf8');
    const work = path.join(u.root, 'my project');
    out = '';
    expect(await connect(['gemini-cli', '--profile', 'demo', '--trust-folder', work], ctx)).toBe(0);
    expect(out).toContain(`Trusted ${work} in ${trust}`);
    const after = readFileSync(trust, 'utf8');
    // Byte-preserving: CRLF and tabs kept, one entry appended, nothing else touched.
    expect(singleInsertion(before, after)).toBe(`,\r\n\t${JSON.stringify(work)}: "TRUST_FOLDER"`);
    expect(await u.connector('gemini-cli').isTrusted(work)).toBe(true);
    // As in Gemini CLI, trusting a folder covers everything under it, not its neighbours.
    expect(await u.connector('gemini-cli').isTrusted(path.join(work, 'src', 'app'))).toBe(true);
    expect(await u.connector('gemini-cli').isTrusted(`${work}-other`)).toBe(false);
    expect(await u.connector('gemini-cli').isTrusted(u.root)).toBe(false);
    out = '';
    expect(await connect(['gemini-cli', '--profile', 'demo', '--trust-folder', work], ctx)).toBe(0);
    expect(out).toContain('is already trusted');
    // Undo of the MCP file never touches the trust list.
    expect(readFileSync(trust, 'utf8')).toBe(after);
  });

  it('does not repeat the untrusted-folder hint on a second connect once a folder is trusted (Gemini CLI and Qwen Code)', async () => {
    for (const [id, dir] of [['gemini-cli', '.gemini'], ['qwen-code', '.qwen']] as const) {
      u.place(id, 'several-servers.json');
      const work = path.join(u.root, `work-${id}`);
      out = '';
      expect(await connect([id, '--profile', 'demo'], ctx)).toBe(0);
      expect(out, id).toContain('ignores MCP servers in folders it does not trust');
      out = '';
      expect(await connect([id, '--profile', 'demo', '--trust-folder', work], ctx)).toBe(0);
      out = '';
      expect(await connect([id, '--profile', 'demo'], ctx)).toBe(0);
      expect(out, id).toContain('already connected');
      expect(out, id).not.toContain('does not trust');
      expect(out, id).not.toContain('--trust-folder');
      expect(out, id).toContain(`loads the entry in sessions started in ${work} (its trusted folders)`);
      expect(existsSync(path.join(u.userHome, dir, 'trustedFolders.json'))).toBe(true);
    }
  });

  it('prints numbered copy-paste steps for Jan, BoltAI and Witsy with the real shim command, exits 0 and writes nothing', async () => {
    const shim = ctx.shimEntry('demo');
    for (const id of ['jan', 'boltai', 'trae', 'witsy']) {
      const before = readdirSync(u.root, { recursive: true }).sort();
      const beforeHome = readdirSync(u.sbHome, { recursive: true }).sort();
      out = '';
      // Not installed here: the steps still show (nothing is written, so nothing needs --force).
      expect(await connect([id, '--profile', 'demo'], ctx), id).toBe(0);
      expect(out, id).toMatch(/keeps its MCP servers in its own settings, so Switchboard writes nothing/);
      expect(out, id).toMatch(/^ {2}1\. /m);
      expect(out, id).toMatch(/^ {2}3\. /m);
      expect(out, id).toContain(shim.command);
      for (const a of shim.args) expect(out, `${id}: ${a}`).toContain(a);
      expect(out, id).toContain(`--client`);
      expect(out, id).toContain('switchboard-demo');
      expect(readdirSync(u.root, { recursive: true }).sort(), id).toEqual(before);
      expect(readdirSync(u.sbHome, { recursive: true }).sort(), id).toEqual(beforeHome);
    }
    // The listing says which kind each client is.
    out = '';
    expect(await clientsCmd(['--json'], ctx)).toBe(0);
    const listed = JSON.parse(out) as { id: string; kind: string; configPath: string }[];
    expect(listed.length).toBeGreaterThanOrEqual(36);
    expect(listed.filter((c) => c.kind === 'copy-paste').map((c) => c.id).sort()).toEqual(['boltai', 'jan', 'trae', 'witsy']);
    expect(listed.find((c) => c.id === 'jan')!.configPath).toBe('');
    out = '';
    expect(await clientsCmd([], ctx)).toBe(0);
    expect(out).toContain('copy-paste: "switchboard connect jan --profile NAME" prints the steps');
  });

  it("counts Cursor's CLI as installed by its own installer folder or settings file, not by the editor's ~/.cursor", async () => {
    u.place('cursor', 'several-servers.json');
    expect(u.connector('cursor').installed()).toBe(true);
    expect(u.connector('cursor-cli').installed()).toBe(false);
    expect((await fails(importCmd(['cursor-cli'], ctx))).message).toMatch(/Cursor CLI does not seem to be installed/);
    writeFileSync(path.join(u.userHome, '.cursor', 'cli-config.json'), '{}');
    expect(u.connector('cursor-cli').installed()).toBe(true);
  });

  it("connects Cursor's CLI through Cursor's own file once: the second connect finds the entry and says the file is shared", async () => {
    const file = u.place('cursor', 'several-servers.json');
    mkdirSync(path.join(u.userHome, '.local', 'share', 'cursor-agent'), { recursive: true }); // where its installer puts it
    expect(await connect(['cursor', '--profile', 'demo'], ctx)).toBe(0);
    const afterCursor = readFileSync(file);
    out = '';
    expect(await connect(['cursor-cli', '--profile', 'demo'], ctx)).toBe(0);
    expect(out).toContain('Cursor CLI is already connected to profile "demo"');
    expect(out).toContain(`Cursor CLI reads Cursor's file (${file})`);
    expect(readFileSync(file).equals(afterCursor)).toBe(true);
    // One write record for both: undo from either id restores the same backup.
    expect(await undo(['cursor-cli'], ctx)).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers['switchboard-demo']).toBeUndefined();
  });

  it("imports Amazon Q's servers from default.json and from the legacy mcp.json it still reads, the current file winning", async () => {
    u.place('amazon-q', 'amazonq-default.json');
    copyFileSync(path.join(FIXTURES, 'amazonq-legacy-mcp.json'), path.join(u.userHome, '.aws', 'amazonq', 'mcp.json'));
    out = '';
    expect(await importCmd(['amazon-q', '--apply'], ctx)).toBe(0);
    expect(out).toContain(`also read: ${path.join(u.userHome, '.aws', 'amazonq', 'mcp.json')}`);
    const servers = readConfig().servers as Record<string, { args?: string[] }>;
    expect(servers['cdk']).toMatchObject({ command: 'uvx', args: ['awslabs.cdk-mcp-server@latest'] });
    const docs = Object.entries(servers).find(([, v]) => v.args?.[0]?.startsWith('awslabs.aws-documentation'));
    expect(docs?.[1].args).toEqual(['awslabs.aws-documentation-mcp-server@latest']);
    expect(Object.values(servers).some((v) => v.args?.[0] === 'old-version@1')).toBe(false);
  });

  it('undo refusals point to disconnect', async () => {
    expect((await fails(undo(['cursor'], ctx))).message).toContain('switchboard disconnect cursor --profile NAME');
    const file = u.place('cursor', 'several-servers.json');
    await connect(['cursor', '--profile', 'demo'], ctx);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Ctrl+Space', 'Ctrl+Alt+Space'));
    const e = await fails(undo(['cursor'], ctx));
    expect(e.message).toContain('was changed after Switchboard');
    expect(e.message).toContain('switchboard disconnect cursor --profile demo');
  });

  it('says so when a client does not exist on this OS (Visual Studio on Linux)', async () => {
    expect((await fails(connect(['visual-studio', '--profile', 'demo'], ctx))).message).toMatch(/^Visual Studio does not run on this operating system\. Install it first, or pass --force/);
  });

  it('requires --profile and one client', async () => {
    expect((await fails(connect(['cursor'], ctx))).code).toBe('bad-request');
    expect((await fails(connect(['--profile', 'demo'], ctx))).code).toBe('bad-request');
  });
});

describe('import command', () => {
  it('dry run prints exact commands, hides secret values, and writes nothing', async () => {
    u.place('claude-desktop', 'several-servers.json');
    const before = readFileSync(configFile());
    expect(await importCmd(['claude-desktop'], ctx)).toBe(0);
    expect(out).toContain('+ filesystem: command "npx"; args ["-y","@modelcontextprotocol/server-filesystem","/Users/me/Desktop","/Users/me/My Documents"]');
    expect(out).toContain('+ github: command "docker"');
    expect(out).toContain('env GITHUB_PERSONAL_ACCESS_TOKEN (values copied as they are, not shown)');
    expect(out).not.toContain('ghp_exampletoken123');
    expect(out).toContain('+ linear: url https://mcp.linear.app/sse; transport sse');
    expect(out).toContain('Dry run: nothing was written');
    expect(readFileSync(configFile()).equals(before)).toBe(true);
  });

  it('--apply adds the servers with secrets as they were, skipping duplicates', async () => {
    u.place('cursor', 'comments-trailing-commas.json');
    expect(await importCmd(['cursor', '--apply'], ctx)).toBe(0);
    const cfg = readConfig();
    expect(cfg.servers['mem']).toBeDefined();
    // "memory" runs the same launch under another name in the client: not added twice.
    expect(cfg.servers['memory']).toBeUndefined();
    expect(out).toContain('= memory: already in Switchboard as "mem" (the same command, arguments and settings)');
    // Both are in the person's own profile, apart from the demo.
    expect(cfg.profiles['my-tools']!.servers).toEqual(['mem', 'weird-name']);
    expect(cfg.profiles['demo']!.servers).toEqual(['mem']);
    expect(cfg.servers['weird-name']).toEqual({ command: 'uvx', args: ['mcp-server-time', '--local-timezone=Europe/Berlin'] });
  });

  it('--replace swaps the imported entries for one Switchboard entry, and undo restores the client file', async () => {
    const file = u.place('claude-desktop', 'several-servers.json');
    const original = readFileSync(file);
    expect(await importCmd(['claude-desktop', '--replace'], ctx)).toBe(0);
    const cfg = readConfig();
    expect(cfg.servers['github']).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_exampletoken123' } });
    expect(cfg.profiles['my-tools']!.servers.sort()).toEqual(['filesystem', 'github', 'linear']);
    expect(cfg.profiles['claude-desktop']).toBeUndefined();
    const client = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(client.mcpServers)).toEqual(['switchboard-my-tools']);
    expect(client.globalShortcut).toBe('Ctrl+Space');
    expect(client.preferences.unknownFutureKey).toEqual([1, 2, { x: null }]);
    expect(readdirSync(path.join(u.sbHome, 'backups', 'claude-desktop'))).toHaveLength(1);
    expect(await undo(['claude-desktop'], ctx)).toBe(0);
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it("--replace also takes out the app's demo entry: it gets its own tools, not the demo's", async () => {
    const file = u.place('cursor', 'several-servers.json');
    expect(await connect(['cursor', '--profile', 'demo'], ctx)).toBe(0);
    out = '';
    expect(await importCmd(['cursor'], ctx)).toBe(0);
    expect(out).toContain(`With --replace, Cursor's demo entry goes too ("switchboard-demo")`);
    expect(await importCmd(['cursor', '--replace'], ctx)).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).mcpServers)).toEqual(['switchboard-my-tools']);
  });

  it('reads YAML clients: Goose\'s cmd/envs entries (its built-ins skipped) and Continue\'s named list', async () => {
    u.place('goose', 'goose-config.yaml');
    expect(await importCmd(['goose'], ctx)).toBe(0);
    expect(out).toContain('+ github: command "npx"; args ["-y","@modelcontextprotocol/server-github"]');
    expect(out).toContain('env GITHUB_PERSONAL_ACCESS_TOKEN (values copied as they are, not shown)');
    expect(out).toMatch(/developer.*built into the client \(type builtin\)/);
    out = '';
    u.place('continue', 'continue-config.yaml');
    expect(await importCmd(['continue'], ctx)).toBe(0);
    expect(out).toContain('+ SQLite-MCP (was "SQLite MCP"): command "npx"; args ["-y","mcp-sqlite","/Users/me/db.sqlite"]');
    expect(out).toContain('+ Browser-search (was "Browser search"): command "npx"; args ["@playwright/mcp@latest"]');
  });

  it('a name clash with a different server gets a name saying where it came from, and the dry run says why', async () => {
    const c = readConfig();
    writeFileSync(configFile(), JSON.stringify({ ...c, servers: { ...c.servers, github: { url: 'https://other.example/mcp' } } }));
    u.place('claude-desktop', 'several-servers.json');
    await importCmd(['claude-desktop'], ctx);
    expect(out).toContain('+ github-claude-desktop (was "github"; Switchboard already has a different server called "github"): command "docker"');
    await importCmd(['claude-desktop', '--apply'], ctx);
    expect(readConfig().servers['github-claude-desktop']).toMatchObject({ command: 'docker' });
    expect(readConfig().servers['github']).toEqual({ url: 'https://other.example/mcp' });
  });

  it('refuses an unparseable client file and a client that is not installed', async () => {
    u.place('cursor', 'invalid.json');
    expect((await fails(importCmd(['cursor'], ctx))).message).toMatch(/not valid JSON \(line 4, column 5/);
    expect((await fails(importCmd(['lmstudio'], ctx))).message).toMatch(/LM Studio does not seem to be installed/);
  });
});

describe('clients command', () => {
  it('lists every known client with its path, installed state and connected profiles', async () => {
    u.place('cursor', 'several-servers.json');
    await connect(['cursor', '--profile', 'demo'], ctx);
    out = '';
    expect(await clientsCmd(['--json'], ctx)).toBe(0);
    const list = JSON.parse(out) as { id: string; name: string; configPath: string; installed: boolean; connected: string[] }[];
    expect(list.length).toBeGreaterThanOrEqual(25);
    expect(list.find((c) => c.id === 'cursor')).toEqual({
      id: 'cursor',
      name: 'Cursor',
      configPath: path.join(u.userHome, '.cursor', 'mcp.json'),
      kind: 'file',
      installed: true,
      connected: ['demo'],
    });
    // Cursor's CLI reads the same file, so it shows the same connection.
    expect(list.find((c) => c.id === 'cursor-cli')).toMatchObject({ configPath: path.join(u.userHome, '.cursor', 'mcp.json'), connected: ['demo'] });
    expect(list.find((c) => c.id === 'zed')).toMatchObject({ installed: false, connected: [] });
    for (const c of list) expect(Object.keys(c).sort()).toEqual(['configPath', 'connected', 'id', 'installed', 'kind', 'name']);
    u.place('windsurf', 'invalid.json');
    out = '';
    expect(await clientsCmd([], ctx)).toBe(0);
    expect(out).toMatch(/cursor\s+Cursor · connected: demo/);
    expect(out).toMatch(/windsurf\s+Windsurf · unreadable: .*not valid JSON/);
  });
});
