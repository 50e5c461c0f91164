// search and install against a local registry (tests/fixtures/registry) that serves recorded
// server.json shapes over real HTTP: the approval screen's exact command, secrets kept out of
// config.json, nothing written without a yes, deprecated/deleted, updates, and offline.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src-main/cli/command-context.ts';
import { catalogContext, failure } from './helpers.ts';
import { run as install, type InstallDeps } from '../../../src-main/cli/commands/install.ts';
import { run as search } from '../../../src-main/cli/commands/search.ts';
import { FileSecretStore } from '../../../src-main/engine/secrets/secret-store.ts';
import { homePaths } from '../../../src-main/engine/platform/home.ts';
import { startRegistry, type LocalRegistry } from '../../fixtures/registry/registry-server.ts';

let registry: LocalRegistry;
let root: string;
let home: string;
let bin: string;
let out: string;
let ctx: CliContext;

beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());

function writeConfig(extra: Record<string, unknown> = {}): void {
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify({ settings: { registry: registry.url }, servers: { mem: { command: 'node', args: ['/opt/mem.js'] } }, profiles: { demo: { servers: ['mem'] } }, ...extra }, null, 2),
  );
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sb-catalog-'));
  home = path.join(root, 'home');
  bin = path.join(root, 'bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(bin);
  writeConfig();
  out = '';
  ctx = catalogContext(home, { PATH: bin, HOME: root }, (s) => void (out += s), 'linux');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Answers the prompts in order; null once they run out (like a closed stdin). */
function answering(...answers: (string | null)[]): Partial<InstallDeps> & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    ask: async (q) => {
      asked.push(q);
      return answers.length ? answers.shift()! : null;
    },
    loginPath: async () => '',
  };
}

function fakeProgram(name: string): string {
  const p = path.join(bin, name);
  writeFileSync(p, '#!/bin/sh\nexit 0\n');
  chmodSync(p, 0o755);
  return p;
}

const config = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));

const fails = failure;

describe('search', () => {
  it('lists the latest version of matching servers with their status, and cleans what it prints', async () => {
    expect(await search(['example', '--json'], ctx)).toBe(0);
    // docs/command-line.md: a --json listing is one JSON array.
    const res = JSON.parse(out) as { name: string; version: string; status: string; kinds: string[] }[];
    expect(Array.isArray(res)).toBe(true);
    const byName = Object.fromEntries(res.map((s) => [s.name, s]));
    expect(byName['io.github.example/weather']).toMatchObject({ version: '1.2.0', status: 'active', kinds: ['npm'] });
    expect(byName['io.github.example/old-tool']).toMatchObject({ status: 'deprecated', kinds: ['pypi'] });
    expect(byName['io.github.example/gone']).toMatchObject({ status: 'deleted' });
    expect(byName['com.example/remote-notes']).toMatchObject({ kinds: ['remote'] });
    expect(res.filter((s) => s.name === 'io.github.example/weather')).toHaveLength(1);
    expect(registry.requests.some((r) => r.startsWith('/v0.1/servers?search=example') && r.includes('version=latest'))).toBe(true);

    out = '';
    expect(await search(['e'], ctx)).toBe(0);
    expect(out).toContain('io.github.example/old-tool 0.3.1  [DEPRECATED]');
    expect(out).toContain('(1 entry left out: not valid server.json)');
    // Terminal escapes and bidi overrides from the registry never reach the terminal.
    expect(out).not.toMatch(/[\u001b\u202e]/);
    expect(out).toContain('Looks [2J[31mharmless[0m exe.txt');
  });
});

