// The welcome on the first start of a home, in real Chromium against a real `switchboard serve`
// whose first run wrote its default config (the demo profiles), with a fake user's $HOME that
// holds Cursor and a Claude Desktop with a server of its own. Done with the mouse, then again
// with the keyboard only; the import preview says what will run before anything is written;
// Claude Desktop's server goes into the person's own profile, not the demo, and Cursor connected
// afterwards gets that profile; the live line appears when the entry Connect wrote (the real
// shim command) is started by an MCP client that introduces itself as Cursor does.
// Run: npm run build:renderer && node --import tsx --test tests/ui/welcome.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { BASIC, NODE, SHOTS, openBrowser, screenshot, serve, until, type Browser, type Served } from './harness.ts';

interface FakeUser {
  dir: string;
  claudeFile: string;
  cursorFile: string;
  claudeOriginal: string;
}

/** A $HOME with Cursor installed (no file yet) and Claude Desktop starting one server itself. */
function fakeUser(): FakeUser {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-welcome-user-'));
  mkdirSync(path.join(dir, '.cursor'));
  const claudeFile = path.join(dir, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claudeFile), { recursive: true });
  const claudeOriginal = `${JSON.stringify({ mcpServers: { notes: { command: NODE, args: [BASIC], env: { NOTES_TOKEN: 'kept-secret' } } } }, null, 2)}\n`;
  writeFileSync(claudeFile, claudeOriginal);
  return { dir, claudeFile, cursorFile: path.join(dir, '.cursor', 'mcp.json'), claudeOriginal };
}

interface Setup {
  user: FakeUser;
  s: Served;
  b: Browser;
  page: Page;
}

async function start(): Promise<Setup> {
  const user = fakeUser();
  const s = await serve(null, { user: user.dir });
  const b = await openBrowser();
  await b.page.goto(s.url);
  return { user, s, b, page: b.page };
}

async function stop(x: Setup | undefined): Promise<void> {
  await x?.b.dispose();
  await x?.s.dispose();
  if (x) rmSync(x.user.dir, { recursive: true, force: true });
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** Starts the entry Connect wrote into Cursor's file, as Cursor would, introducing itself as Cursor does. */
async function startAsCursor(user: FakeUser): Promise<Client> {
  const entry = readJson(user.cursorFile).mcpServers['switchboard-my-tools'] as { command: string; args: string[]; env?: Record<string, string> };
  const client = new Client({ name: 'cursor-vscode', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...(process.env as Record<string, string>), ...entry.env }, stderr: 'ignore' }));
  return client;
}

describe('the welcome, with the mouse', () => {
  let x: Setup;
  let page: Page;
  let cursor: Client | undefined;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    x = await start();
    page = x.page;
  }, { timeout: 90_000 });

  after(async () => {
    await cursor?.close();
    await stop(x);
  });

  it('opens on the first start of a home with what Switchboard does and the apps found here', { timeout: 90_000 }, async () => {
    await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor({ timeout: 20_000 });
    await page.getByText(/lets the AI apps on this computer/).waitFor();
    const apps = page.getByRole('list', { name: 'AI apps on this computer' });
    await apps.locator('[data-client="cursor"]').waitFor();
    await apps.locator('[data-client="claude-desktop"]').waitFor();
    // The person has no profile yet: nothing is connected to the demo for them.
    await page.getByTestId('profile-line').filter({ hasText: /Bring over the servers your apps already have/ }).waitFor({ timeout: 20_000 });
    await page.locator('[data-import="claude-desktop"]').waitFor();
    // Claude Desktop has a server of its own: bring it over first, no demo for it.
    await apps.locator('[data-client="claude-desktop"]').getByTestId('bring-first').waitFor();
    assert.equal(await apps.locator('[data-client="claude-desktop"]').getByRole('button').count(), 0);
    // Cursor has none: it may try the demo, said as such.
    await apps.locator('[data-client="cursor"]').getByRole('button', { name: 'Try the demo in Cursor' }).waitFor();
    await screenshot(page, 'welcome');
  });

  it('previews Claude Desktop’s own server in words and writes nothing before the click', { timeout: 90_000 }, async () => {
    const offer = page.locator('[data-import="claude-desktop"]');
    await offer.getByTestId('server-words').filter({ hasText: /^Runs the script .*basic\.mjs with Node\.js\.$/ }).waitFor();
    await offer.getByText(/Settings it gets \(NOTES_TOKEN\) are copied as they are and not shown here/).waitFor();
    await offer.getByTestId('import-destination').filter({ hasText: /They go into a profile of your own, “my-tools”, kept apart from the demo/ }).waitFor();
    assert.ok(!(await offer.innerText()).includes('kept-secret'), 'values of its settings are not shown');
    await offer.getByText('Exact command').click();
    await offer.locator('pre', { hasText: /node .*basic\.mjs/ }).waitFor();
    await offer.getByText('Nothing has been written yet.').waitFor();
    assert.equal(readFileSync(x.user.claudeFile, 'utf8'), x.user.claudeOriginal);
    assert.equal(readJson(x.s.configFile).servers.notes, undefined);
    await screenshot(page, 'welcome-import');
  });

  it('brings it over: into the person’s own profile, not the demo, and Claude Desktop reaches it through Switchboard', { timeout: 90_000 }, async () => {
    await page.locator('[data-import="claude-desktop"]').getByRole('button', { name: 'Bring this server into Switchboard' }).click();
    await page.locator('[data-import-done="claude-desktop"]').getByText(/Added notes to your profile “my-tools”\. Claude Desktop now reaches them through Switchboard/).waitFor({ timeout: 20_000 });
    const cfg = readJson(x.s.configFile);
    assert.deepEqual(cfg.servers.notes, { command: NODE, args: [BASIC], env: { NOTES_TOKEN: 'kept-secret' } });
    assert.deepEqual(cfg.profiles['my-tools'], { servers: ['notes'] });
    assert.ok(!cfg.profiles.demo.servers.includes('notes'), JSON.stringify(cfg.profiles.demo));
    const claude = readJson(x.user.claudeFile).mcpServers;
    assert.deepEqual(Object.keys(claude), ['switchboard-my-tools']);
    await page.locator('[data-client="claude-desktop"]').getByText('Waiting for Claude Desktop to start using Switchboard…').waitFor();
  });

  it('connects Cursor afterwards with one click to the person’s profile and says what to do in Cursor next', { timeout: 90_000 }, async () => {
    await page.getByTestId('profile-line').filter({ hasText: /your profile “my-tools” \(\d+ tools? from notes\)\./ }).waitFor({ timeout: 20_000 });
    const card = page.locator('[data-client="cursor"]');
    await card.getByRole('button', { name: 'Connect Cursor' }).click();
    await card.getByTestId('next-steps').getByText(/Open Cursor Settings → MCP/).waitFor({ timeout: 20_000 });
    await card.getByText('Waiting for Cursor to start using Switchboard…').waitFor();
    assert.deepEqual(Object.keys(readJson(x.user.cursorFile).mcpServers), ['switchboard-my-tools']);
    await card.getByRole('button', { name: 'Connect Cursor' }).waitFor({ state: 'detached' });
  });

  it('says so, live, when Cursor connects, with the number of tools it gets', { timeout: 90_000 }, async () => {
    cursor = await startAsCursor(x.user);
    const tools = (await cursor.listTools()).tools.length;
    assert.ok(tools > 0);
    const live = page.locator('[data-client="cursor"]').getByTestId('live');
    await live.getByText(`Cursor is connected — ${tools} tools`).waitFor({ timeout: 20_000 });
    assert.equal(await live.getAttribute('role'), 'status', 'announced to screen readers');
    await screenshot(page, 'welcome-connected');
  });

  it('finishes on Servers, is not shown again, and Settings opens it again', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Done — open Switchboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
    await until(async () => (readJson(x.s.configFile).settings?.welcomeDone === true ? true : undefined), 'settings.welcomeDone in config.json');
    await page.goto(x.s.url);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByRole('heading', { name: 'Welcome to Switchboard' }).count(), 0);
    await page.getByRole('navigation').getByRole('link', { name: /^Settings/ }).click();
    await page.getByRole('link', { name: 'Show the welcome again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor();
    await page.locator('[data-client="cursor"]').getByText(/Cursor is connected — \d+ tools/).waitFor({ timeout: 20_000 });
  });
});

