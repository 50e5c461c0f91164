// The Profiles page in real Chromium says when a connected client gets more than it takes (a
// Cursor client through the real shim on a profile of the 117 GitHub tools), and its button
// gives that client code mode: config.json gets profiles.big.clients.cursor.surface, the
// client's tools/list becomes the three code tools and the warning goes.
// Run: npm run build:renderer && node --import tsx --test tests/ui/client-limits.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { FIXTURES, NODE, ROOT, openBrowser, serve, type Browser, type Served } from './harness.ts';

let s: Served;
let b: Browser;
let page: Page;
let cursor: Client;

const toolCount = async () => (await cursor.listTools()).tools.length;

async function until<T>(fn: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  s = await serve({
    servers: { github: { command: NODE, args: [path.join(FIXTURES, 'catalog.mjs')], env: { CATALOG_FILE: path.join(ROOT, 'tests/fixtures/catalogs/github.json') } } },
    profiles: { big: { servers: ['github'] } },
  });
  cursor = new Client({ name: 'cursor-vscode', version: '1.0.0' });
  await cursor.connect(
    new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'bin/switchboard.mjs'), 'shim', '--profile', 'big', '--home', s.home], stderr: 'ignore' }),
  );
  await until(async () => ((await toolCount()) === 117 ? true : undefined), '117 tools');
  b = await openBrowser();
  page = b.page;
  await page.goto(s.url);
}, { timeout: 90_000 });

after(async () => {
  await cursor?.close();
  await b?.dispose();
  await s?.dispose();
});

describe('client limits on the Profiles page', () => {
  it('warns about a Cursor client over its limits and switches it to code mode', { timeout: 90_000 }, async () => {
    await page.getByRole('navigation').getByRole('link', { name: /^Profiles/ }).click();
    const warning = page.locator('[data-profile-warnings="big"]');
    await warning.getByText('Cursor uses at most 40 tools; profile "big" gives it 117').waitFor({ timeout: 20_000 });
    await warning.getByText(/Cursor takes tool names of at most 60 characters/).waitFor();
    await warning.getByRole('button', { name: 'Give Cursor code mode' }).click();
    await page.getByText('Cursor now gets “big” as code mode.').waitFor({ timeout: 15_000 });
    const cfg = JSON.parse(s.configBytes()) as { profiles: { big: { clients?: unknown; surface?: string } } };
    assert.deepEqual(cfg.profiles.big.clients, { cursor: { surface: 'code' } });
    assert.equal(cfg.profiles.big.surface, undefined, 'the profile itself stays a tools profile');
    await until(async () => ((await toolCount()) === 3 ? true : undefined), 'code surface for cursor');
    await warning.waitFor({ state: 'detached', timeout: 20_000 });
  });
});
