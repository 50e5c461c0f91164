import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_CONFIG, type SwitchboardConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { ConfigStore, type ConfigStatus, type ConfigStoreOptions } from '../../../src-main/engine/config/store.ts';

let home: string;
let file: string;
let stores: ConfigStore[] = [];

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'sb-config-'));
  file = path.join(home, 'config.json');
});

afterEach(() => {
  for (const s of stores) s.dispose();
  stores = [];
  rmSync(home, { recursive: true, force: true });
});

async function open(opts: Partial<ConfigStoreOptions> = {}): Promise<ConfigStore> {
  const store = await ConfigStore.open({ file, stateDir: home, watch: false, ...opts });
  stores.push(store);
  return store;
}

function writeJson(value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Polls until `check` passes; the watcher is debounced and polling is a fallback, so be generous. */
async function waitFor(check: () => void, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

async function refusal(p: Promise<unknown>): Promise<SwitchboardError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SwitchboardError);
  return err as SwitchboardError;
}

const VALID = {
  servers: { alpha: { command: 'node', args: ['a.js'] } },
  profiles: { main: { servers: ['alpha'] } },
};

describe('ConfigStore: first run', () => {
  it('writes the default only when config.json does not exist', async () => {
    const store = await open({ createDefault: () => VALID });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(VALID);
    expect(store.status.valid).toBe(true);
    expect(Object.keys(store.config.servers)).toEqual(['alpha']);
    store.dispose();

    writeJson({ servers: {}, profiles: {} });
    const again = await open({ createDefault: () => VALID });
    expect(again.config.servers).toEqual({});
  });

  it('never replaces an empty file with the default', async () => {
    writeFileSync(file, '');
    const store = await open({ createDefault: () => VALID });
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(store.status.valid).toBe(false);
    expect(store.status.problems[0]).toMatchObject({ path: '', line: 1, column: 1 });
    expect(store.config).toEqual(EMPTY_CONFIG);
  });

  it('never replaces a corrupt file with the default', async () => {
    writeFileSync(file, '{"servers": ');
    await open({ createDefault: () => VALID });
    expect(readFileSync(file, 'utf8')).toBe('{"servers": ');
  });
});

describe('ConfigStore: problems', () => {
  it('reports every schema problem with its dotted path', async () => {
    writeJson({
      servers: { alpha: { command: 'node' }, remote: { url: 'ftp://nope' } },
      profiles: { main: { servers: ['alpha', 'ghost'], budgets: { timeoutMs: -5, memoryMb: 5000 } } },
    });
    const store = await open();
    const paths = store.status.problems.map((p) => p.path).sort();
    expect(paths).toEqual(['profiles.main.budgets.memoryMb', 'profiles.main.budgets.timeoutMs', 'profiles.main.servers.1', 'servers.remote.url']);
    expect(store.status.problems.find((p) => p.path === 'profiles.main.budgets.timeoutMs')?.message).toBe('expected a positive integer');
  });

  it('reports the line and column of a syntax error', async () => {
    writeFileSync(file, '{\n  "servers": {},\n  "profiles": {}\n  "extra": 1\n}\n');
    const store = await open();
    expect(store.status.valid).toBe(false);
    expect(store.status.problems).toEqual([{ path: '', message: 'JSON syntax error: expected ","', line: 4, column: 3 }]);
  });

  it('serves no servers or profiles when no valid version was ever seen', async () => {
    writeFileSync(file, '[1, 2]');
    const store = await open();
    expect(store.config).toEqual(EMPTY_CONFIG);
    expect(store.status.problems).toHaveLength(1);
  });
});