describe('install', () => {
  it('shows the exact command, asks for the secret, and writes only after yes', async () => {
    const npx = fakeProgram('npx');
    const deps = answering('y', 'sk-weather-123', '', '');
    expect(await install(['io.github.example/weather'], ctx, deps)).toBe(0);
    // The yes first, then the values.
    expect(deps.asked[0]).toBe('Add "weather" to config.json? [y/N] ');
    expect(deps.asked[1]).toMatch(/^env WEATHER_API_KEY — Your OpenWeatherMap API key \(secret, not shown; required\)/);
    expect(out).toContain('  env WEATHER_LANG = "<env WEATHER_LANG>"');
    expect(out).toContain('needs 3 value(s), asked after your yes: env WEATHER_API_KEY, env WEATHER_LANG, argument --units (units).');
    expect(out).toContain('Server "weather" from io.github.example/weather 1.2.0 (npm package @example/weather-mcp 1.2.0)');
    expect(out).toContain('  command: "npx"\n');
    expect(out).toContain('  args:    ["-y","@example/weather-mcp@1.2.0","--units=metric"]\n');
    expect(out).toContain('  env WEATHER_API_KEY = { "secret": "weather.WEATHER_API_KEY" } (the value you typed, kept in the secret store, not in config.json)');
    expect(out).toContain('  env WEATHER_LANG = "en"');
    expect(out).toContain(`  runs with: ${npx}`);
    expect(config().servers.weather).toEqual({
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.2.0', '--units=metric'],
      env: { WEATHER_API_KEY: { secret: 'weather.WEATHER_API_KEY' }, WEATHER_LANG: 'en' },
    });
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).not.toContain('sk-weather-123');
    expect(new FileSecretStore(homePaths(home).secretsFile).get('weather.WEATHER_API_KEY')).toBe('sk-weather-123');
  });

  it('writes nothing when the answer is no, or when nobody answers', async () => {
    const before = readFileSync(path.join(home, 'config.json'));
    const no = answering('n');
    expect(await install(['io.github.example/weather'], ctx, no)).toBe(1);
    expect(no.asked).toEqual(['Add "weather" to config.json? [y/N] ']);
    expect(out).toContain('Nothing was written.');
    expect(await install(['io.github.example/weather'], ctx, answering())).toBe(1);
    expect(out).toContain('Nothing was written: no answer (pass --yes');
    expect(readFileSync(path.join(home, 'config.json')).equals(before)).toBe(true);
    expect(existsSync(homePaths(home).secretsFile)).toBe(false);
    // A required secret with no answer at all is refused before anything is shown as approved.
    expect((await fails(install(['io.github.example/weather', '--yes'], ctx, answering())))).toMatchObject({ message: expect.stringContaining('No value for env WEATHER_API_KEY') });
  });

  it('says when the program that runs it is missing, with the doctor\'s advice', async () => {
    expect(await install(['io.github.example/weather', '--yes'], ctx, { ...answering('sk', '', ''), runtime: null })).toBe(0);
    expect(out).toContain('  runs with: npx — NOT FOUND on this computer');
    expect(out).toContain('Install Node.js (it provides node and npx)');
    expect(out).toContain('The server will not start until npx is installed');
  });

  it('says an npx server runs with the Node.js Switchboard comes with when npx is missing, as the engine will run it', async () => {
    const runtime = { node: '/opt/switchboard/node', nodeEnv: {}, npmDir: '/opt/switchboard/npm' };
    expect(await install(['io.github.example/weather', '--yes'], ctx, { ...answering('sk', '', ''), runtime })).toBe(0);
    expect(out).toContain('  runs with: /opt/switchboard/node');
    expect(out).toContain('npx is not installed on this computer; Switchboard runs it with the Node.js it comes with.');
    expect(out).not.toContain('NOT FOUND');
    expect(out).not.toContain('will not start');
  });

  it('refuses a deleted server and warns about a deprecated one', async () => {
    const e = await fails(install(['io.github.example/gone', '--yes'], ctx, answering()));
    expect(e.code).toBe('denied');
    expect(e.message).toContain('was deleted from the registry');
    expect(config().servers.gone).toBeUndefined();
    fakeProgram('uvx');
    expect(await install(['io.github.example/old-tool', '--yes'], ctx, answering('/data/docs'))).toBe(0);
    expect(out).toContain('DEPRECATED');
    expect(config().servers['old-tool']).toEqual({ command: 'uvx', args: ['old-tool-mcp==0.3.1', '/data/docs'] });
  });

  it('installs an older version, then offers and applies the update in place', async () => {
    expect(await install(['io.github.example/weather', '--version', '1.0.0', '--yes'], ctx, answering('sk', '', ''))).toBe(0);
    expect(config().servers.weather.args).toContain('@example/weather-mcp@1.0.0');
    out = '';
    await search(['weather'], ctx);
    expect(out).toContain('io.github.example/weather 1.2.0  [installed as "weather" 1.0.0, update available]');
    out = '';
    expect(await install(['io.github.example/weather', '--yes'], ctx, answering('sk2', '', ''))).toBe(0);
    expect(out).toContain('Update available: "weather" is 1.0.0; the registry has 1.2.0.');
    expect(Object.keys(config().servers).filter((k) => k.startsWith('weather'))).toEqual(['weather']);
    expect(config().servers.weather.args).toContain('@example/weather-mcp@1.2.0');
    out = '';
    expect(await install(['io.github.example/weather', '--yes'], ctx, answering())).toBe(0);
    expect(out).toContain('is already io.github.example/weather 1.2.0; nothing to do');
  });

  it('a remote server: URL and a secret header (Bearer + token) kept in the secret store', async () => {
    expect(await install(['com.example/remote-notes', '--yes'], ctx, answering('tok-abc'))).toBe(0);
    expect(out).toContain('  url:       "https://notes.example.com/mcp" (Streamable HTTP)');
    expect(config().servers['remote-notes']).toEqual({
      url: 'https://notes.example.com/mcp',
      transport: 'http',
      headers: { Authorization: { secret: 'remote-notes.Authorization' } },
    });
    expect(new FileSecretStore(homePaths(home).secretsFile).get('remote-notes.Authorization')).toBe('Bearer tok-abc');
  });

  it('a container: docker run with the env passed through by name, the value a secret', async () => {
    fakeProgram('docker');
    expect(await install(['io.github.example/docker-db', '--yes'], ctx, answering('postgres://u:p@db/x'))).toBe(0);
    expect(config().servers['docker-db']).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'DB_URL', 'docker.io/example/db-mcp:1.4.0'],
      env: { DB_URL: { secret: 'docker-db.DB_URL' } },
    });
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).not.toContain('postgres://');
  });

  it('never overwrites a server of the same name from elsewhere', async () => {
    writeConfig({ servers: { mem: { command: 'node' }, weather: { command: 'mine' } } });
    expect(await install(['io.github.example/weather', '--yes'], ctx, answering('sk', '', ''))).toBe(0);
    expect(config().servers.weather).toEqual({ command: 'mine' });
    expect(config().servers['weather-2'].command).toBe('npx');
  });

  it('an unknown name points to search', async () => {
    const e = await fails(install(['io.github.example/nope'], ctx, answering()));
    expect(e.code).toBe('not-found');
    expect(e.message).toContain('switchboard search');
  });
});

