// `switchboard import` is the app's import: the same plan, destination and "already there" rule,
// whether it runs the steps itself (no engine) or asks the running engine. Real binary, real
// client files in a temp $HOME, the first-run demo beside the person's servers.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src-main/engine/config/default-config.ts';
import { cleanupHomes, cli, makeHome, referenceServer } from '../helpers/home.ts';
import { serve } from '../helpers/serve.ts';

const users: string[] = [];
afterAll(async () => {
  await cleanupHomes();
  for (const u of users) rmSync(u, { recursive: true, force: true });
});

let user: string;
let env: NodeJS.ProcessEnv;
let claudeFile: string;

beforeEach(() => {
  user = mkdtempSync(path.join(os.tmpdir(), 'sb-cli-import-'));
  users.push(user);
  env = { ...process.env, HOME: user, XDG_CONFIG_HOME: path.join(user, '.config') };
  claudeFile = path.join(user, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claudeFile), { recursive: true });
  const memory = (file: string) => ({ ...referenceServer('memory'), env: { MEMORY_FILE_PATH: path.join(user, file) } });
  writeFileSync(claudeFile, JSON.stringify({ mcpServers: { memory: memory('personal.jsonl'), todo: memory('todo.jsonl') } }, null, 2) + '\n');
});

const config = (home: string) => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));

describe('switchboard import', () => {
  it('writes nothing on a dry run, not even a first config.json', () => {
    const home = makeHome();
    expect(cli(home, ['import', 'claude-desktop'], undefined, env).stdout).toContain('+ memory: command');
    expect(existsSync(path.join(home, 'config.json'))).toBe(false);
  });

  it('says in its dry run where each server goes and why one gets a new name, then brings both into "my-tools"', () => {
    const home = makeHome();
    // The first-run config, demo and all, as the app writes it.
    writeFileSync(path.join(home, 'config.json'), JSON.stringify(defaultConfig({ home, nodePath: process.execPath }), null, 2));
    const dry = cli(home, ['import', 'claude-desktop'], undefined, env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+ memory-claude-desktop (was "memory"; Switchboard already has a different server called "memory")');
    expect(dry.stdout).toContain('+ todo: command');
    expect(dry.stdout).toContain('They go into your profile "my-tools" (created for them).');
    const r = cli(home, ['import', 'claude-desktop', '--replace'], undefined, env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('They are in profile "my-tools"');
    const cfg = config(home);
    expect(cfg.profiles['my-tools']).toEqual({ servers: ['memory-claude-desktop', 'todo'] });
    expect(cfg.servers.todo.env).toEqual({ MEMORY_FILE_PATH: path.join(user, 'todo.jsonl') });
    expect(cfg.profiles.demo.servers).toEqual(['everything', 'memory', 'files']);
    expect(Object.keys(JSON.parse(readFileSync(claudeFile, 'utf8')).mcpServers)).toEqual(['switchboard-my-tools']);
    // Twice: nothing more to bring over, nothing written.
    const before = readFileSync(path.join(home, 'config.json'));
    expect(cli(home, ['import', 'claude-desktop', '--replace'], undefined, env).stdout).toContain('Nothing to replace in Claude Desktop.');
    expect(readFileSync(path.join(home, 'config.json')).equals(before)).toBe(true);

    const removed = cli(home, ['demo', 'remove'], undefined, env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Removed the demo: profiles demo, demo-code');
    expect(Object.keys(config(home).profiles)).toEqual(['my-tools']);
    expect(Object.keys(config(home).servers).sort()).toEqual(['memory-claude-desktop', 'todo']);
  });

  it('asks a running engine to do the very same import', async () => {
    const home = makeHome();
    const s = await serve(home, { HOME: user, XDG_CONFIG_HOME: path.join(user, '.config') });
    try {
      const r = cli(home, ['import', 'claude-desktop', '--apply'], undefined, env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Added 2 servers to config.json.');
      const cfg = config(home);
      expect(cfg.profiles['my-tools']).toEqual({ servers: ['memory-claude-desktop', 'todo'] });
      expect(Object.keys(cfg.servers)).toEqual(['everything', 'memory', 'files', 'memory-claude-desktop', 'todo']);
    } finally {
      await s.stop();
    }
  }, 60_000);
});
