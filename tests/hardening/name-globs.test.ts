// Globs over names (issue 20, finding 3): a server picks its tool and prompt names, so a `/`, a
// `.` or a space in one must not slip past a profile's approvals, filters or a client's subset.
// A real engine, the real shim, a real fixture server whose tools write a marker when they run.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanupHomes, fixtureServer, makeHome, shimClient, waitFor } from '../helpers/home.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

let home: string;
let markers: string;
let coder: Client;

const ran = (tool: string) => existsSync(path.join(markers, encodeURIComponent(tool)));

async function run(c: Client, code: string): Promise<string> {
  const r = (await c.callTool({ name: 'execute', arguments: { code } }, undefined, { timeout: 60_000 })) as CallToolResult;
  return (r.content[0] as { text: string }).text;
}

/** The server's own names of the tools a client is given (each description names its tool). */
async function givenTools(c: Client): Promise<string[]> {
  return (await c.listTools()).tools.map((t) => /^The tool (.*)\.$/.exec(t.description ?? '')?.[1] ?? t.name).sort();
}

beforeAll(async () => {
  home = makeHome();
  markers = path.join(home, 'markers');
  mkdirSync(markers);
  const evil = fixtureServer('odd-names.mjs', { env: { MARKER_DIR: markers } });
  const config = {
    servers: { evil },
    profiles: {
      // The finding as seen: every tool of evil needs approval; nobody answers within 2 s.
      guarded: { servers: ['evil'], surface: 'code', approvals: { approve: ['evil.*'], timeoutSec: 2 } },
      filtered: {
        servers: ['evil'],
        tools: { evil: { deny: ['admin*', '*削除', 'read *'] } },
        prompts: { evil: { deny: ['admin*', 'a.*'] } },
        clients: { cursor: { tools: { evil: { allow: ['*sum', 'a.*', 'admin*'] } } } },
      },
    },
  };
  const { writeFileSync } = await import('node:fs');
  writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
  coder = await shimClient(home, 'guarded', { name: 'plain-client' });
  await waitFor(async () => (await run(coder, 'async () => typeof evil.admin_wipe')).includes('function') || undefined, 30_000, 'evil ready');
}, 60_000);

describe('globs over names with / . - spaces and unicode', () => {
  hardeningCase('attack', 'approve ["evil.*"] asks for evil.admin_wipe (tool "admin/wipe") too: unanswered in 2 s it is denied and never runs', async (tally) => {
    for (const [method, tool] of [
      ['wipe', 'wipe'],
      ['admin_wipe', 'admin/wipe'],
      ['ツール_削除', 'ツール/削除'],
      ['a_b_c', 'a.b.c'],
    ] as const) {
      await tally.attempt(`evil.${method}`, async () => {
        const text = await run(coder, `async () => { try { await evil[${JSON.stringify(method)}]({}); return 'ran'; } catch (e) { return String(e.message); } }`);
        expect(text).toContain(`denied: evil.${method} needs approval and no decision came within 2 s`);
        expect(ran(tool)).toBe(false);
      });
    }
  }, 60_000);

  hardeningCase('attack', 'a profile deny with * hides tools and prompts whose names hold / . or spaces; a client subset reads them the same way', async (tally) => {
    const plain = await shimClient(home, 'filtered', { name: 'plain-client' });
    const cursor = await shimClient(home, 'filtered', { name: 'cursor-vscode' });
    try {
      await tally.attempt('tools deny admin*, *削除, read *', async () => {
        expect(await waitFor(async () => ((await givenTools(plain)).length ? givenTools(plain) : undefined), 20_000, 'tools')).toEqual(['a.b.c', 'café', 'get-sum', 'wipe']);
      });
      await tally.attempt('prompts deny admin*, a.*', async () => {
        const names = (await plain.listPrompts()).prompts.map((p) => /^The prompt (.*)\.$/.exec(p.description ?? '')?.[1]).sort();
        expect(names).toEqual(['café', 'get-sum', 'read file', 'wipe', 'ツール/削除']);
      });
      await tally.attempt('cursor subset allow *sum, a.*, admin* (admin/wipe still denied by the profile)', async () => {
        expect(await givenTools(cursor)).toEqual(['a.b.c', 'get-sum']);
      });
    } finally {
      await plain.close();
      await cursor.close();
    }
  }, 60_000);
});
