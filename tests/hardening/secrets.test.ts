// Secrets (docs/configuration.md): a `{ "secret": NAME }` value reaches the child's env and nowhere else in
// the home — not config.json, the audit log, the run history or the server logs — even when
// the server and the model's code push it around.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, stopEngine, waitFor } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

const SECRET = 'sb-hardening-Zq8xK2vN7pLm4RtY';

function filesContaining(dir: string, needle: string, skip: string[]): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) hits.push(...filesContaining(p, needle, skip));
    else if (st.isFile() && !skip.includes(p) && readFileSync(p).includes(needle)) hits.push(p);
  }
  return hits;
}

describe('secrets', () => {
  hardeningCase('attack', 'a secret used in env never appears in config.json, audit, runs or logs', async (tally) => {
    const home = makeHome({
      servers: { leaky: fixtureServer('leaky.mjs', { env: { LEAKY_TOKEN: { secret: 'LEAKY' } } }) },
      profiles: { main: { servers: ['leaky'] }, code: { servers: ['leaky'], surface: 'code' } },
    });
    expect(cli(home, ['secret', 'set', 'LEAKY'], SECRET + '\n').code).toBe(0);
    try {
      const client = await shimClient(home, 'main');
      // The client that asked gets the real value: redaction is for what is kept, not for answers.
      const r = (await client.callTool({ name: 'leaky__leak', arguments: {} })) as CallToolResult;
      expect((r.content[0] as { text: string }).text).toBe(SECRET);
      await client.callTool({ name: 'leaky__leak_error', arguments: {} });
      await client.callTool({ name: 'leaky__leak', arguments: { pasted: SECRET } }).catch(() => undefined);
      await client.close();
      const code = await shimClient(home, 'code');
      const run = (await code.callTool({
        name: 'execute',
        arguments: { code: `const t = await leaky.leak({}); console.log("got", t); const s = "${SECRET}"; return { t, s };` },
      })) as CallToolResult;
      expect((run.content[0] as { text: string }).text).toContain(SECRET);
      await code.callTool({ name: 'execute', arguments: { code: `throw new Error("bad ${SECRET}")` } });
      await code.close();
      // Records are written in batches within 25 ms and server logs within 200 ms; stopping the
      // engine writes what is still pending.
      await stopEngine(home);
      await waitFor(() => readdirSync(path.join(home, 'runs')).length > 0, 5000, 'run records');
      const secretsFile = path.join(home, 'secrets.json');
      expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
      const where = ['config.json', 'audit', 'runs', 'logs'];
      for (const w of where) {
        tally.tried++;
        const p = path.join(home, w);
        const hits = statSync(p).isDirectory() ? filesContaining(p, SECRET, []) : readFileSync(p).includes(SECRET) ? [p] : [];
        expect(hits, w).toEqual([]);
        tally.held++;
      }
      // The whole home, to be sure: only the secret store holds the value.
      expect(filesContaining(home, SECRET, [secretsFile])).toEqual([]);
      // And the records are still there, redacted rather than dropped.
      const runs = readdirSync(path.join(home, 'runs')).map((f) => readFileSync(path.join(home, 'runs', f), 'utf8')).join('');
      expect(runs).toContain('[redacted]');
      expect(readFileSync(path.join(home, 'logs', 'leaky.log'), 'utf8')).toContain('LEAKY_TOKEN=[redacted]');
    } finally {
      await stopEngine(home);
    }
  });
});
