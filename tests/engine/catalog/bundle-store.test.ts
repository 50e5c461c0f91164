// Where bundles are unpacked and kept (issue 20, findings 1 and 2): each bundle in a folder of its
// own named by its content, never written again; a proposed bundle stays packed until approved;
// entries that are not plain files, or that collide, refuse the bundle with one sentence; no
// temp folder outlives an install, not even one killed with SIGKILL.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupHomes, makeHome } from '../../helpers/home.ts';
import { hostileBundles, markManifest, markServer, MODE, writeZip, type Entry } from './bundle-zip.ts';
import { runCli, startCli } from './run-cli.ts';

let root: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sb-bundle-store-'));
  home = makeHome({ servers: {}, profiles: {} });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));
afterAll(cleanupHomes);

const config = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { servers: Record<string, { args: string[]; proposedBy?: string }> };
const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 32);
/** What the server an entry runs says it is (its script run with --print). */
const runs = (entry: { args: string[] }) => execFileSync(process.execPath, [entry.args[0]!, '--print'], { encoding: 'utf8' }).trim();
const bundlesDir = () => path.join(home, 'bundles');

function markBundle(file: string, mark: string, name = 'weather', version = '1.0.0', extra: Record<string, Entry> = {}): string {
  return writeZip(path.join(root, file), { 'manifest.json': JSON.stringify(markManifest(name, version)), 'server.js': markServer(mark), ...extra });
}

/** Every file under bundles/ except the packed pending ones, with its text. */
function unpackedFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!p.startsWith(path.join(bundlesDir(), '.pending') + path.sep) && e.name !== '.lock') out.push(readFileSync(p, 'utf8'));
    }
  };
  if (existsSync(bundlesDir())) walk(bundlesDir());
  return out;
}

const leftovers = () => (existsSync(bundlesDir()) ? readdirSync(bundlesDir()).filter((n) => n.includes('.tmp-')) : []);

