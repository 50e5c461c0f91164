// End-to-end in real Chromium: a client's settings file gone wrong, with its way forward in the
// app. A file broken by hand: the Connect page says so in plain words (the parser's line and
// column only under Details), puts back the copy Switchboard kept, and shows the file read-only
// (in a browser). Undo refused because the file changed since Switchboard's write: a button
// takes only Switchboard's entry out, instead of a command to type.
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/client-file.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import os from 'node:os';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { BASIC, NODE, openBrowser, screenshot, serve, SHOTS, type Browser, type Served } from './harness.ts';

let s: Served;
let b: Browser;
let page: Page;
let user: string;
let claudeFile: string;
const original = `${JSON.stringify({ mcpServers: { weather: { command: 'uvx', args: ['weather-mcp'] } }, globalShortcut: 'Ctrl+Space' }, null, 2)}\n`;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  user = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-file-user-'));
  claudeFile = path.join(user, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claudeFile), { recursive: true });
  writeFileSync(claudeFile, original);
  s = await serve({ servers: { basic: { command: NODE, args: [BASIC] } }, profiles: { demo: { servers: ['basic'] } } }, { user });
  b = await openBrowser();
  page = b.page;
  await page.setViewportSize({ width: 800, height: 600 });
  // Takes the token in; later visits of the same tab keep it.
  await page.goto(s.url);
}, { timeout: 60_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
  if (user) rmSync(user, { recursive: true, force: true });
});

async function openCard(): Promise<Locator> {
  await page.goto(`${s.url.split('#')[0]}#/connect`);
  await page.reload();
  const card = page.locator('[data-client="claude-desktop"]');
  await card.waitFor({ timeout: 15_000 });
  return card;
}

describe("a client's file gone wrong", () => {
  it('broken by hand: plain words, the parse position under Details, the file shown read-only, and the kept copy put back', { timeout: 90_000 }, async () => {
    let card = await openCard();
    await card.getByRole('button', { name: 'Connect', exact: true }).click();
    await card.locator('[data-profile="demo"] [data-testid="entry-state"]', { hasText: /^connected$/ }).waitFor();
    // The person edits the file and leaves a trailing comma where a brace should be.
    const broken = readFileSync(claudeFile, 'utf8').replace(/\}\s*$/, ',\n');
    writeFileSync(claudeFile, broken);

    card = await openCard();
    const problem = card.getByTestId('client-file-problem');
    await problem.waitFor();
    const shown = await problem.innerText();
    assert.match(shown, /Claude Desktop's settings file has a mistake in it/);
    assert.ok(!/line \d+|column|Expected|JSON/.test(shown), `parse details in plain view:\n${shown}`);
    await problem.getByText('Details').click();
    assert.match(await problem.innerText(), /not valid JSON \(line \d+, column \d+/);
    // (Before the file is shown: it names this checkout, in the shim's command.)
    await screenshot(page, 'connect-broken-file');
    await problem.getByRole('button', { name: 'Show the file' }).click();
    assert.equal((await problem.getByTestId('client-file-text').innerText()).trimEnd(), broken.trimEnd());
    assert.match(await problem.innerText(), /read-only here/);

    await problem.getByRole('button', { name: /^Put back the copy from / }).click();
    await card.getByText(/Put back the copy of Claude Desktop's file that Switchboard kept\. The broken file was kept as a backup\./).waitFor({ timeout: 10_000 });
    await problem.waitFor({ state: 'detached' });
    assert.equal(readFileSync(claudeFile, 'utf8'), original);
    // The broken file was kept, byte for byte.
    const backups = path.join(s.home, 'backups', 'claude-desktop');
    assert.ok(readdirSync(backups).some((f) => readFileSync(path.join(backups, f), 'utf8') === broken));
  });

  it('undo refused because the file changed since: a button takes out only Switchboard\'s entry, keeping the change', { timeout: 90_000 }, async () => {
    let card = await openCard();
    await card.getByRole('button', { name: 'Connect', exact: true }).click();
    await card.locator('[data-profile="demo"] [data-testid="entry-state"]', { hasText: /^connected$/ }).waitFor();
    // The person changes something else in the file afterwards.
    const doc = JSON.parse(readFileSync(claudeFile, 'utf8'));
    doc.globalShortcut = 'Ctrl+Alt+Space';
    writeFileSync(claudeFile, JSON.stringify(doc, null, 2));
    card = await openCard();
    await card.getByRole('button', { name: 'Undo last change' }).click();
    const refused = card.getByTestId('undo-refused');
    await refused.waitFor({ timeout: 10_000 });
    const shown = await refused.innerText();
    assert.match(shown, /was changed after Switchboard's last change/);
    assert.ok(!/switchboard disconnect|run:/.test(shown), `a command in plain view:\n${shown}`);
    await refused.getByRole('button', { name: "Remove only Switchboard's entry instead" }).click();
    await card.getByText(/Removed Switchboard's entry from Claude Desktop's file and kept everything else/).waitFor({ timeout: 10_000 });
    const after = JSON.parse(readFileSync(claudeFile, 'utf8'));
    assert.equal(after.mcpServers['switchboard-demo'], undefined);
    assert.equal(after.globalShortcut, 'Ctrl+Alt+Space');
    assert.deepEqual(after.mcpServers.weather, { command: 'uvx', args: ['weather-mcp'] });
  });
});