describe('ConfigStore: writing', () => {
  it('refuses to change an invalid file and leaves it byte for byte as it was', async () => {
    writeJson(VALID);
    const store = await open();
    const broken = Buffer.from('{\r\n  "servers": { "alpha": { "command": "node" } },,\r\n  // mine\r\n}');
    writeFileSync(file, broken);
    const err = await refusal(store.set('profiles.main.surface', 'code'));
    expect(err.code).toBe('invalid-config');
    expect(err.message).toMatch(/^config\.json has problems \(line 2, column \d+: .*\); fix them or undo your edit first — nothing was written\.$/);
    expect(err.problems?.[0]?.line).toBe(2);
    expect(readFileSync(file).equals(broken)).toBe(true);
    await refusal(store.update((raw) => raw));
    await refusal(store.unset('profiles.main'));
    expect(readFileSync(file).equals(broken)).toBe(true);
    expect(store.config.profiles.main?.servers).toEqual(['alpha']);
  });

  it('refuses a change that would make the config invalid and writes nothing', async () => {
    writeJson(VALID);
    const before = readFileSync(file);
    const store = await open();
    const err = await refusal(store.set('profiles.main.budgets.timeoutMs', 0));
    expect(err.code).toBe('invalid-config');
    expect(err.problems).toEqual([{ path: 'profiles.main.budgets.timeoutMs', message: 'expected a positive integer' }]);
    expect(err.message).toContain('profiles.main.budgets.timeoutMs: expected a positive integer');
    await refusal(store.unset('servers.alpha'));
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(store.get('profiles.main.budgets').found).toBe(false);
    expect(readdirSync(home).filter((n) => n.endsWith('.tmp') || n.endsWith('.lock'))).toEqual([]);
  });

  it('keeps unknown keys and writes 2-space JSON with a trailing newline', async () => {
    writeFileSync(
      file,
      JSON.stringify({ $note: 'mine', servers: { alpha: { command: 'node', 'x-color': 'red' } }, profiles: {}, future: { a: [1, { b: 2 }] } }),
    );
    const store = await open();
    await store.set('profiles.main', { servers: ['alpha'], surface: 'code', 'x-pinned': true });
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "servers": {\n    "alpha": {\n      "command": "node",');
    expect(JSON.parse(text)).toEqual({
      $note: 'mine',
      servers: { alpha: { command: 'node', 'x-color': 'red' } },
      profiles: { main: { servers: ['alpha'], surface: 'code', 'x-pinned': true } },
      future: { a: [1, { b: 2 }] },
    });
    expect(store.raw.future).toEqual({ a: [1, { b: 2 }] });
  });

  it('gets, sets and unsets values by dotted path and JSON Pointer', async () => {
    writeJson(VALID);
    const store = await open();
    expect(store.get('servers.alpha.args.0')).toEqual({ found: true, value: 'a.js' });
    expect(store.get('/servers/alpha/command')).toEqual({ found: true, value: 'node' });
    expect(store.get('servers.beta')).toEqual({ found: false });
    await store.set('/servers/my.server', { url: 'https://example.com/mcp' });
    expect(store.get('/servers/my.server/url').value).toBe('https://example.com/mcp');
    expect(await store.unset('/servers/my.server')).toBe(true);
    expect(await store.unset('servers.nothing')).toBe(false);
    expect(store.get('servers.my').found).toBe(false);
    expect((await refusal(store.set('servers..x', 1))).code).toBe('bad-path');
  });

  it('leaves a hand-formatted file alone when a change changes nothing', async () => {
    const text = '{"servers":{"alpha":{"command":"node","args":["a.js"]}},"profiles":{"main":{"servers":["alpha"]}}}';
    writeFileSync(file, text);
    const store = await open();
    await store.set('servers.alpha.command', 'node');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('serialises overlapping writes within one process', async () => {
    writeJson(VALID);
    const store = await open();
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`extra.k${i}`, i)));
    const extra = (JSON.parse(readFileSync(file, 'utf8')) as { extra: Record<string, number> }).extra;
    expect(Object.keys(extra)).toHaveLength(20);
    expect(readdirSync(home).sort()).toEqual(['config.json', 'config.last-good.json']);
  });

  it('notifies a change after its own write, once, and not for a write that changes nothing', async () => {
    writeJson(VALID);
    const store = await open();
    const seen: SwitchboardConfig[] = [];
    store.onChange((cfg) => seen.push(cfg));
    await store.set('profiles.main.surface', 'code');
    await store.set('profiles.main.surface', 'code');
    expect(seen.map((c) => c.profiles.main?.surface)).toEqual(['code']);
  });

  it.runIf(process.platform !== 'win32')('keeps config.json and its last-good copy owner-only', async () => {
    const store = await open({ createDefault: () => VALID });
    await store.set('profiles.main.surface', 'code');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(home, 'config.last-good.json')).mode & 0o777).toBe(0o600);
  });
});

