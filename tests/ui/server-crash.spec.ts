// End-to-end in real Chromium: a server that crashes (the fixture dies at start, the way one
// with a missing dependency does). Its row says so in plain words with a Restart button; the exit
// code and the last lines it wrote are one click away under Details, not in plain view.
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/server-crash.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { FIXTURES, NODE, openBrowser, screenshot, serve, SHOTS, until, type Browser, type Served } from './harness.ts';

let s: Served;
let b: Browser;
let page: Page;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await serve({ servers: { broken: { command: NODE, args: [path.join(FIXTURES, 'crash-at-start.mjs')] } }, profiles: { demo: { servers: ['broken'] } } });
  b = await openBrowser();
  page = b.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(s.url);
}, { timeout: 60_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
});

describe('a server that crashes', () => {
  it('says so in plain words, offers Restart, and keeps the exit code and its last lines under Details', { timeout: 90_000 }, async () => {
    const row = page.locator('[data-server="broken"]');
    const crash = row.getByTestId('server-crash');
    await crash.waitFor({ timeout: 30_000 });
    const shown = await crash.innerText();
    assert.match(shown, /“broken” stopped/);
    assert.ok(!/exited with code|code 1/.test(shown), `the exit code is in plain view:\n${shown}`);
    await crash.getByText('Details: what it wrote last').click();
    const log = crash.locator('pre');
    await log.getByText("Error: Cannot find module 'left-pad'").first().waitFor({ timeout: 10_000 });
    assert.match(await crash.innerText(), /exited with code 1/);
    await screenshot(page, 'server-crash');

    // Restart starts it again: the engine counts one more start (the log shows a new start line).
    const starts = async () => ((await s.api('servers.log', { name: 'broken', lines: 500 })) as { lines: string[] }).lines.filter((l) => l.includes('starting fixture server')).length;
    const before = await starts();
    await crash.getByRole('button', { name: 'Restart “broken”' }).click();
    await until(async () => ((await starts()) > before ? true : undefined), 'a new start after Restart', 15_000);
  });
});
