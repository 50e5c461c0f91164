// The app's catalog.* control methods against the local registry: search, the approval screen's
// content (placeholders where asked values go, runner found or not), and install that refuses
// without approval, re-fetches the entry, and keeps secrets in the secret store.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { catalogHandlers } from '../../../src-main/engine/catalog/catalog-control.ts';
import type { CarriedRuntime } from '../../../src-main/engine/upstream/carried-runtime.ts';
import { FileSecretStore } from '../../../src-main/engine/secrets/secret-store.ts';
import { startRegistry, type LocalRegistry } from '../../fixtures/registry/registry-server.ts';

let registry: LocalRegistry;
let root: string;
let servers: Record<string, unknown>;
let secrets: FileSecretStore;
let h: ReturnType<typeof catalogHandlers>;

beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sb-catctl-'));
  mkdirSync(path.join(root, 'bin'));
  servers = {};
  secrets = new FileSecretStore(path.join(root, 'secrets.json'));
  // As in the packaged app, whose binary cannot lend itself as Node (carried-runtime.ts).
  h = handlers(null);
});

function handlers(runtime: CarriedRuntime | null): ReturnType<typeof catalogHandlers> {
  return catalogHandlers({
    home: root,
    env: { PATH: path.join(root, 'bin') },
    platform: 'linux',
    registry: () => registry.url,
    servers: () => servers,
    setServer: async (name, cfg) => void (servers[name] = cfg),
    secrets,
    loginPath: async () => '',
    runtime,
  });
}
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('catalog control methods', () => {
  it('prepare flags env that changes what code the command loads (NODE_OPTIONS from a link), not a plain variable', async () => {
    const config = Buffer.from(JSON.stringify({ command: 'npx', args: ['pg'], env: { NODE_OPTIONS: '--require /tmp/x.js', PG_LANG: 'en' } })).toString('base64');
    const p = await h['catalog.prepare']({ link: `cursor://anysphere.cursor-deeplink/mcp/install?name=pg&config=${config}` });
    expect(p.env).toEqual({ NODE_OPTIONS: { value: '--require /tmp/x.js', secret: false, codeLoading: true }, PG_LANG: { value: 'en', secret: false } });
  });

  it('search lists hits with status and kinds', async () => {
    const r = await h['catalog.search']({ text: 'example' });
    expect(r.registry).toBe(registry.url);
    expect(r.servers.find((s) => s.name === 'io.github.example/old-tool')).toMatchObject({ status: 'deprecated', kinds: ['pypi'] });
  });

  it('prepare says npx runs with the Node.js the app carries when it is missing and the engine has one', async () => {
    const lent = handlers({ node: '/opt/switchboard/node', nodeEnv: {}, npmDir: '/opt/switchboard/npm' });
    const p = await lent['catalog.prepare']({ name: 'io.github.example/weather' });
    expect(p.runner).toEqual({ program: 'npx', found: '/opt/switchboard/node', advice: ['npx is not installed on this computer; Switchboard runs it with the Node.js it comes with.'] });
  });

  it('prepare shows the command with placeholders and whether the runner exists', async () => {
    const p = await h['catalog.prepare']({ name: 'io.github.example/weather' });
    expect(p).toMatchObject({
      serverName: 'weather',
      version: '1.2.0',
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.2.0', '--units=<argument --units (units)>'],
      env: { WEATHER_API_KEY: { value: '<env WEATHER_API_KEY>', secret: true }, WEATHER_LANG: { value: '<env WEATHER_LANG>', secret: false } },
      runner: { program: 'npx', found: null },
    });
    expect(p.runner!.advice.join(' ')).toContain('Install Node.js');
    writeFileSync(path.join(root, 'bin', 'npx'), '#!/bin/sh\n');
    chmodSync(path.join(root, 'bin', 'npx'), 0o755);
    expect((await h['catalog.prepare']({ name: 'io.github.example/weather' })).runner!.found).toBe(path.join(root, 'bin', 'npx'));
    await expect(h['catalog.prepare']({ name: 'io.github.example/gone' })).rejects.toThrow(/deleted from the registry/);
  });

  it("an entry's command given as a path runs not even --version before the yes", async () => {
    // A program named like node, as a link could name it: running it would be running the link's code.
    const marker = path.join(root, 'ran');
    const evil = path.join(root, 'bin', 'node');
    writeFileSync(evil, `#!/bin/sh\ntouch ${JSON.stringify(marker)}\necho v22.0.0\n`);
    chmodSync(evil, 0o755);
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=evil&config=${Buffer.from(JSON.stringify({ command: evil, args: ['x.js'] })).toString('base64')}`;
    const p = await h['catalog.prepare']({ link });
    expect(p).toMatchObject({ command: evil, runner: { found: evil } });
    expect(p.runner!.advice.join(' ')).toContain('not run before you approve');
    expect(existsSync(marker), "the entry's program ran before the yes").toBe(false);
  });

  it('install needs approved: true, then writes the entry and the secret', async () => {
    const p = await h['catalog.prepare']({ name: 'io.github.example/weather' });
    const key = p.inputs.find((i) => i.label === 'env WEATHER_API_KEY')!;
    await expect(h['catalog.install']({ name: 'io.github.example/weather', answers: { [key.id]: 'sk-1' }, approved: false })).rejects.toThrow(/not approved/);
    expect(servers).toEqual({});
    const r = await h['catalog.install']({ name: 'io.github.example/weather', answers: { [key.id]: 'sk-1' }, approved: true });
    expect(r).toMatchObject({ serverName: 'weather', secrets: ['weather.WEATHER_API_KEY'] });
    expect(servers.weather).toEqual({ command: 'npx', args: ['-y', '@example/weather-mcp@1.2.0', '--units=metric'], env: { WEATHER_API_KEY: { secret: 'weather.WEATHER_API_KEY' }, WEATHER_LANG: 'en' } });
    expect(JSON.stringify(servers)).not.toContain('sk-1');
    expect(secrets.get('weather.WEATHER_API_KEY')).toBe('sk-1');
    expect((await h['catalog.search']({ text: 'weather' })).servers[0]!.installed).toEqual({ serverName: 'weather', version: '1.2.0', update: false });
  });

  it('an install link opens the same screen: registry links by name, entry links with the exact command, VS Code inputs as secrets', async () => {
    const byName = await h['catalog.prepare']({ link: 'switchboard://install?name=io.github.example/weather&version=1.2.0' });
    expect(byName).toMatchObject({ name: 'io.github.example/weather', version: '1.2.0', serverName: 'weather', command: 'npx' });
    expect(byName.link).toBeUndefined();

    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const cursor = `cursor://anysphere.cursor-deeplink/mcp/install?name=time&config=${b64({ command: 'uvx', args: ['mcp-server-time', '--local-timezone=UTC'] })}`;
    const p = await h['catalog.prepare']({ link: cursor });
    expect(p).toMatchObject({ link: { from: 'cursor' }, registry: '', name: 'time', serverName: 'time', command: 'uvx', args: ['mcp-server-time', '--local-timezone=UTC'], runner: { program: 'uvx', found: null } });
    await expect(h['catalog.install']({ link: cursor, answers: {}, approved: false })).rejects.toThrow(/not approved/);
    expect(servers).toEqual({});
    expect(await h['catalog.install']({ link: cursor, answers: {}, approved: true })).toMatchObject({ serverName: 'time' });
    expect(servers['time']).toEqual({ command: 'uvx', args: ['mcp-server-time', '--local-timezone=UTC'] });
    // A second install of the same link gets a free key instead of overwriting.
    expect((await h['catalog.prepare']({ link: cursor })).serverName).toBe('time-2');

    const v = { name: 'gh', type: 'http', url: 'https://api.example.com/mcp/', headers: { Authorization: 'Bearer ${input:tok}' }, inputs: [{ id: 'tok', password: true }] };
    const vs = `vscode:mcp/install?${encodeURIComponent(JSON.stringify(v))}`;
    const pv = await h['catalog.prepare']({ link: vs });
    expect(pv).toMatchObject({ link: { from: 'vscode' }, url: 'https://api.example.com/mcp/', headers: { Authorization: { secret: true } } });
    await h['catalog.install']({ link: vs, answers: { [pv.inputs[0]!.id]: 'tok-123' }, approved: true });
    expect(JSON.stringify(servers)).not.toContain('tok-123');
    await expect(h['catalog.prepare']({ link: 'javascript:alert(1)' })).rejects.toThrow(/cannot be used/);
  });
});
