// Client limits in real Chromium, against a profile of the 117 GitHub tools: connecting Cursor on
// the Connect page says what Cursor will not take; the Profiles page says when a connected
// client (Cursor through the real shim) gets more than it takes, and its button gives that
// client code mode: config.json gets profiles.big.clients.cursor.surface, the client's
// tools/list becomes the three code tools and the warning goes. The engine's $HOME is a temp
// folder with a fake Cursor install, so the client file it writes is ours.
// Run: npm run build:renderer && node --import tsx --test tests/ui/client-limits.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { FIXTURES, NODE, ROOT, openBrowser, serve, type Browser, type Served, until } from './harness.ts';

let s: Served;
let b: Browser;
let page: Page;
let cursor: Client;
let user: string;

const toolCount = async () => (await cursor.listTools()).tools.length;

before(async () => {
  user = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-limits-user-'));
  mkdirSync(path.join(user, '.cursor'));
  // The harness's child inherits this process's env: point its $HOME at the fake user for the spawn only.
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = user;
  process.env.XDG_CONFIG_HOME = path.join(user, '.config');
  try {
    s = await serve({
      servers: { github: { command: NODE, args: [path.join(FIXTURES, 'catalog.mjs')], env: { CATALOG_FILE: path.join(ROOT, 'tests/fixtures/catalogs/github.json') } } },
      profiles: { big: { servers: ['github'] } },
    });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
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
  if (user) rmSync(user, { recursive: true, force: true });
});

describe('client limits in the app', () => {
  it('connecting Cursor says which of its limits the profile goes past', { timeout: 90_000 }, async () => {
    await page.getByRole('navigation').getByRole('link', { name: /^Connect/ }).click();
    const card = page.locator('[data-client="cursor"]');
    await card.getByLabel('Profile').selectOption('big');
    await card.getByRole('button', { name: 'Connect', exact: true }).click();
    const warnings = card.getByTestId('card-warnings');
    await warnings.getByText('Cursor uses at most 40 tools; profile "big" gives it 117').waitFor({ timeout: 20_000 });
    // Names too long for Cursor are not a warning: they are shortened for it, and the card says so.
    await card.getByTestId('card-shortened').getByText(/Cursor takes tool names of at most 60 characters.*shortened for it/).waitFor();
    const file = path.join(user, '.cursor', 'mcp.json');
    assert.ok(existsSync(file));
    assert.ok(JSON.parse(readFileSync(file, 'utf8')).mcpServers['switchboard-big'], 'the entry is written all the same');
  });

  it('warns about a Cursor client over its limits and switches it to code mode', { timeout: 90_000 }, async () => {
    await page.getByRole('navigation').getByRole('link', { name: /^Profiles/ }).click();
    const warning = page.locator('[data-profile-warnings="big"]');
    await warning.getByText('Cursor uses at most 40 tools; profile "big" gives it 117').waitFor({ timeout: 20_000 });
    await page.locator('[data-client-shortened="cursor"]').getByText(/Cursor takes tool names of at most 60 characters.*shortened for it/).waitFor();
    await warning.getByRole('button', { name: 'Give Cursor code mode' }).click();
    await page.getByText('Cursor now gets “big” as code mode.').waitFor({ timeout: 15_000 });
    const cfg = JSON.parse(s.configBytes()) as { profiles: { big: { clients?: unknown; surface?: string } } };
    assert.deepEqual(cfg.profiles.big.clients, { cursor: { surface: 'code' } });
    assert.equal(cfg.profiles.big.surface, undefined, 'the profile itself stays a tools profile');
    await until(async () => ((await toolCount()) === 3 ? true : undefined), 'code surface for cursor');
    await warning.waitFor({ state: 'detached', timeout: 20_000 });
  });
});