describe('a bundle keeps a folder of its own', () => {
  it('finding 1: a proposal with the same name and version leaves the approved bundle\'s code as it was, and is unpacked only on approval', { timeout: 120_000 }, async () => {
    const good = markBundle('good.mcpb', 'GOOD CODE');
    const evil = markBundle('evil.mcpb', 'EVIL CODE');
    expect((await runCli(home, ['install', good, '--yes'])).code).toBe(0);
    const weather = config().servers.weather!;
    expect(runs(weather)).toBe('GOOD CODE');

    const proposed = await runCli(home, ['install', evil, '--propose']);
    expect(proposed.code, proposed.stderr).toBe(0);
    const w2 = config().servers['weather-2']!;
    expect(w2.proposedBy).toBe('the bundle weather 1.0.0');
    // The approved entry still runs what was approved; nothing of the proposal is unpacked anywhere.
    expect(config().servers.weather).toEqual(weather);
    expect(runs(weather)).toBe('GOOD CODE');
    expect(existsSync(path.dirname(w2.args[0]!))).toBe(false);
    // Each folder is named by its bundle's content.
    expect(weather.args[0]).toBe(path.join(bundlesDir(), `weather-1.0.0-${digest(good)}`, 'server.js'));
    expect(w2.args[0]).toBe(path.join(bundlesDir(), `weather-1.0.0-${digest(evil)}`, 'server.js'));
    expect(unpackedFiles().some((t) => t.includes('EVIL CODE'))).toBe(false);

    const approved = await runCli(home, ['approve', 'weather-2', '--yes']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(runs(config().servers['weather-2']!)).toBe('EVIL CODE');
    expect(runs(weather)).toBe('GOOD CODE');
    expect(readdirSync(path.join(bundlesDir(), '.pending'))).toEqual([]);
  });

  it('--yes for a different bundle of the same name and version adds NAME-2 with its own folder; each entry runs its own code', { timeout: 60_000 }, async () => {
    expect((await runCli(home, ['install', markBundle('a.mcpb', 'FIRST'), '--yes'])).code).toBe(0);
    expect((await runCli(home, ['install', markBundle('b.mcpb', 'SECOND'), '--yes'])).code).toBe(0);
    const { weather, 'weather-2': w2 } = config().servers;
    expect(path.dirname(weather!.args[0]!)).not.toBe(path.dirname(w2!.args[0]!));
    expect([runs(weather!), runs(w2!)]).toEqual(['FIRST', 'SECOND']);
  });

  it('the same bundle twice shares one folder, never rewritten; the folder goes once no entry names it', { timeout: 150_000 }, async () => {
    const file = markBundle('same.mcpb', 'SAME');
    expect((await runCli(home, ['install', file, '--yes'])).code).toBe(0);
    const dir = path.dirname(config().servers.weather!.args[0]!);
    const before = statSync(path.join(dir, 'server.js'));
    expect((await runCli(home, ['install', file, '--yes'])).code).toBe(0);
    expect(path.dirname(config().servers['weather-2']!.args[0]!)).toBe(dir);
    const after = statSync(path.join(dir, 'server.js'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);

    // Removing one entry keeps the folder the other still runs; removing both removes it (at the next install).
    const other = markBundle('other.mcpb', 'OTHER', 'other');
    expect((await runCli(home, ['config', 'unset', 'servers.weather'])).code).toBe(0);
    expect((await runCli(home, ['install', other, '--yes'])).code).toBe(0);
    expect(existsSync(dir)).toBe(true);
    expect((await runCli(home, ['config', 'unset', 'servers.weather-2'])).code).toBe(0);
    expect((await runCli(home, ['install', other, '--yes', '--name', 'other-again'])).code).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(runs(config().servers.other!)).toBe('OTHER');
  });

  it('a proposed bundle whose kept file changed after the proposal is refused on approval, and nothing is approved', { timeout: 60_000 }, async () => {
    expect((await runCli(home, ['install', markBundle('p.mcpb', 'PROPOSED'), '--propose'])).code).toBe(0);
    const pending = path.join(bundlesDir(), '.pending');
    const [kept] = readdirSync(pending);
    writeFileSync(path.join(pending, kept!), readFileSync(markBundle('swap.mcpb', 'SWAPPED')));
    const r = await runCli(home, ['approve', 'weather', '--yes']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('is not the one that was proposed');
    expect(config().servers.weather!.proposedBy).toBe('the bundle weather 1.0.0');
    expect(unpackedFiles().some((t) => t.includes('SWAPPED'))).toBe(false);
  });
});

describe('a proposal never takes the place of an entry', () => {
  it('--propose --name of an approved server, a link with --name of one, and a registry update proposed: refused, the entry as it was', { timeout: 60_000 }, async () => {
    const { run } = await import('../../../src-main/cli/commands/install.ts');
    const { catalogContext, failure } = await import('./helpers.ts');
    const { startRegistry } = await import('../../fixtures/registry/registry-server.ts');
    const registry = await startRegistry();
    try {
      writeFileSync(path.join(home, 'config.json'), JSON.stringify({ settings: { registry: registry.url }, servers: {}, profiles: {} }));
      const ctx = catalogContext(home, { PATH: '', HOME: root }, () => undefined);
      const answering = (...a: string[]) => ({ ask: async () => a.shift() ?? null, loginPath: async () => '' });
      expect(await run([markBundle('good.mcpb', 'GOOD'), '--yes'], ctx)).toBe(0);
      expect(await run(['io.github.example/weather', '--version', '1.0.0', '--yes', '--name', 'reg'], ctx, answering('sk', '', ''))).toBe(0);
      const before = config().servers;
      const evil = markBundle('evil.mcpb', 'EVIL');
      const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=${Buffer.from(JSON.stringify({ command: 'sh', args: ['-c', 'evil'] })).toString('base64')}`;
      for (const args of [[evil, '--propose', '--name', 'weather'], [link, '--propose', '--name', 'weather'], [evil, '--yes', '--name', 'weather'], [link, '--yes', '--name', 'weather'], ['io.github.example/weather', '--propose']]) {
        const e = await failure(run(args, ctx, answering()));
        expect(e.message, args.join(' ')).toMatch(/config\.json already has a server "(weather|reg)".*Nothing was written/);
      }
      expect(config().servers).toEqual(before);
      expect(runs(config().servers.weather!)).toBe('GOOD');
    } finally {
      await registry.close();
    }
  });
});

describe('entries that are not plain files, or collide, refuse the bundle', () => {
  const manifest = JSON.stringify(markManifest('weather', '1.0.0'));
  const server = markServer('X');

  it('finding 2: a symlink "data" pointing outside, then "data/pwned.txt": one sentence naming it, no temp folder left', { timeout: 30_000 }, async () => {
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    const file = writeZip(path.join(root, 'link.mcpb'), { 'manifest.json': manifest, 'server.js': server, data: { data: outside, unix: MODE.symlink }, 'data/pwned.txt': 'pwned' });
    const r = await runCli(home, ['install', file, '--yes']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(`switchboard: This is not a bundle Switchboard can install: it contains a symbolic link, "data"; a bundle may hold only files and folders. Nothing was written.`);
    expect(leftovers()).toEqual([]);
    expect(readdirSync(outside)).toEqual([]);
    expect(config().servers).toEqual({});
  });

  it('finding 2: a bundle whose only odd entry is a symlink "server/config-link" is refused, naming it', { timeout: 30_000 }, async () => {
    const file = writeZip(path.join(root, 'cfg.mcpb'), { 'manifest.json': manifest, 'server.js': server, 'server/config-link': { data: '/etc/passwd', unix: MODE.symlink } });
    const r = await runCli(home, ['install', file, '--yes']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('it contains a symbolic link, "server/config-link"');
    expect(existsSync(bundlesDir()) ? readdirSync(bundlesDir()).filter((n) => !n.startsWith('.')) : []).toEqual([]);
    expect(config().servers).toEqual({});
  });

  for (const [what, make, message] of hostileBundles(manifest, server)) {
    it(`refuses ${what}, and writes nothing`, async () => {
      const file = path.join(root, 'hostile.mcpb');
      writeFileSync(file, make());
      const { run } = await import('../../../src-main/cli/commands/install.ts');
      const { catalogContext, failure } = await import('./helpers.ts');
      const e = await failure(run([file, '--yes'], catalogContext(home, { PATH: '', HOME: root }, () => undefined)));
      expect(e.message).toMatch(message);
      expect(e.message).toMatch(/^This is not a bundle Switchboard can install: .*\. Nothing was written\.$/);
      expect(existsSync(bundlesDir()) ? readdirSync(bundlesDir()).filter((n) => !n.startsWith('.')) : []).toEqual([]);
      expect(config().servers).toEqual({});
    });
  }
});

describe('no temp folder outlives an install', () => {
  it('a write that fails half-way (a name too long for the disk) removes the temp folder and says so', async () => {
    const file = markBundle('long.mcpb', 'LONG', 'weather', '1.0.0', { [`${'n'.repeat(300)}.txt`]: 'x' });
    const r = await runCli(home, ['install', file, '--yes']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Could not unpack the bundle into .*bundles \(ENAMETOOLONG\)\. Nothing was written; check the free space and permissions of that folder\./);
    expect(leftovers()).toEqual([]);
    expect(config().servers).toEqual({});
  });

  it('an install killed with SIGKILL mid-unpack leaves a temp folder that the next install clears', { timeout: 60_000 }, async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 6000; i++) many[`lib/m${i}.js`] = `export const v = ${i};\n`.repeat(20);
    const big = markBundle('big.mcpb', 'BIG', 'big', '1.0.0', many);
    const { child, done } = startCli(home, ['install', big, '--yes']);
    // Killed the moment its temp folder has files in it.
    for (;;) {
      const tmp = leftovers()[0];
      if (tmp && existsSync(path.join(bundlesDir(), tmp, 'lib'))) break;
      if (child.exitCode !== null) throw new Error('the install ended before it could be killed; make the bundle bigger');
      await new Promise((r) => setImmediate(r));
    }
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    expect(leftovers()).toHaveLength(1);
    expect(config().servers).toEqual({});

    expect((await runCli(home, ['install', markBundle('next.mcpb', 'NEXT'), '--yes'])).code).toBe(0);
    expect(leftovers()).toEqual([]);
    expect(runs(config().servers.weather!)).toBe('NEXT');
  });
});