describe('ConfigStore: last good version', () => {
  it('serves the last good version when started on a corrupt file, quarantines a copy and leaves the file untouched', async () => {
    writeJson(VALID);
    const first = await open();
    await first.set('profiles.main.surface', 'code');
    first.dispose();

    const corrupt = Buffer.from('{"servers": {"alpha": {"command": "node"}}, "profiles": {"main": ');
    writeFileSync(file, corrupt);
    const logs: string[] = [];
    const store = await open({ createDefault: () => ({ servers: {}, profiles: {} }), log: (m) => logs.push(m) });
    expect(store.status.valid).toBe(false);
    expect(store.config.profiles.main?.surface).toBe('code');
    expect(store.get('profiles.main.surface').value).toBe('code');
    expect(readFileSync(file).equals(corrupt)).toBe(true);

    const quarantined = readdirSync(path.join(home, 'quarantine'));
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]).toMatch(/^config-\d{4}-\d\d-\d\dT[\d-]+\.\d+Z\.json$/);
    expect(readFileSync(path.join(home, 'quarantine', quarantined[0]!)).equals(corrupt)).toBe(true);
    expect(logs.join('\n')).toMatch(/last valid version stays in use/);

    // A restart on the same broken file does not pile up copies.
    store.dispose();
    await open();
    expect(readdirSync(path.join(home, 'quarantine'))).toHaveLength(1);
  });
});

describe('ConfigStore: live reload', () => {
  it('picks up hand edits without a restart', async () => {
    writeJson(VALID);
    const store = await open({ watch: true });
    const seen: SwitchboardConfig[] = [];
    store.onChange((cfg) => seen.push(cfg));
    writeJson({ ...VALID, servers: { ...VALID.servers, beta: { url: 'https://example.com/mcp' } } });
    await waitFor(() => expect(Object.keys(store.config.servers).sort()).toEqual(['alpha', 'beta']));
    expect(seen).toHaveLength(1);
    const lastGood = path.join(home, 'config.last-good.json');
    await waitFor(() => expect(existsSync(lastGood) && JSON.parse(readFileSync(lastGood, 'utf8')).servers.beta).toBeTruthy());
  });

  it('keeps serving the last valid config after a bad hand edit, then takes the fix', async () => {
    writeJson(VALID);
    const store = await open({ watch: true });
    const statuses: ConfigStatus[] = [];
    store.onStatus((s) => statuses.push(s));
    writeJson({ ...VALID, profiles: { main: { servers: ['alpha'], budgets: { maxToolCalls: 'lots' } } } });
    await waitFor(() => expect(store.status.valid).toBe(false));
    expect(store.status.problems.map((p) => p.path)).toEqual(['profiles.main.budgets.maxToolCalls']);
    expect(store.config.profiles.main?.budgets).toBeUndefined();
    expect(statuses.at(-1)?.valid).toBe(false);

    writeJson({ ...VALID, profiles: { main: { servers: ['alpha'], budgets: { maxToolCalls: 10 } } } });
    await waitFor(() => expect(store.status.valid).toBe(true));
    expect(store.config.profiles.main?.budgets?.maxToolCalls).toBe(10);
    expect(statuses.at(-1)).toEqual({ valid: true, problems: [], file });
  });

  it('does not report a change for a hand edit that only reformats the file', async () => {
    writeJson(VALID);
    const store = await open({ watch: true });
    const seen: SwitchboardConfig[] = [];
    store.onChange((cfg) => seen.push(cfg));
    writeFileSync(file, JSON.stringify(VALID));
    await new Promise((r) => setTimeout(r, 300));
    writeJson({ ...VALID, profiles: { main: { servers: ['alpha'], surface: 'code' } } });
    await waitFor(() => expect(store.config.profiles.main?.surface).toBe('code'));
    expect(seen).toHaveLength(1);
  });

  it('does not report its own writes twice through the watcher', async () => {
    writeJson(VALID);
    const store = await open({ watch: true });
    const seen: SwitchboardConfig[] = [];
    store.onChange((cfg) => seen.push(cfg));
    await store.set('profiles.main.surface', 'code');
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toHaveLength(1);
  });

  it('stops reacting to edits once disposed', async () => {
    writeJson(VALID);
    const store = await open({ watch: true });
    store.dispose();
    writeJson({ servers: {}, profiles: {} });
    await new Promise((r) => setTimeout(r, 300));
    expect(Object.keys(store.config.servers)).toEqual(['alpha']);
  });
});

