// .mcpb bundles built here with fflate: the approval screen shows the unpacked command line, a
// sensitive user_config value goes to the secret store (never config.json), nothing is unpacked
// before the yes, and the installed server really runs (a real MCP client through the shim gets
// the secret in its env). Hostile zips (paths outside the bundle, no manifest) are refused whole.
import { zipSync, strToU8 } from 'fflate';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src-main/cli/command-context.ts';
import { catalogContext, failure } from './helpers.ts';
import { run as install } from '../../../src-main/cli/commands/install.ts';
import { cleanupHomes, makeHome, shimClient } from '../../helpers/home.ts';

// A dependency-free stdio MCP server: one tool that reports its argv and whether it got the key.
const SERVER = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') send({ id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bundled', version: '1.0.0' } } });
  else if (msg.method === 'tools/list') send({ id: msg.id, result: { tools: [{ name: 'whoami', description: 'Says how it was started.', inputSchema: { type: 'object' } }] } });
  else if (msg.method === 'tools/call') send({ id: msg.id, result: { content: [{ type: 'text', text: 'dir=' + process.argv[3] + ' key=' + process.env.NOTES_KEY } ] } });
  else send({ id: msg.id, error: { code: -32601, message: 'no' } });
});
`;

function manifest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name: 'notes-bundle',
    display_name: 'Notes',
    version: '1.0.0',
    description: 'Notes on your disk.',
    author: { name: 'Example Co' },
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: { command: process.execPath, args: ['${__dirname}/server/index.mjs', '--dir', '${user_config.folder}'], env: { NOTES_KEY: '${user_config.api_key}' } },
    },
    user_config: {
      folder: { type: 'directory', title: 'Notes folder', description: 'Where your notes are', required: true },
      api_key: { type: 'string', title: 'API key', description: 'Your notes key', sensitive: true, required: true },
    },
    ...extra,
  };
}

function bundle(files: Record<string, string>): string {
  const file = path.join(root, 'notes.mcpb');
  writeFileSync(file, zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));
  return file;
}

let root: string;
let home: string;
let out: string;
let ctx: CliContext;
const answering = (...a: (string | null)[]) => ({ ask: async () => (a.length ? a.shift()! : null), loginPath: async () => '' });

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sb-bundle-'));
  home = makeHome({ servers: {}, profiles: {} });
  out = '';
  ctx = catalogContext(home, { PATH: path.dirname(process.execPath), HOME: root }, (s) => void (out += s), process.platform);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));
afterAll(cleanupHomes);

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const fails = async (p: Promise<number>) => (await failure(p)).message;

describe('.mcpb bundles', () => {
  it('asks for user_config, shows the command, unpacks only after yes, and the server runs', { timeout: 60_000 }, async () => {
    const file = bundle({ 'manifest.json': JSON.stringify(manifest()), 'server/index.mjs': SERVER });
    // Named by its content: name, version and the first 32 hex characters of the file's SHA-256.
    const dir = path.join(home, 'bundles', `notes-bundle-1.0.0-${sha256(file).slice(0, 32)}`);
    const notes = path.join(root, 'My Notes');
    mkdirSync(notes);

    // One `n` ends it: the values are asked only after the yes.
    expect(await install([file], ctx, answering('n'))).toBe(1);
    expect(out).toContain('notes-bundle needs 2 value(s), asked after your yes: Notes folder, API key.');
    expect(out).toContain('Nothing was written.');
    expect(existsSync(dir)).toBe(false);
    expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).servers).toEqual({});

    out = '';
    expect(await install([file], ctx, answering('y', notes, 'key-123'))).toBe(0);
    expect(out).toContain('Bundle notes-bundle 1.0.0: 2 files, node server (server/index.mjs).');
    expect(out).toContain(`Server "notes-bundle" from notes-bundle 1.0.0 (bundle notes-bundle 1.0.0 by Example Co, unpacked to ${dir})`);
    expect(out).toContain(`  args:    ${JSON.stringify([`${dir}/server/index.mjs`, '--dir', notes])}`);
    expect(out).toContain('  env NOTES_KEY = { "secret": "notes-bundle.NOTES_KEY" }');
    const text = readFileSync(path.join(home, 'config.json'), 'utf8');
    expect(text).not.toContain('key-123');
    const cfg = JSON.parse(text);
    expect(cfg.servers['notes-bundle']).toEqual({
      command: process.execPath,
      args: [`${dir}/server/index.mjs`, '--dir', notes],
      env: { NOTES_KEY: { secret: 'notes-bundle.NOTES_KEY' } },
    });
    expect(readFileSync(path.join(dir, 'server', 'index.mjs'), 'utf8')).toBe(SERVER);

    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ ...cfg, profiles: { b: { servers: ['notes-bundle'] } } }));
    const client = await shimClient(home, 'b');
    try {
      const r = (await client.callTool({ name: 'notes-bundle__whoami', arguments: {} })) as { content: { text: string }[] };
      expect(r.content[0]!.text).toBe(`dir=${notes} key=key-123`);
    } finally {
      await client.close();
    }
  });

  it('refuses a zip with a path outside the bundle, and writes nothing', async () => {
    const file = bundle({ 'manifest.json': JSON.stringify(manifest()), '../../escape.txt': 'x', 'server/index.mjs': SERVER });
    expect(await fails(install([file, '--yes'], ctx, answering('/tmp', 'k')))).toMatch(/points outside the bundle/);
    expect(existsSync(path.join(home, 'bundles'))).toBe(false);
    expect(existsSync(path.join(root, '..', 'escape.txt'))).toBe(false);
  });

  it('refuses a zip without manifest.json, a broken zip, and a secret on the command line', async () => {
    expect(await fails(install([bundle({ 'server/index.mjs': SERVER })], ctx, answering()))).toMatch(/no manifest\.json at its root/);
    const broken = path.join(root, 'broken.mcpb');
    writeFileSync(broken, 'not a zip');
    expect(await fails(install([broken], ctx, answering()))).toMatch(/not a readable zip file/);
    const m = manifest();
    (m.server as { mcp_config: { args: string[] } }).mcp_config.args.push('--key=${user_config.api_key}');
    expect(await fails(install([bundle({ 'manifest.json': JSON.stringify(m) })], ctx, answering()))).toMatch(/sensitive value into the command line/);
    expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).servers).toEqual({});
  });
});
