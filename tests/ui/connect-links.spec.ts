// In real Chromium against a real `switchboard serve` whose $HOME is a temp user:
//  - Connect: after connecting Gemini CLI the card lists what is left to do there, in order,
//    and its offer adds the folder the user works in to Gemini CLI's trustedFolders.json;
//  - an install link (Cursor's format, as the desktop app routes switchboard:// links to
//    #/catalog/<link>) opens the Catalog's approval screen: the exact command, nothing written
//    before "Add to Switchboard";
//  - a registry server behind OAuth (the local OAuth fixture) is added, then signed in to from
//    the same page.
// Run: npx vite build && node --import tsx --test tests/ui/connect-links.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { BASIC, NODE, SHOTS, openBrowser, screenshot, serve, type Browser, type Served } from './harness.ts';
import { startOAuthServer, type OAuthServer } from '../engine/upstream/oauth/helpers.ts';
import { loadEntries, startRegistry, type LocalRegistry } from '../fixtures/registry/registry-server.ts';

let s: Served;
let b: Browser;
let page: Page;
let user: string;
let oauth: OAuthServer;
let reg: LocalRegistry;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  user = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-next-user-'));
  mkdirSync(path.join(user, '.gemini'));
  oauth = await startOAuthServer();
  reg = await startRegistry({
    entries: [
      ...loadEntries(),
      {
        server: { name: 'com.example/oauth-notes', description: 'Notes behind a sign-in.', version: '1.0.0', remotes: [{ type: 'streamable-http', url: oauth.mcp }] },
        _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2026-11-01T10:00:00Z', updatedAt: '2026-11-01T10:00:00Z', isLatest: true } },
      },
    ],
  });
  // The harness's child inherits this process's env: its $HOME is the fake user for the spawn only.
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = user;
  process.env.XDG_CONFIG_HOME = path.join(user, '.config');
  try {
    s = await serve({ settings: { registry: reg.url }, servers: { basic: { command: NODE, args: [BASIC] } }, profiles: { work: { servers: ['basic'] } } });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  b = await openBrowser();
  page = b.page;
  await page.goto(s.url);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}, { timeout: 90_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
  oauth?.stop();
  await reg?.close();
  if (user) rmSync(user, { recursive: true, force: true });
});

describe('after connect: what to do next', () => {
  it('Gemini CLI: the steps in order, and the offer adds the folder to trustedFolders.json', { timeout: 90_000 }, async () => {
    await page.getByRole('navigation').getByRole('link', { name: /^Connect/ }).click();
    const card = page.locator('[data-client="gemini-cli"]');
    await card.getByRole('button', { name: 'Connect', exact: true }).click();
    const outcome = card.getByTestId('card-outcome');
    await outcome.getByRole('status').getByText('Connected Gemini CLI to “work”.').waitFor({ timeout: 20_000 });
    const steps = outcome.getByTestId('next-steps').locator('li');
    assert.equal(await steps.count(), 2);
    assert.match((await steps.nth(0).textContent()) ?? '', /^Trust the folder you work in: Gemini CLI ignores MCP servers in folders it does not trust/);
    assert.match((await steps.nth(1).textContent()) ?? '', /^Start a new Gemini CLI session in a folder you trust/);
    const trustFile = path.join(user, '.gemini', 'trustedFolders.json');
    assert.equal(existsSync(trustFile), false, 'nothing is trusted without the user asking');
    const offer = outcome.getByTestId('trust-offer');
    const folder = path.join(user, 'projects', 'site');
    await offer.getByLabel('Folder you work in').fill(folder);
    await screenshot(page, 'connect-next-steps');
    await offer.getByRole('button', { name: 'Trust this folder' }).click();
    await steps.nth(0).getByText(`Trusted ${folder} in ${trustFile}.`, { exact: false }).waitFor({ timeout: 15_000 });
    assert.equal(await outcome.getByTestId('trust-offer').count(), 0, 'the offer is done');
    assert.deepEqual(JSON.parse(readFileSync(trustFile, 'utf8')), { [folder]: 'TRUST_FOLDER' });
    assert.ok(JSON.parse(readFileSync(path.join(user, '.gemini', 'settings.json'), 'utf8')).mcpServers['switchboard-work']);
  });

  it('a refused folder is said on the card and nothing is written', { timeout: 90_000 }, async () => {
    const card = page.locator('[data-client="gemini-cli"]');
    await card.locator('[data-profile="work"]').getByRole('button', { name: 'Disconnect' }).click();
    await card.getByRole('button', { name: 'Connect', exact: true }).click();
    const offer = card.getByTestId('trust-offer');
    const trustFile = path.join(user, '.gemini', 'trustedFolders.json');
    const before = readFileSync(trustFile, 'utf8');
    await offer.getByLabel('Folder you work in').fill('projects/site');
    await offer.getByRole('button', { name: 'Trust this folder' }).click();
    await card.getByRole('alert').getByText(/must be an absolute path/).waitFor({ timeout: 15_000 });
    assert.equal(readFileSync(trustFile, 'utf8'), before);
  });
});