// Issue 11, item 15: names that are Object.prototype's, and bytes that are not UTF-8.
describe('ConfigStore against prototype names and bad bytes', () => {
  it('refuses a list position that is not an index, with a clear error, and writes nothing', async () => {
    writeJson(VALID);
    const store = await open();
    const before = readFileSync(file);
    for (const p of ['profiles.main.servers.__proto__', 'profiles.main.servers.constructor', 'profiles.main.servers.length', '/profiles/main/servers/x', 'profiles.main.servers.5']) {
      const err = await refusal(store.set(p, ['alpha']));
      expect(err.code, p).toBe('bad-path');
      expect(err.message).toMatch(/is not a position in this list \(it has 1 item\); use an index from 0 to 1, or set the whole list\. Nothing was written\./);
    }
    await refusal(store.unset('profiles.main.servers.__proto__')).catch(() => undefined);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(store.config.profiles.main?.servers).toEqual(['alpha']);
    // An index still works.
    await store.set('profiles.main.servers.0', 'alpha');
  });

  it('treats __proto__ and constructor as plain keys of an object, never as its prototype', async () => {
    writeJson(VALID);
    const store = await open();
    const err = await refusal(store.set('servers.__proto__', { command: 'node' }));
    expect(err.code).toBe('invalid-config'); // an invalid server name, said as such
    await store.set('servers.constructor', { command: 'node', args: ['c.js'] });
    expect(store.get('servers.constructor')).toEqual({ found: true, value: { command: 'node', args: ['c.js'] } });
    expect(store.get('servers.toString')).toEqual({ found: false });
    expect(JSON.parse(readFileSync(file, 'utf8')).servers.constructor).toEqual({ command: 'node', args: ['c.js'] });
    expect(Object.getPrototypeOf(store.get('servers').value)).toBe(Object.prototype);
  });

  it('refuses config.json with invalid UTF-8 as a problem with its line, keeps the last good config and never rewrites the file', async () => {
    writeJson(VALID);
    const store = await open();
    // "ü" in Latin-1 (0xFC) inside a string on line 3.
    const bad = Buffer.concat([Buffer.from('{\n  "servers": { "alpha": { "command": "node", "args": ["m'), Buffer.from([0xfc]), Buffer.from('nchen.js"] } },\n  "profiles": { "main": { "servers": ["alpha"] } }\n}\n')]);
    writeFileSync(file, bad);
    const err = await refusal(store.set('profiles.main.surface', 'code'));
    expect(err.code).toBe('invalid-config');
    expect(err.problems?.[0]).toMatchObject({ line: 2, column: 57 });
    expect(err.message).toMatch(/not valid UTF-8 \(byte 58, line 2, column 57\)/);
    expect(store.status.valid).toBe(false);
    expect(store.config.servers.alpha?.args).toEqual(['a.js']);
    expect(readFileSync(file).equals(bad)).toBe(true);
    // A fresh start on that file also refuses it and serves the last good copy.
    const again = await open();
    expect(again.status.problems[0]?.message).toMatch(/not valid UTF-8/);
    expect(again.config.servers.alpha?.args).toEqual(['a.js']);
    expect(readFileSync(file).equals(bad)).toBe(true);
  });

  it('accepts every well-formed UTF-8 text (BOM, 4-byte characters) as before', async () => {
    writeFileSync(file, '\ufeff' + JSON.stringify({ ...VALID, servers: { alpha: { command: 'node', args: ['😀€ü'] } } }));
    const store = await open();
    expect(store.status.valid).toBe(true);
    expect(store.config.servers.alpha?.args).toEqual(['😀€ü']);
  });
});
