// Secret and server names are outside data: one named like an inherited property (`constructor`,
// `toString`) must read as "not set", never as what every object inherits.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src-main/engine/secrets/secret-store.ts';
import { cleanupHomes, cli, makeHome } from '../../helpers/home.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-secrets-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await cleanupHomes();
});

describe('names objects inherit', () => {
  it('are secrets that are not set until set', () => {
    const store = new FileSecretStore(path.join(dir, 'secrets.json'));
    store.set('real', 'v');
    for (const n of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      expect(store.get(n), n).toBeUndefined();
      expect(store.delete(n), n).toBe(false);
    }
    store.set('constructor', 'c');
    expect(store.get('constructor')).toBe('c');
    expect(store.delete('constructor')).toBe(true);
    expect(store.get('constructor')).toBeUndefined();
  });

  it('are unknown servers to `switchboard login`', () => {
    const home = makeHome({ servers: {}, profiles: {} });
    const r = cli(home, ['login', 'isPrototypeOf']);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('There is no server "isPrototypeOf"');
  });
});
