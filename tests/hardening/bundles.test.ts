// Issue 20, findings 1, 2 and 4, as attacks: a program that may only propose cannot change the
// code an approved bundle runs; a bundle's symbolic links, devices and colliding entries refuse it
// whole and leave no temp folder; a registry that trickles its answer cannot hold an install or
// the Catalog page past the deadline.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { run as install } from '../../src-main/cli/commands/install.ts';
import { catalogHandlers } from '../../src-main/engine/catalog/catalog-control.ts';
import { FileSecretStore } from '../../src-main/engine/secrets/secret-store.ts';
import { hostileBundles, markManifest, markServer, writeZip } from '../engine/catalog/bundle-zip.ts';
import { catalogContext, failure } from '../engine/catalog/helpers.ts';
import { runCli } from '../engine/catalog/run-cli.ts';
import { startStallingServer } from '../fixtures/registry/stalling-server.ts';
import { cleanupHomes, makeHome, shimClient, waitFor } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';
import { serveEngine } from './serve-engine.ts';

afterAll(cleanupHomes);

const config = (home: string) => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { servers: Record<string, { args: string[] }>; profiles: Record<string, unknown> };
const bundle = (dir: string, file: string, mark: string) => writeZip(path.join(dir, file), { 'manifest.json': JSON.stringify(markManifest('weather', '1.0.0')), 'server.js': markServer(mark) });

