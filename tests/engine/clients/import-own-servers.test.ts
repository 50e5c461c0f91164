// A home like a real one: Claude Desktop with a filesystem server and two memory servers that
// keep different data files, Cursor with the everything server — imported through a real
// `switchboard serve` (the demo config it writes on first start beside them), then used through
// the real shim. Their servers stay theirs: two launches that differ are two servers.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlApi, ControlMethod } from '../../../src-shared/api.ts';
import type { ErrorData } from '../../../src-shared/errors.ts';
import { cleanupHomes, makeHome, referenceServer, shimClient, waitFor } from '../../helpers/home.ts';
import { serve, type Served } from '../../helpers/serve.ts';

let s: Served;
let home: string;
let user: string;
let claudeFile: string;
let cursorFile: string;
let notesA: string;
let notesB: string;

const memory = (file: string) => ({ ...referenceServer('memory'), env: { MEMORY_FILE_PATH: file } });

// Cursor's file as a person edited it: comments, three-space steps, entries nine spaces in.
function cursorText(): string {
  const everything = JSON.stringify(referenceServer('everything'));
  const mem = JSON.stringify(memory(notesA));
  return (
    '// my Cursor servers\n' +
    '{\n' +
    '   "mcpServers": {   /* edited by hand */\n' +
    `         "everything": ${everything},\n` +
    `         "memory": ${mem},\n` +
    `         "memory-copy": ${mem}\n` +
    '   },\n' +
    '   "editor.fontSize": 13 // keep\n' +
    '}\n'
  );
}

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

const config = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { servers: Record<string, unknown>; profiles: Record<string, { servers: string[] }> };

beforeAll(async () => {
  user = mkdtempSync(path.join(os.tmpdir(), 'sb-own-user-'));
  notesA = path.join(user, 'notes', 'personal.jsonl');
  notesB = path.join(user, 'notes', 'todo.jsonl');
  mkdirSync(path.dirname(notesA), { recursive: true });
  mkdirSync(path.join(user, 'Documents'));
  claudeFile = path.join(user, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claudeFile), { recursive: true });
  writeFileSync(
    claudeFile,
    JSON.stringify(
      {
        mcpServers: {
          filesystem: referenceServer('filesystem', [path.join(user, 'Documents')]),
          memory: memory(notesA),
          todo: memory(notesB),
        },
      },
      null,
      2,
    ) + '\n',
  );
  cursorFile = path.join(user, '.cursor', 'mcp.json');
  mkdirSync(path.dirname(cursorFile), { recursive: true });
  writeFileSync(cursorFile, cursorText());
  home = makeHome(); // no config.json: the engine writes the first-run demo
  s = await serve(home, { HOME: user, XDG_CONFIG_HOME: path.join(user, '.config') });
}, 60_000);

afterAll(async () => {
  await s?.stop();
  await cleanupHomes();
  rmSync(user, { recursive: true, force: true });
});

