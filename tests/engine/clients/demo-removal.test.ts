// Removing the demo from a home where an earlier import put the person's servers into it (what
// the tester's home looked like) and an app reaches them through the demo: the demo's servers
// and profiles go, the person's servers move to their own profile, the app is pointed there,
// and a demo folder with the person's notes in it is kept. Real store, real first-run config.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../src-main/engine/config/store.ts';
import { defaultConfig, isDemoServer } from '../../../src-main/engine/config/default-config.ts';
import { removeDemo } from '../../../src-main/engine/clients/demo-removal.ts';
import { defaultShimEntry } from '../../../src-main/engine/platform/shim-entry.ts';
import { referenceServer } from '../../helpers/home.ts';
import { tempUser, type TempUser } from './helpers.ts';

let u: TempUser;
let store: ConfigStore;

beforeEach(async () => {
  u = tempUser();
  mkdirSync(u.sbHome, { recursive: true });
  store = await ConfigStore.open({ file: path.join(u.sbHome, 'config.json'), stateDir: u.sbHome, watch: false, createDefault: () => defaultConfig({ home: u.sbHome, nodePath: process.execPath }) });
});
afterEach(() => {
  store.dispose();
  u.cleanup();
});

const deps = () => ({
  home: u.sbHome,
  env: u.env,
  platform: 'linux' as const,
  updateConfig: (m: (raw: Record<string, unknown>) => Record<string, unknown>) => store.update(m),
  shimEntry: (p: string) => defaultShimEntry(u.sbHome, false, p),
});

describe('removing the demo', () => {
  it('knows the demo servers by what they are given, not by their name or program', () => {
    const cfg = defaultConfig({ home: u.sbHome, nodePath: '/somewhere/else/node' }) as { servers: Record<string, never> };
    for (const [name, s] of Object.entries(cfg.servers)) expect(isDemoServer(u.sbHome, name, s)).toBe(true);
    // The same program with the person's data file is theirs.
    expect(isDemoServer(u.sbHome, 'memory', { ...referenceServer('memory'), env: { MEMORY_FILE_PATH: '/home/me/notes.jsonl' } } as never)).toBe(false);
    expect(isDemoServer(u.sbHome, 'everything', referenceServer('everything') as never)).toBe(false);
  });

  it("moves the person's servers out of the demo into their own profile, points their app there, and keeps a folder they wrote in", async () => {
    const mine = { ...referenceServer('memory'), env: { MEMORY_FILE_PATH: path.join(u.userHome, 'notes.jsonl') } };
    await store.update((raw) => {
      const r = raw as { servers: Record<string, unknown>; profiles: Record<string, { servers: string[] }> };
      return { ...r, servers: { ...r.servers, 'memory-2': mine }, profiles: { ...r.profiles, demo: { ...r.profiles.demo!, servers: [...r.profiles.demo!.servers, 'memory-2'] } } };
    });
    const claude = u.place('claude-desktop', 'several-servers.json');
    await u.connector('claude-desktop').connect('demo', defaultShimEntry(u.sbHome, false, 'demo'));
    writeFileSync(path.join(u.sbHome, 'demo', 'files', 'shopping.txt'), 'milk\n');

    const r = await removeDemo(deps());
    expect(r.profiles).toEqual(['demo', 'demo-code']);
    expect(r.servers.sort()).toEqual(['everything', 'files', 'memory']);
    expect(r.kept).toEqual({ servers: ['memory-2'], profile: 'my-tools' });
    expect(r.apps).toEqual([{ client: 'claude-desktop', displayName: 'Claude Desktop', movedTo: 'my-tools' }]);
    const cfg = JSON.parse(readFileSync(path.join(u.sbHome, 'config.json'), 'utf8'));
    expect(cfg.profiles).toEqual({ 'my-tools': { servers: ['memory-2'] } });
    expect(cfg.servers).toEqual({ 'memory-2': mine });
    const entries = Object.keys(JSON.parse(readFileSync(claude, 'utf8')).mcpServers);
    expect(entries).toContain('switchboard-my-tools');
    expect(entries).not.toContain('switchboard-demo');
    expect(r.folder.state).toBe('kept');
    expect(readFileSync(path.join(u.sbHome, 'demo', 'files', 'shopping.txt'), 'utf8')).toBe('milk\n');
  });

  it('keeps a demo server another profile of the person uses, and its folder with it', async () => {
    await store.update((raw) => ({ ...raw, profiles: { ...(raw.profiles as object), work: { servers: ['files'] } } }));
    const r = await removeDemo(deps());
    expect(r.servers.sort()).toEqual(['everything', 'memory']);
    expect(Object.keys(JSON.parse(readFileSync(path.join(u.sbHome, 'config.json'), 'utf8')).servers)).toEqual(['files']);
    expect(r.folder.state).toBe('kept');
    expect(existsSync(path.join(u.sbHome, 'demo', 'files', 'README.txt'))).toBe(true);
  });
});
