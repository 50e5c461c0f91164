// The catalog that works offline: the servers shipped with the app are valid server.json, each
// says what it does in one sentence and asks for its values as labelled fields with help text;
// with the MCP Registry unreachable the Catalog's methods still list them and add one (secrets to
// the secret store), and a reachable registry adds its own entries after them, without doubles.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { catalogHandlers } from '../../../src-main/engine/catalog/catalog-control.ts';
import { buildPlan } from '../../../src-main/engine/catalog/install-plan.ts';
import { parseServerResponse } from '../../../src-main/engine/catalog/server-json.ts';
import { shippedEntries } from '../../../src-main/engine/catalog/shipped-catalog.ts';
import { SHIPPED_SERVERS } from '../../../src-main/engine/catalog/shipped-servers.ts';
import { SERVER_NAME_RE } from '../../../src-shared/config/schema.ts';
import { FileSecretStore } from '../../../src-main/engine/secrets/secret-store.ts';
import { startRegistry, type LocalRegistry } from '../../fixtures/registry/registry-server.ts';

let root: string;
let servers: Record<string, unknown>;
let secrets: FileSecretStore;
/** A loopback port nothing listens on: the registry is unreachable (ECONNREFUSED). */
let deadRegistry: string;

beforeAll(async () => {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  deadRegistry = `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`;
  await new Promise((r) => s.close(r));
});
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sb-shipped-'));
  servers = {};
  secrets = new FileSecretStore(path.join(root, 'secrets.json'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function handlers(registry: string) {
  return catalogHandlers({
    home: root,
    env: { PATH: '', HOME: root },
    platform: 'linux',
    registry: () => registry,
    servers: () => servers,
    setServer: async (name, cfg) => void (servers[name] = cfg),
    secrets,
    loginPath: async () => '',
  });
}

describe('the servers shipped with the app', () => {
  it('are at least 20, each valid server.json (the parser registry answers go through) with a unique name', () => {
    expect(SHIPPED_SERVERS.length).toBeGreaterThanOrEqual(20);
    for (const s of SHIPPED_SERVERS) expect(parseServerResponse({ server: s.server }), String(s.server.name)).not.toBeNull();
    const names = shippedEntries().map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    // Each goes into config.json under a short name of its own (also the start of its tools' names).
    const keys = SHIPPED_SERVERS.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k).toMatch(SERVER_NAME_RE);
  });

  it('each says what it does in one sentence of at most 100 characters (server.json’s limit) and can be added', () => {
    for (const e of shippedEntries()) {
      expect(e.title, e.name).toBeTruthy();
      expect(e.description, e.name).toMatch(/^[A-Z][^.]*\.$/);
      expect(e.description.length, e.name).toBeLessThanOrEqual(100);
      const plan = buildPlan(e);
      if (plan.kind === 'remote') expect(e.remotes[0]!.url, e.name).toMatch(/^https:\/\//);
      else expect(['npx', 'uvx'], e.name).toContain(plan.command);
    }
  });

  it('asks every value with a plain label and help text, and keeps keys, tokens and passwords secret', async () => {
    const h = handlers(deadRegistry);
    let fields = 0;
    for (const e of shippedEntries()) {
      const p = await h['catalog.prepare']({ name: e.name });
      expect(p.shipped, e.name).toBe(true);
      for (const i of p.inputs) {
        fields++;
        expect(i.label, e.name).not.toMatch(/^(env|header|argument) |[A-Z_]{4,}/);
        expect(i.description, `${e.name} ${i.label}`).toBeTruthy();
        if (/key|token|secret|connection string/i.test(i.label)) expect(i.isSecret, `${e.name} ${i.label}`).toBe(true);
      }
    }
    expect(fields).toBeGreaterThanOrEqual(12);
  });
});

describe('the Catalog with the MCP Registry unreachable', () => {
  it('lists the shipped servers, each with its sentence, at once and without the network', async () => {
    const r = await handlers(deadRegistry)['catalog.search']({ text: '' });
    expect(r.servers.length).toBeGreaterThanOrEqual(20);
    for (const s of r.servers) {
      expect(s.shipped).toBe(true);
      expect(s.description.length).toBeGreaterThan(20);
    }
    expect(r.offline).toBeUndefined();
  });

  it('a search finds shipped servers by their words and says the registry could not be reached', async () => {
    const r = await handlers(deadRegistry)['catalog.search']({ text: 'web search' });
    expect(r.servers.map((s) => s.title)).toContain('Brave Search');
    expect(r.offline).toMatch(/^Could not reach the MCP Registry at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('adds a shipped server from its fields alone: the key goes to the secret store, the network need is said first', async () => {
    const h = handlers(deadRegistry);
    const brave = (await h['catalog.search']({ text: 'brave' })).servers[0]!;
    const p = await h['catalog.prepare']({ name: brave.name, version: brave.version });
    expect(p.inputs).toEqual([expect.objectContaining({ id: 0, label: 'Brave Search API key', isSecret: true, isRequired: true })]);
    expect(p.network).toMatch(/^Its first start downloads @brave\/brave-search-mcp-server from the internet \(npm\)/);
    const done = await h['catalog.install']({ name: brave.name, version: brave.version, answers: { 0: 'BSA-test-key' }, approved: true });
    expect(done.serverName).toBe('brave-search');
    expect(servers).toEqual({
      'brave-search': { command: 'npx', args: ['-y', '@brave/brave-search-mcp-server'], env: { BRAVE_API_KEY: { secret: 'brave-search.BRAVE_API_KEY' } } },
    });
    expect(secrets.get('brave-search.BRAVE_API_KEY')).toBe('BSA-test-key');
  });

  it('adds a remote one with its token kept as a secret header', async () => {
    const h = handlers(deadRegistry);
    const p = await h['catalog.prepare']({ name: 'io.github.github/github-mcp-server' });
    expect(p).toMatchObject({ url: 'https://api.githubcopilot.com/mcp/', network: expect.stringMatching(/online/) });
    expect(p.inputs.map((i) => i.label)).toEqual(['GitHub personal access token']);
  });
});

describe('the Catalog with the MCP Registry reachable', () => {
  let registry: LocalRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
  });
  afterAll(() => registry.close());

  it('lists shipped servers first, then the registry’s, leaving out a registry entry of a shipped server', async () => {
    const r = await handlers(registry.url)['catalog.search']({ text: 'everything' });
    expect(r.offline).toBeUndefined();
    // The registry's io.github.modelcontextprotocol/everything runs the same npm package as the shipped one.
    expect(r.servers.map((s) => [s.name, s.shipped ?? false])).toEqual([['io.github.modelcontextprotocol/server-everything', true]]);
    const weather = await handlers(registry.url)['catalog.search']({ text: 'weather' });
    expect(weather.servers.map((s) => s.name)).toEqual(['io.github.example/weather']);
  });
});