describe('the welcome, with the keyboard only', () => {
  let x: Setup;
  let page: Page;

  before(async () => {
    x = await start();
    page = x.page;
    await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor({ timeout: 20_000 });
    await page.locator('[data-import="claude-desktop"]').waitFor({ timeout: 20_000 });
  }, { timeout: 90_000 });

  after(() => stop(x));

  /** What has focus: its accessible text and whether its focus ring shows. */
  const focused = async () =>
    (await page.evaluate(`(() => {
      const el = document.activeElement;
      const style = el ? getComputedStyle(el) : null;
      return { text: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim().replace(/\\s+/g, ' '), ring: !!style && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 };
    })()`)) as { text: string; ring: boolean };

  /** Tabs forward (or back) to the control named `name`; every stop on the way shows its focus. */
  async function tabTo(name: string | RegExp, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
    const seen: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(key);
      const f = await focused();
      seen.push(f.text);
      assert.ok(f.ring, `focus on “${f.text}” is visible`);
      if (typeof name === 'string' ? f.text === name : name.test(f.text)) return;
    }
    throw new Error(`no “${name}” within 40 tabs; focus went: ${seen.join(' → ')}`);
  }

  it('starts on the welcome’s heading, with Skip as the first stop', { timeout: 90_000 }, async () => {
    assert.equal((await focused()).text, 'Welcome to Switchboard');
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(), { text: 'Skip the welcome', ring: true });
  });

  it('brings Claude Desktop’s server over with Space, then connects Cursor to it with Enter', { timeout: 90_000 }, async () => {
    await tabTo('Exact command');
    await page.keyboard.press('Enter');
    await page.locator('[data-import="claude-desktop"] pre').waitFor();
    await tabTo('Bring this server into Switchboard');
    await page.keyboard.press('Space');
    await page.locator('[data-import-done="claude-desktop"]').waitFor({ timeout: 20_000 });
    assert.ok(readJson(x.s.configFile).servers.notes);
    await page.locator('[data-client="cursor"]').getByRole('button', { name: 'Connect Cursor' }).waitFor({ timeout: 20_000 });
    // Focus moved to the notice that replaced the button; Cursor's card is above it.
    await tabTo('Connect Cursor', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.locator('[data-client="cursor"]').getByTestId('next-steps').waitFor({ timeout: 20_000 });
    assert.ok(readJson(x.user.cursorFile).mcpServers['switchboard-my-tools']);
  });

  it('finishes with Enter on Done, and Escape skips it when opened again', { timeout: 90_000 }, async () => {
    await tabTo('Done — open Switchboard');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
    await until(async () => (readJson(x.s.configFile).settings?.welcomeDone === true ? true : undefined), 'settings.welcomeDone in config.json');
    await tabTo(/^Settings/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await tabTo('Show the welcome again');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  });
});