describe('install links and sign-in on the Catalog page', () => {
  it('a Cursor install link opens the approval screen; nothing is added before the yes', { timeout: 90_000 }, async () => {
    const config = Buffer.from(JSON.stringify({ command: 'uvx', args: ['mcp-server-time', '--local-timezone=Europe/Berlin'] })).toString('base64');
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=time&config=${config}`;
    const before = s.configBytes();
    // What the desktop app does with a link it received: open #/catalog/<link>.
    await page.evaluate((h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h), `#/catalog/${encodeURIComponent(link)}`);
    const review = page.getByTestId('catalog-review');
    await review.waitFor({ timeout: 20_000 });
    await review.getByTestId('catalog-link-warning').getByText(/An install link \(Cursor format\) asks to add this server/).waitFor();
    assert.equal(await review.getByTestId('catalog-command').textContent(), 'uvx');
    assert.equal(await review.getByTestId('catalog-args').textContent(), '["mcp-server-time","--local-timezone=Europe/Berlin"]');
    await screenshot(page, 'catalog-install-link');
    assert.equal(s.configBytes(), before, 'nothing is written before the yes');
    await review.getByRole('button', { name: 'Add to Switchboard' }).click();
    await page.getByTestId('catalog-added').getByText('Added “time” to config.json').waitFor({ timeout: 20_000 });
    assert.deepEqual(JSON.parse(s.configBytes()).servers.time, { command: 'uvx', args: ['mcp-server-time', '--local-timezone=Europe/Berlin'] });
    assert.equal(new URL(page.url()).hash, '#/catalog', 'the link is not left in the address to be added twice');
  });

  it('a pasted VS Code link that would put a password into the command line is refused, nothing written', { timeout: 90_000 }, async () => {
    const v = { name: 'x', command: 'npx', args: ['srv', '--token', '${input:tok}'], inputs: [{ id: 'tok', password: true }] };
    const before = s.configBytes();
    await page.getByTestId('catalog-link-input').fill(`vscode:mcp/install?${encodeURIComponent(JSON.stringify(v))}`);
    await page.getByRole('button', { name: 'Review link' }).click();
    await page.getByText(/puts a password input into the command line/).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('catalog-review').count(), 0);
    assert.equal(s.configBytes(), before);
  });

  it('a registry server behind OAuth is added, then signed in to from the same page', { timeout: 90_000 }, async () => {
    await page.getByRole('searchbox').fill('oauth');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('[data-catalog="com.example/oauth-notes"]').getByRole('button', { name: 'Add…' }).click();
    const review = page.getByTestId('catalog-review');
    await review.getByText(oauth.mcp, { exact: true }).waitFor({ timeout: 20_000 });
    await review.getByRole('button', { name: 'Add to Switchboard' }).click();
    await page.getByTestId('catalog-added').getByText(/Added “oauth-notes” to config.json\. Next: sign in below/).waitFor({ timeout: 20_000 });
    const panel = page.getByTestId('catalog-sign-in');
    await panel.getByText('oauth-notes asks you to sign in.').waitFor({ timeout: 20_000 });
    await screenshot(page, 'catalog-sign-in');
    const opened = b.context.waitForEvent('page');
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    // The fixture consents at once and redirects to the engine's loopback listener.
    await tab.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 20_000 });
    await tab.close();
    await panel.getByText('Signed in as ada@example.com.').waitFor({ timeout: 20_000 });
    assert.deepEqual(JSON.parse(s.configBytes()).servers['oauth-notes'], { url: oauth.mcp, transport: 'http' });
  });
});
