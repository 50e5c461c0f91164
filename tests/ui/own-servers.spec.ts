// A person's own servers, in real Chromium against a real `switchboard serve` whose first run
// wrote the demo: Claude Desktop starts two memory servers with different data files. Imported
// from the welcome in one home and from the Connect page in another, the result is the same —
// both servers kept apart, in the person's own profile, Claude Desktop pointed at it; an app
// connected afterwards gets that profile; "Remove the demo" leaves only what is theirs.
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/own-servers.spec.ts
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { MEMORY, NODE, openBrowser, serve, type Browser, type Served } from './harness.ts';

interface Home {
  user: string;
  claudeFile: string;
  s: Served;
  b: Browser;
  page: Page;
}

const homes: Home[] = [];
after(async () => {
  for (const h of homes) {
    await h.b.dispose();
    await h.s.dispose();
    rmSync(h.user, { recursive: true, force: true });
  }
});

/** A $HOME with Claude Desktop (two memory servers, two data files) and VS Code (no servers), and an engine on a fresh home. */
async function start(welcome: boolean): Promise<Home> {
  const user = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-own-'));
  const claudeFile = path.join(user, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claudeFile), { recursive: true });
  mkdirSync(path.join(user, '.config', 'Code', 'User'), { recursive: true });
  const memory = (file: string) => ({ command: NODE, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(user, file) } });
  writeFileSync(claudeFile, `${JSON.stringify({ mcpServers: { memory: memory('personal.jsonl'), todo: memory('todo.jsonl') } }, null, 2)}\n`);
  const s = await serve(null, { user, welcome });
  const b = await openBrowser();
  await b.page.goto(s.url);
  const h = { user, claudeFile, s, b, page: b.page };
  homes.push(h);
  return h;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** What an import left, with the user's folder and the home written the same way in both homes. */
function outcome(h: Home): unknown {
  const neutral = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll(h.user, '~').replaceAll(h.s.home, '<home>'));
  const cfg = readJson(h.s.configFile);
  return neutral({ servers: cfg.servers, profiles: cfg.profiles, claude: readJson(h.claudeFile) });
}

/** The preview says, before anything is written, why "memory" gets another name and where both go. */
async function checkPreview(page: Page, root: string): Promise<void> {
  const plan = page.locator(root);
  await plan.locator('[data-entry="memory"]').getByTestId('renamed').filter({ hasText: 'Named “memory-claude-desktop” here: Switchboard already has a different server called “memory”, and both are kept.' }).waitFor({ timeout: 20_000 });
  await plan.locator('[data-entry="todo"]').getByText(/^todo$/).waitFor();
  await plan.getByTestId('import-destination').filter({ hasText: 'They go into a profile of your own, “my-tools”, kept apart from the demo' }).waitFor();
  assert.ok(!(await plan.innerText()).includes('profiles.'), 'no config paths on screen');
}

describe('a person’s own servers', () => {
  let fromWelcome: Home;
  let fromConnect: Home;

  it('are brought over from the welcome into their own profile, two memory servers kept apart', { timeout: 120_000 }, async () => {
    fromWelcome = await start(true);
    const { page } = fromWelcome;
    await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor({ timeout: 20_000 });
    await checkPreview(page, '[data-import="claude-desktop"]');
    await page.locator('[data-import="claude-desktop"]').getByRole('button', { name: 'Bring these 2 servers into Switchboard' }).click();
    await page.locator('[data-import-done="claude-desktop"]').getByText('Added memory-claude-desktop, todo to your profile “my-tools”.', { exact: false }).waitFor({ timeout: 20_000 });
    const cfg = readJson(fromWelcome.s.configFile);
    assert.deepEqual(cfg.profiles['my-tools'], { servers: ['memory-claude-desktop', 'todo'] });
    assert.deepEqual(cfg.profiles.demo.servers, ['everything', 'memory', 'files']);
    assert.notDeepEqual(cfg.servers['memory-claude-desktop'].env, cfg.servers.todo.env);
  });

  it('are brought over the same way from the Connect page', { timeout: 120_000 }, async () => {
    fromConnect = await start(true);
    const { page } = fromConnect;
    await page.getByRole('button', { name: 'Skip the welcome' }).click();
    await page.getByRole('navigation').getByRole('link', { name: /^Connect/ }).click();
    const card = page.locator('[data-client="claude-desktop"]');
    await card.getByRole('button', { name: 'Import servers…' }).click();
    await checkPreview(page, '[data-client="claude-desktop"]');
    await card.getByRole('button', { name: 'Import 2 servers' }).click();
    await card.getByTestId('card-outcome').getByText(/Added memory-claude-desktop, todo to your profile “my-tools”\. Claude Desktop now reaches them through Switchboard/).waitFor({ timeout: 20_000 });
    assert.deepEqual(outcome(fromConnect), outcome(fromWelcome));
  });

  it('go to the next app connected: VS Code gets the person’s profile, not the demo', { timeout: 120_000 }, async () => {
    const { page } = fromConnect;
    const card = page.locator('[data-client="vscode"]');
    await card.getByLabel('Profile').locator('option:checked', { hasText: 'my-tools' }).waitFor({ state: 'attached', timeout: 20_000 });
    await card.getByRole('button', { name: 'Connect', exact: true }).click();
    await card.locator('[data-profile="my-tools"] [data-testid="entry-state"]').waitFor({ timeout: 20_000 });
    assert.deepEqual(Object.keys(readJson(path.join(fromConnect.user, '.config', 'Code', 'User', 'mcp.json')).servers), ['switchboard-my-tools']);
  });

  it('stay when the demo is removed with one click', { timeout: 120_000 }, async () => {
    const { page, s } = fromConnect;
    const claudeBefore = readFileSync(fromConnect.claudeFile, 'utf8');
    await page.getByRole('navigation').getByRole('link', { name: /^Settings/ }).click();
    await page.getByRole('button', { name: 'Remove the demo' }).click();
    await page.getByTestId('demo-removal').getByText('Removed the demo: profiles demo, demo-code and its servers everything, memory, files.').waitFor({ timeout: 20_000 });
    await page.getByTestId('demo-removal').getByText(/Removed the demo folder/).waitFor();
    const cfg = readJson(s.configFile);
    assert.deepEqual(Object.keys(cfg.profiles), ['my-tools']);
    assert.deepEqual(Object.keys(cfg.servers), ['memory-claude-desktop', 'todo']);
    assert.equal(readFileSync(fromConnect.claudeFile, 'utf8'), claudeBefore);
  });
});
