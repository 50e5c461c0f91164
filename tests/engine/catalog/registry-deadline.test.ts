// Finding 4 of issue 20: a registry that answers 200, `{`, then one space every 500 ms held
// `install` past 45 s. Every registry request now has one deadline for all of it, enforced on the
// socket: the install, the search and the Catalog page's methods end at it with the usual
// "Nothing was changed" sentence, and the registry sees its connection closed. The deadline is
// 15 s; SWITCHBOARD_REGISTRY_TIMEOUT_MS shortens it so these tests take about a second each.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run as install } from '../../../src-main/cli/commands/install.ts';
import { run as search } from '../../../src-main/cli/commands/search.ts';
import { catalogHandlers } from '../../../src-main/engine/catalog/catalog-control.ts';
import { REGISTRY_TIMEOUT_MS, registryTimeoutMs } from '../../../src-main/engine/catalog/registry-client.ts';
import { FileSecretStore } from '../../../src-main/engine/secrets/secret-store.ts';
import { startStallingServer, type StallingServer } from '../../fixtures/registry/stalling-server.ts';
import { cleanupHomes, makeHome } from '../../helpers/home.ts';
import { catalogContext, failure } from './helpers.ts';
import { runCli } from './run-cli.ts';

const DEADLINE_MS = 1000;
const env = { PATH: '', SWITCHBOARD_REGISTRY_TIMEOUT_MS: String(DEADLINE_MS) };
const SENTENCE = (url: string) => `Could not reach the MCP Registry at ${url} (no complete answer within 1 s). Nothing was changed; check your connection, or settings.registry in config.json.`;

let stall: StallingServer;
let home: string;
let root: string;

beforeEach(async () => {
  stall = await startStallingServer();
  root = mkdtempSync(path.join(os.tmpdir(), 'sb-deadline-'));
  home = makeHome({ settings: { registry: stall.url }, servers: {}, profiles: {} });
});
afterEach(async () => {
  await stall.close();
  rmSync(root, { recursive: true, force: true });
});
afterAll(cleanupHomes);

async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await p;
  return { value, ms: Date.now() - t0 };
}

describe('a registry that never finishes its answer', () => {
  it('install io.evil/slow --yes ends at the deadline with the usual sentence, and the registry sees its socket closed', async () => {
    const before = readFileSync(path.join(home, 'config.json'));
    const { value: e, ms } = await timed(failure(install(['io.evil/slow', '--yes'], catalogContext(home, env, () => undefined))));
    expect(e).toMatchObject({ code: 'upstream-error', message: SENTENCE(stall.url) });
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan(DEADLINE_MS + 1500);
    await expect.poll(() => stall.closedAfterMs.length).toBe(1);
    expect(stall.closedAfterMs[0]).toBeLessThan(DEADLINE_MS + 1500);
    expect(readFileSync(path.join(home, 'config.json')).equals(before)).toBe(true);
  });

  it('the same from the command line: exit code, the sentence on stderr, nothing else', { timeout: 60_000 }, async () => {
    const r = await runCli(home, ['install', 'io.evil/slow', '--yes'], { env });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(`switchboard: ${SENTENCE(stall.url)}`);
    expect(r.stdout).toBe('');
  });

  it('search, and a registry that sends nothing at all, end at the deadline too', async () => {
    const silent = await startStallingServer('silent');
    try {
      for (const url of [stall.url, silent.url]) {
        writeFileSync(path.join(home, 'config.json'), JSON.stringify({ settings: { registry: url }, servers: {}, profiles: {} }));
        const { value: e, ms } = await timed(failure(search(['weather'], catalogContext(home, env, () => undefined))));
        expect(e.message).toBe(SENTENCE(url));
        expect(ms).toBeLessThan(DEADLINE_MS + 1500);
      }
      await expect.poll(() => silent.closedAfterMs.length).toBe(1);
    } finally {
      await silent.close();
    }
  });

  it('the Catalog page (catalog.search, catalog.prepare, catalog.install) gets the same sentence at the deadline (search as its `offline` note)', async () => {
    const servers: Record<string, unknown> = {};
    const h = catalogHandlers({
      home: root,
      env,
      platform: 'linux',
      registry: () => stall.url,
      servers: () => servers,
      setServer: async (name, cfg) => void (servers[name] = cfg),
      secrets: new FileSecretStore(path.join(root, 'secrets.json')),
      loginPath: async () => '',
    });
    // A search still answers, with the servers shipped with the app and the sentence as `offline`.
    const search = await timed(h['catalog.search']({ text: 'slow' }));
    expect(search.value.offline).toBe(SENTENCE(stall.url));
    expect(search.ms).toBeLessThan(DEADLINE_MS + 1500);
    const calls = [() => h['catalog.prepare']({ name: 'io.evil/slow' }), () => h['catalog.install']({ name: 'io.evil/slow', approved: true, answers: {} })];
    for (const call of calls) {
      const { value: e, ms } = await timed(call().then(() => null, (err: Error) => err));
      expect(e?.message).toBe(SENTENCE(stall.url));
      expect(ms).toBeLessThan(DEADLINE_MS + 1500);
    }
    expect(servers).toEqual({});
  });

  it('the deadline is 15 s unless the environment names a shorter one', () => {
    expect(REGISTRY_TIMEOUT_MS).toBe(15_000);
    expect(registryTimeoutMs({})).toBe(15_000);
    expect(registryTimeoutMs({ SWITCHBOARD_REGISTRY_TIMEOUT_MS: '1000' })).toBe(1000);
    expect(registryTimeoutMs({ SWITCHBOARD_REGISTRY_TIMEOUT_MS: '999999' })).toBe(15_000);
    expect(registryTimeoutMs({ SWITCHBOARD_REGISTRY_TIMEOUT_MS: 'soon' })).toBe(15_000);
  });
});