describe("importing a person's own servers", () => {
  it('keeps two memory servers with different data files apart, each writing its own file', async () => {
    const plan = await call('clients.importPlan', { client: 'claude-desktop' });
    expect(plan.entries.map((e) => [e.action, e.clientName, e.action === 'add' ? e.name : e.action === 'duplicate' ? e.existing : '', e.action === 'add' ? (e.taken ?? null) : null])).toEqual([
      ['add', 'filesystem', 'filesystem', null],
      // The demo has a memory server of its own (another data file): a clear new name, saying why.
      ['add', 'memory', 'memory-claude-desktop', 'memory'],
      ['add', 'todo', 'todo', null],
    ]);
    expect(plan.replaceProfile).toBe('my-tools');

    const out = await call('clients.importApply', { client: 'claude-desktop', replace: true });
    expect(out.added).toEqual(['filesystem', 'memory-claude-desktop', 'todo']);
    expect(out.profile).toBe('my-tools');
    const cfg = config();
    expect(cfg.profiles['my-tools']!.servers).toEqual(['filesystem', 'memory-claude-desktop', 'todo']);
    // The demo stays as it was, apart from the person's profile.
    expect(cfg.profiles['demo']!.servers).toEqual(['everything', 'memory', 'files']);
    expect(Object.keys(JSON.parse(readFileSync(claudeFile, 'utf8')).mcpServers)).toEqual(['switchboard-my-tools']);

    const client = await shimClient(home, 'my-tools', { name: 'claude-ai' });
    try {
      const names = await waitFor(async () => {
        const n = (await client.listTools()).tools.map((t) => t.name);
        return n.includes('memory-claude-desktop__create_entities') && n.includes('todo__create_entities') && n;
      }, 30_000, 'both memory servers to be listed');
      expect(names.some((n) => n.startsWith('everything__') || n.startsWith('files__'))).toBe(false);
      const entity = (name: string) => ({ entities: [{ name, entityType: 'note', observations: ['kept apart'] }] });
      expect((await client.callTool({ name: 'memory-claude-desktop__create_entities', arguments: entity('from-personal') })).isError).toBeFalsy();
      expect((await client.callTool({ name: 'todo__create_entities', arguments: entity('from-todo') })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const a = readFileSync(notesA, 'utf8');
    const b = readFileSync(notesB, 'utf8');
    expect(a).toContain('from-personal');
    expect(a).not.toContain('from-todo');
    expect(b).toContain('from-todo');
    expect(b).not.toContain('from-personal');
  }, 60_000);

  it('imports twice with no change to either file', async () => {
    const cfgBefore = readFileSync(path.join(home, 'config.json'));
    const clientBefore = readFileSync(claudeFile);
    const again = await call('clients.importApply', { client: 'claude-desktop', replace: true });
    expect(again).toMatchObject({ added: [], profile: null, replaced: null });
    expect(readFileSync(path.join(home, 'config.json')).equals(cfgBefore)).toBe(true);
    expect(readFileSync(claudeFile).equals(clientBefore)).toBe(true);
  });

  it("brings Cursor's servers into the same profile: a clash gets a clear name, the very same launch is already there, the file keeps its layout", async () => {
    const plan = await call('clients.importPlan', { client: 'cursor' });
    expect(plan.profileServers).toEqual(['filesystem', 'memory-claude-desktop', 'todo']);
    expect(plan.entries).toEqual([
      expect.objectContaining({ action: 'add', clientName: 'everything', name: 'everything-cursor', taken: 'everything' }),
      { action: 'duplicate', clientName: 'memory', existing: 'memory-claude-desktop' },
      { action: 'duplicate', clientName: 'memory-copy', existing: 'memory-claude-desktop' },
    ]);
    const before = readFileSync(cursorFile, 'utf8');
    // Two entries over one server: listed once, in one atomic change.
    const out = await call('clients.importApply', { client: 'cursor', replace: true });
    expect(out.added).toEqual(['everything-cursor']);
    expect(config().profiles['my-tools']!.servers).toEqual(['filesystem', 'memory-claude-desktop', 'todo', 'everything-cursor']);

    // Byte for byte but the edit: the three entries became one, nine spaces in like them.
    const after = readFileSync(cursorFile, 'utf8');
    const head = before.slice(0, before.indexOf('"everything"'));
    const tail = before.slice(before.indexOf('\n   },'));
    expect(after.startsWith(head)).toBe(true);
    expect(after.endsWith(tail)).toBe(true);
    const entry = after.slice(head.length, after.length - tail.length);
    expect(entry.startsWith('"switchboard-my-tools": {\n')).toBe(true);
    const lines = entry.split('\n').slice(1);
    expect(lines.slice(0, -1).every((l) => l.startsWith('            '))).toBe(true);
    expect(lines.at(-1)).toBe('         }');
    expect((await call('clients.list', {})).clients.find((c) => c.id === 'cursor')!.connected).toEqual(['my-tools']);
  });

  it('removes the demo in one step, leaving every server of the person and their apps as they are', async () => {
    const claudeBefore = readFileSync(claudeFile);
    const out = await call('demo.remove', {});
    expect(out.profiles).toEqual(['demo', 'demo-code']);
    expect(out.servers.sort()).toEqual(['everything', 'files', 'memory']);
    expect(out.kept).toBeNull();
    const cfg = config();
    expect(Object.keys(cfg.profiles)).toEqual(['my-tools']);
    expect(Object.keys(cfg.servers).sort()).toEqual(['everything-cursor', 'filesystem', 'memory-claude-desktop', 'todo']);
    expect(readFileSync(claudeFile).equals(claudeBefore)).toBe(true);
    // Nobody wrote to the demo's folder: it goes too.
    expect(out.folder.state).toBe('removed');
    expect(existsSync(path.join(home, 'demo'))).toBe(false);
    // Asked again, there is nothing left to remove.
    expect(await call('demo.remove', {})).toMatchObject({ profiles: [], servers: [], apps: [] });
  });
});