describe('offline and settings.registry', () => {
  it('a registry that cannot be reached gives a clear message and changes nothing', async () => {
    const closed = await startRegistry();
    const url = closed.url;
    await closed.close();
    writeConfig({ settings: { registry: url } });
    const before = readFileSync(path.join(home, 'config.json'));
    for (const p of [() => search(['weather'], ctx), () => install(['io.github.example/weather', '--yes'], ctx, answering('sk', '', ''))]) {
      const e = await fails(p());
      expect(e.code).toBe('upstream-error');
      expect(e.message).toContain(`Could not reach the MCP Registry at ${url}`);
      expect(e.message).toContain('Nothing was changed');
    }
    expect(readFileSync(path.join(home, 'config.json')).equals(before)).toBe(true);
    expect(existsSync(homePaths(home).secretsFile)).toBe(false);
  });

  it('refuses a plain-http registry that is not on this computer', async () => {
    writeConfig({ settings: { registry: 'http://registry.example.com' } });
    expect((await fails(search(['x'], ctx))).message).toContain('settings.registry must be an https:// URL');
  });

  it('defaults to the official registry', async () => {
    const { RegistryClient, DEFAULT_REGISTRY } = await import('../../../src-main/engine/catalog/registry-client.ts');
    expect(new RegistryClient().baseUrl).toBe(DEFAULT_REGISTRY);
    expect(DEFAULT_REGISTRY).toBe('https://registry.modelcontextprotocol.io');
  });
});

describe('a hostile registry', () => {
  it('an entry whose command-line parts carry control characters is refused, not cleaned into something else', async () => {
    const evil = await startRegistry({
      entries: [
        {
          server: { name: 'io.github.evil/args', description: 'x', version: '1.0.0', packages: [{ registryType: 'npm', identifier: 'evil', version: '1.0.0', transport: { type: 'stdio' }, packageArguments: [{ type: 'positional', value: 'ok\u001b]0;pwned\u0007' }] }] },
          _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: true } },
        },
      ],
    });
    try {
      writeConfig({ settings: { registry: evil.url } });
      const e = await fails(install(['io.github.evil/args', '--yes'], ctx, answering()));
      expect(e.message).toContain('not valid server.json');
      expect(config().servers).toEqual({ mem: { command: 'node', args: ['/opt/mem.js'] } });
    } finally {
      await evil.close();
    }
  });

  it('an answer larger than 8 MB is refused', async () => {
    const { createServer } = await import('node:http');
    const big = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"servers":[],"pad":"${'x'.repeat(9 * 1024 * 1024)}"}`);
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', () => r()));
    try {
      writeConfig({ settings: { registry: `http://127.0.0.1:${(big.address() as { port: number }).port}` } });
      expect((await fails(search(['x'], ctx))).message).toMatch(/larger than 8 MB and was refused/);
    } finally {
      await new Promise<void>((r) => big.close(() => r()));
    }
  });
});