describe('bundles', () => {
  hardeningCase('attack', 'finding 1: a bundle proposed with an approved one\'s name and version cannot change the code the approved server runs', async (tally) => {
    const home = makeHome({ servers: {}, profiles: {} });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-hard-bundles-'));
    const good = bundle(dir, 'good.mcpb', 'GOOD CODE');
    const evil = bundle(dir, 'evil.mcpb', 'EVIL CODE');
    expect((await runCli(home, ['install', good, '--yes'])).code).toBe(0);
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ ...config(home), profiles: { main: { servers: ['weather'] } } }));
    const engine = await serveEngine(home);
    const client = await shimClient(home, 'main');
    // The tool's answer, or undefined while the server is not ready yet (an error result).
    const which = async (tool: string) => {
      const r = (await client.callTool({ name: tool, arguments: {} })) as CallToolResult;
      return r.isError ? undefined : r.content[0];
    };
    try {
      expect(await waitFor(() => which('weather__which').catch(() => undefined), 30_000, 'weather')).toMatchObject({ text: 'GOOD CODE' });

      await tally.attempt('install evil.mcpb --propose (same name and version): the approved server, restarted, still runs the approved code', async () => {
        const r = await runCli(home, ['install', evil, '--propose']);
        expect(r.code, r.stderr).toBe(0);
        await engine.api('servers.restart', { name: 'weather' });
        expect(await waitFor(() => which('weather__which').catch(() => undefined), 30_000, 'weather again')).toMatchObject({ text: 'GOOD CODE' });
        expect(existsSync(path.dirname(config(home).servers['weather-2']!.args[0]!))).toBe(false);
      });

      await tally.attempt('install evil.mcpb --propose --name weather: refused, the approved entry as it was', async () => {
        const before = config(home).servers.weather;
        const r = await runCli(home, ['install', evil, '--propose', '--name', 'weather']);
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain('config.json already has a server "weather"');
        expect(config(home).servers.weather).toEqual(before);
      });

      await tally.attempt('approving the proposal (the app\'s servers.approve) unpacks it into its own folder; each server runs its own code', async () => {
        await engine.api('servers.approve', { name: 'weather-2' });
        await engine.api('config.set', { path: '/profiles/main/servers', value: ['weather', 'weather-2'] });
        expect(await waitFor(() => which('weather-2__which').catch(() => undefined), 30_000, 'weather-2')).toMatchObject({ text: 'EVIL CODE' });
        expect(await which('weather__which')).toMatchObject({ text: 'GOOD CODE' });
      });

      await tally.attempt('removing an entry in the app removes its folder once no entry names it; the approved server runs on', async () => {
        const evilDir = path.dirname(config(home).servers['weather-2']!.args[0]!);
        await engine.api('config.set', { path: '/profiles/main/servers', value: ['weather'] });
        await engine.api('config.unset', { path: '/servers/weather-2' });
        await waitFor(() => !existsSync(evilDir), 15_000, 'the removed entry\'s folder to go');
        expect(await which('weather__which')).toMatchObject({ text: 'GOOD CODE' });
      });

      await tally.attempt('a proposal approved by editing config.json by hand is unpacked by the engine, and runs its own code', async () => {
        expect((await runCli(home, ['install', bundle(dir, 'third.mcpb', 'THIRD CODE'), '--propose'])).code).toBe(0);
        const cfg = config(home) as unknown as { servers: Record<string, Record<string, unknown>>; profiles: Record<string, unknown> };
        delete cfg.servers['weather-2']!.proposedBy;
        writeFileSync(path.join(home, 'config.json'), JSON.stringify({ ...cfg, profiles: { main: { servers: ['weather', 'weather-2'] } } }));
        expect(await waitFor(() => which('weather-2__which').catch(() => undefined), 30_000, 'the hand-approved weather-2')).toMatchObject({ text: 'THIRD CODE' });
        expect(await which('weather__which')).toMatchObject({ text: 'GOOD CODE' });
      });
    } finally {
      await client.close();
      await engine.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  hardeningCase('attack', 'finding 2: symbolic links, devices, colliding or lying entries refuse a bundle whole; no temp folder outlives a failed or killed install', async (tally) => {
    const home = makeHome({ servers: {}, profiles: {} });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-hard-hostile-'));
    const bundles = path.join(home, 'bundles');
    const ctx = catalogContext(home, { PATH: '', HOME: dir }, () => undefined);
    try {
      for (const [what, make, message] of hostileBundles(JSON.stringify(markManifest('weather', '1.0.0')), markServer('X'))) {
        await tally.attempt(what, async () => {
          const file = path.join(dir, 'hostile.mcpb');
          writeFileSync(file, make());
          expect((await failure(install([file, '--yes'], ctx))).message).toMatch(message);
          expect(existsSync(bundles) ? readdirSync(bundles).filter((n) => !n.startsWith('.')) : []).toEqual([]);
          expect(config(home).servers).toEqual({});
        });
      }
      await tally.attempt('the issue\'s case: a symlink "data" to a folder outside, then "data/pwned.txt"', async () => {
        const outside = path.join(dir, 'outside');
        mkdirSync(outside);
        const file = writeZip(path.join(dir, 'link.mcpb'), { 'manifest.json': JSON.stringify(markManifest('weather', '1.0.0')), data: { data: outside, unix: 0o120777 }, 'data/pwned.txt': 'pwned' });
        expect((await failure(install([file, '--yes'], ctx))).message).toContain('it contains a symbolic link, "data"');
        expect(readdirSync(outside)).toEqual([]);
      });
      await tally.attempt('a killed install\'s temp folder (its pid gone) is cleared by the next install', async () => {
        const leftover = path.join(bundles, 'weather-1.0.0-0123456789abcdef0123456789abcdef.tmp-999999999-1');
        mkdirSync(path.join(leftover, 'lib'), { recursive: true });
        writeFileSync(path.join(leftover, 'lib', 'half.js'), 'half');
        expect(await install([bundle(dir, 'ok.mcpb', 'OK'), '--yes'], ctx)).toBe(0);
        expect(readdirSync(bundles).filter((n) => n.includes('.tmp-'))).toEqual([]);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  hardeningCase('attack', 'finding 4: a registry that sends 200, "{", then a space every 500 ms ends install, search and the Catalog page at the deadline', async (tally) => {
    const deadline = 1000;
    const env = { PATH: '', SWITCHBOARD_REGISTRY_TIMEOUT_MS: String(deadline) };
    for (const mode of ['trickle', 'silent'] as const) {
      const stall = await startStallingServer(mode);
      const home = makeHome({ settings: { registry: stall.url }, servers: {}, profiles: {} });
      const sentence = `Could not reach the MCP Registry at ${stall.url} (no complete answer within 1 s). Nothing was changed`;
      try {
        await tally.attempt(`${mode}: install io.evil/slow --yes`, async () => {
          const t0 = Date.now();
          expect((await failure(install(['io.evil/slow', '--yes'], catalogContext(home, env, () => undefined)))).message).toContain(sentence);
          expect(Date.now() - t0).toBeLessThan(deadline + 1500);
          await waitFor(() => stall.closedAfterMs.length === 1, 3000, 'the registry to see its socket closed');
        });
        await tally.attempt(`${mode}: the Catalog page's search`, async () => {
          const h = catalogHandlers({ home, env, platform: 'linux', registry: () => stall.url, servers: () => ({}), setServer: async () => undefined, secrets: new FileSecretStore(path.join(home, 's.json')), loginPath: async () => '' });
          const t0 = Date.now();
          // Since the shipped catalog the search answers offline instead of failing:
          // the registry's stall ends at the deadline as the sentence, beside the shipped matches.
          const r = await h['catalog.search']({ text: 'slow' });
          expect(r.offline).toContain(sentence);
          expect(Date.now() - t0).toBeLessThan(deadline + 1500);
        });
      } finally {
        await stall.close();
      }
    }
  }, 60_000);
});
