// When a client's shim already started the engine, `status` (text) and `serve` show how to open
// the UI: its address with the token, instead of only `status --json` revealing it.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient } from '../helpers/home.ts';

afterAll(cleanupHomes);

describe('an engine started by a shim', () => {
  it('status prints the UI address with its token, and serve prints it instead of refusing', { timeout: 60_000 }, async () => {
    const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
    const offline = cli(home, ['status']);
    expect(offline.stdout).toContain('Engine: not running');
    expect(offline.stdout).not.toContain('UI:');

    const client = await shimClient(home, 'demo');
    try {
      const json = JSON.parse(cli(home, ['status', '--json']).stdout) as { http: { url: string; token: string } };
      const ui = `${json.http.url}/#token=${json.http.token}`;
      const text = cli(home, ['status']);
      expect(text.stdout).toContain(`UI: ${ui}\n`);
      const serve = cli(home, ['serve']);
      expect(serve.code).toBe(0);
      expect(serve.stdout).toMatch(/Switchboard is already running \(pid \d+\): /);
      expect(serve.stdout).toContain(ui);
      // The page really opens with that token.
      // The token in that address really opens the API the UI uses.
      const res = await fetch(`${json.http.url}/api/status`, { method: 'POST', headers: { authorization: `Bearer ${json.http.token}`, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain(JSON.stringify(home));
    } finally {
      await client.close();
    }
  });
});
