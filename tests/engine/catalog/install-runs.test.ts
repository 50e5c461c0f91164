// End to end: `switchboard install` (the real CLI, answers on stdin) adds a registry server, and
// the entry it wrote really starts: a real MCP client through the shim lists that server's tools.
// The registry is local; the npm package resolves from this checkout's node_modules (npx finds
// the exact version installed here), so nothing is fetched from the network.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanupHomes, makeHome, ROOT, shimClient, waitFor } from '../../helpers/home.ts';
import { startRegistry } from '../../fixtures/registry/registry-server.ts';

afterAll(cleanupHomes);

function cliAsync(home: string, args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args, '--home', home], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

describe('install from the registry, then use it', () => {
  it('the written entry starts and its tools are listed through the shim', { timeout: 120_000 }, async () => {
    const registry = await startRegistry();
    try {
      const home = makeHome({ settings: { registry: registry.url }, servers: {}, profiles: {} });
      const res = await cliAsync(home, ['install', 'io.github.modelcontextprotocol/everything'], 'y\n');
      // Piped answers: each prompt is on stdout, in order with what follows it.
      expect(res.stdout).toContain('Add "everything" to config.json? [y/N] \nAdded "everything" to config.json.');
      expect(res.stdout).toContain('  command: "npx"\n  args:    ["-y","@modelcontextprotocol/server-everything@2026.8.31"]');
      expect(res.code).toBe(0);
      const cfgFile = path.join(home, 'config.json');
      const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
      expect(cfg.servers.everything).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31'] });
      writeFileSync(cfgFile, JSON.stringify({ ...cfg, profiles: { cat: { servers: ['everything'] } } }, null, 2));

      const client = await shimClient(home, 'cat');
      try {
        const names = await waitFor(async () => {
          const n = (await client.listTools()).tools.map((t) => t.name);
          return n.includes('everything__echo') && n;
        }, 60_000, 'everything__echo');
        expect(names).toContain('everything__echo');
      } finally {
        await client.close();
      }
    } finally {
      await registry.close();
    }
  });
});
