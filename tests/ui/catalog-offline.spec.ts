// The Catalog with the MCP Registry unreachable, in real Chromium against a real `switchboard
// serve`: the servers that ship with the app are listed at once, a search says the registry could
// not be reached and still finds them, and a person adds one by filling its fields (no command
// typed); it then shows on the Servers page. A server whose program is missing (uvx) says what to
// install, with a button to its download page and the details tucked away.
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/catalog-offline.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { loginShellPath, resolveCommand } from '../../src-main/engine/upstream/command-resolve.ts';
import { startStallingServer, type StallingServer } from '../fixtures/registry/stalling-server.ts';
import { openBrowser, screenshot, serve, type Browser, type Served } from './harness.ts';

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('catalog page with the MCP Registry unreachable', () => {
  let s: Served;
  let b: Browser;
  let pg: Page;
  let user: string;
  let folder: string;

  before(async () => {
    // The engine's user: npm there works offline, so nothing is downloaded by this test.
    user = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-offline-user-'));
    writeFileSync(path.join(user, '.npmrc'), 'offline=true\n');
    folder = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-offline-folder-'));
    s = await serve(
      { settings: { registry: `http://127.0.0.1:${await deadPort()}` }, servers: { clock: { command: 'uvx', args: ['mcp-server-time'] } }, profiles: {} },
      { user },
    );
    b = await openBrowser();
    pg = b.page;
    await pg.goto(s.url);
  }, { timeout: 90_000 });

  after(async () => {
    await b?.dispose();
    await s?.dispose();
    rmSync(user, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('lists the servers that come with Switchboard, each with what it does, with no network', { timeout: 60_000 }, async () => {
    // The Servers page leads there first: adding by command is the other way.
    await pg.getByTestId('servers-catalog-link').click();
    const list = pg.getByRole('list', { name: 'Servers to add' });
    await list.locator('[data-catalog="io.github.brave/brave-search-mcp-server"]').getByText('Lets the AI search the web, news, images and places with Brave Search.').waitFor();
    const count = await list.locator('[data-catalog]').count();
    assert.ok(count >= 20, `${count} servers listed`);
    assert.equal(await list.getByText('comes with Switchboard').count(), count, 'every one is marked as coming with the app');
    await screenshot(pg, 'catalog-offline');
  });

  it('a search says the registry could not be reached and still finds shipped servers', { timeout: 60_000 }, async () => {
    await pg.getByTestId('catalog-search').fill('files');
    await pg.getByRole('button', { name: 'Search' }).click();
    const note = pg.getByTestId('catalog-offline');
    await note.getByText('The MCP Registry could not be reached, so only the servers that come with Switchboard are listed.').waitFor();
    // The technical reason (with the config key) only behind Details.
    assert.equal(await note.getByText(/settings\.registry/).isVisible(), false);
    await note.getByText('Details').click();
    await note.getByText(/Could not reach the MCP Registry at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/).waitFor();
    await pg.locator('[data-catalog="io.github.modelcontextprotocol/server-filesystem"]').waitFor();
  });

  it('adds one by filling its fields: no command typed, and it appears in Servers', { timeout: 60_000 }, async () => {
    await pg.locator('[data-catalog="io.github.modelcontextprotocol/server-filesystem"]').getByRole('button', { name: 'Add…' }).click();
    const review = pg.getByTestId('catalog-review');
    await review.getByRole('heading', { name: 'Add “Files on this computer”?' }).waitFor();
    await review.getByTestId('catalog-network').getByText(/first start downloads @modelcontextprotocol\/server-filesystem from the internet/).waitFor();
    assert.equal(await review.getByTestId('catalog-command').isVisible(), false, 'the command is under Details');
    const add = review.getByRole('button', { name: 'Add to Switchboard' });
    assert.equal(await add.isDisabled(), true, 'the folder is still missing');
    await review.getByLabel(/^Folder \(required\)/).fill(folder);
    await screenshot(pg, 'catalog-offline-add');
    await add.click();
    await pg.getByTestId('catalog-added').getByText('Added “files” to config.json').waitFor({ timeout: 20_000 });
    assert.deepEqual(JSON.parse(s.configBytes()).servers['files'], { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', folder] });
    await pg.getByRole('navigation').getByRole('link', { name: /^Servers/ }).click();
    await pg.locator('[data-server="files"]').waitFor({ timeout: 20_000 });
  });

  it('a server whose program is missing says what to install, with a button to its download page', { timeout: 60_000 }, async (t) => {
    if ((await resolveCommand('uvx', { env: { PATH: await loginShellPath() } })).path) return t.skip('uvx is installed on this machine');
    const row = pg.locator('[data-server="clock"]');
    const note = row.getByTestId('missing-program');
    await note.getByText('clock needs uv, which is not installed on this computer. Install uv, then restart clock.').waitFor({ timeout: 20_000 });
    assert.equal(await note.getByRole('link', { name: 'Get uv' }).getAttribute('href'), 'https://docs.astral.sh/uv/getting-started/installation/');
    assert.equal(await note.getByText(/was not found on PATH/).isVisible(), false, 'the folders looked in are under Details');
    // Before Details opens: the folders looked in are this machine's.
    await screenshot(pg, 'servers-missing-program');
    await note.getByText('Details').click();
    await note.getByText(/the command "uvx" was not found on PATH/).waitFor();
  });
});

describe('catalog page with a registry that does not answer', () => {
  let stall: StallingServer;
  let s: Served;
  let b: Browser;

  before(async () => {
    stall = await startStallingServer('silent');
    s = await serve({ settings: { registry: stall.url }, servers: {}, profiles: {} }, { env: { SWITCHBOARD_REGISTRY_TIMEOUT_MS: '8000' } });
    b = await openBrowser();
    await b.page.goto(s.url);
  }, { timeout: 90_000 });

  after(async () => {
    await b?.dispose();
    await s?.dispose();
    await stall?.close();
  });

  it('shows the shipped matches at once while it waits for the registry, then says it could not be reached', { timeout: 60_000 }, async () => {
    const pg = b.page;
    await pg.getByRole('navigation').getByRole('link', { name: /^Catalog/ }).click();
    await pg.locator('[data-catalog="io.github.upstash/context7"]').waitFor();
    await pg.getByTestId('catalog-search').fill('web search');
    await pg.getByRole('button', { name: 'Search' }).click();
    const t0 = Date.now();
    await pg.locator('[data-catalog="io.github.brave/brave-search-mcp-server"]').waitFor({ timeout: 3000 });
    assert.equal(await pg.locator('[data-catalog="io.github.upstash/context7"]').count(), 0, 'only the matches are listed');
    assert.ok(Date.now() - t0 < 3000, 'well before the registry deadline (8 s here)');
    await pg.getByTestId('catalog-offline').waitFor({ timeout: 20_000 });
    await pg.locator('[data-catalog="io.github.brave/brave-search-mcp-server"]').waitFor();
  });
});
