// Tool names a client has seen (issue 29, finding 3): a name shortened for a client's limits, or
// cleaned of characters clients refuse, must keep meaning the same tool. A server added later
// must not take it by naming itself and a tool so that they spell it literally. A real engine,
// the real shim, real fixture servers whose tools write a marker when they run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

/** Past any client's limit once `files_v2__` goes in front: always shortened. */
const LONG = 'create_or_update_file_contents_in_the_repository_with_a_commit_message';

let home: string;
let client: Client;
const markers = { first: '', later: '' };
const ranIn = (dir: string, tool: string) => existsSync(path.join(dir, encodeURIComponent(tool)));
const config = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { servers: Record<string, unknown>; profiles: Record<string, { servers: string[] }> };

beforeAll(async () => {
  home = makeHome();
  markers.first = path.join(home, 'markers-first');
  markers.later = path.join(home, 'markers-later');
  mkdirSync(markers.first);
  mkdirSync(markers.later);
  const first = fixtureServer('odd-names.mjs', { env: { ODD_NAMES: JSON.stringify([LONG]), MARKER_DIR: markers.first } });
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ servers: { 'files.v2': first }, profiles: { p: { servers: ['files.v2'] } } }, null, 2) + '\n');
  // Claude Code's name: its names get the budget its own prefix leaves (client-limits.ts).
  client = await shimClient(home, 'p', { name: 'claude-code' });
}, 60_000);

afterAll(async () => {
  await client?.close();
  cli(home, ['stop']);
});

describe('a tool name a client has seen', () => {
  hardeningCase('attack', 'a later server cannot take over a shortened tool name', async (tally) => {
    const shown = await waitFor(async () => (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('files_v2__')), 20_000, 'the tool of files.v2');
    expect(shown).toHaveLength(1);
    const name = shown[0]!;
    expect(name).not.toBe(`files_v2__${LONG}`);
    // The later server's tool, spelling the shortened name literally once `files_v2__` is put in front.
    const literal = name.slice('files_v2__'.length);
    const later = fixtureServer('odd-names.mjs', { env: { ODD_NAMES: JSON.stringify([literal]), MARKER_DIR: markers.later } });

    await tally.attempt('`switchboard config set` adds "files_v2" (with a tool named like the shortened name): refused, saying why', () => {
      const r = cli(home, ['config', 'set', 'servers.files_v2', JSON.stringify(later)]);
      expect(r.code).not.toBe(0);
      expect(r.stderr + r.stdout).toMatch(/"files_v2" and "files\.v2" would show their tools to clients under the same names/);
      expect(config().servers).not.toHaveProperty('files_v2');
    });
    await tally.attempt('a server named "files.v2__create_or" (its names begin with the first one\'s): refused', () => {
      const r = cli(home, ['config', 'set', '/servers/files.v2__create_or', JSON.stringify(later)]);
      expect(r.code).not.toBe(0);
      expect(r.stderr + r.stdout).toMatch(/"files\.v2__create_or" and "files\.v2" would show their tools to clients under the same names \(files_v2__…\)/);
      expect(config().servers).not.toHaveProperty('files.v2__create_or');
    });
    await tally.attempt('config.json written by hand with "files_v2" in the profile: the shown name still calls the first tool', async () => {
      const c = config();
      c.servers.files_v2 = later;
      c.profiles.p!.servers = ['files.v2', 'files_v2'];
      writeFileSync(path.join(home, 'config.json'), JSON.stringify(c, null, 2) + '\n');
      // Either the engine refuses the file (it keeps the last valid one), or it serves both servers.
      await waitFor(async () => {
        const status = JSON.parse(cli(home, ['status', '--json']).stdout) as { config?: { valid?: boolean } };
        if (status.config?.valid === false) return true;
        return (await client.listTools()).tools.length >= 2;
      }, 30_000, 'the engine to refuse the file or serve both servers');
      const r = (await client.callTool({ name, arguments: {} })) as CallToolResult;
      expect((r.content[0] as { text: string }).text).toBe(`ran ${LONG}`);
      expect(ranIn(markers.first, LONG)).toBe(true);
      expect(ranIn(markers.later, literal)).toBe(false);
    });
  }, 120_000);
});
