// End-to-end in real Chromium: Switchboard closed under an open page. Within a few seconds every
// page says so in the person's words (no "switchboard serve" outside Details) and the sidebar stops
// saying "Engine running"; once Switchboard is started again on the same home and port, the page
// reconnects by itself.
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/engine-away.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import type { Page } from 'playwright-core';
import { BASIC, NODE, openBrowser, screenshot, serve, SHOTS, type Browser, type Served } from './harness.ts';

let s: Served;
let again: Served | undefined;
let b: Browser;
let page: Page;
let port: number;

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  port = await freePort();
  s = await serve({ servers: { basic: { command: NODE, args: [BASIC] } }, profiles: { demo: { servers: ['basic'] } } }, { port });
  b = await openBrowser();
  page = b.page;
  await page.goto(s.url);
  await page.locator('[data-server="basic"] [data-testid="state"]', { hasText: 'ready' }).waitFor({ timeout: 20_000 });
}, { timeout: 60_000 });

after(async () => {
  await b?.dispose();
  await again?.stop();
  await s?.dispose();
});

describe('Switchboard closed under an open page', () => {
  it('says so within 5 s in plain words, and comes back by itself when Switchboard is started again', { timeout: 60_000 }, async () => {
    const nav = page.getByRole('navigation');
    await nav.getByText('Engine running').waitFor();
    await s.stop();
    const t0 = Date.now();
    const away = page.getByTestId('engine-away');
    await away.waitFor({ timeout: 5_000 });
    await nav.getByText('Engine not answering').waitFor({ timeout: 5_000 - (Date.now() - t0) });
    assert.ok(Date.now() - t0 <= 5_000, `took ${Date.now() - t0} ms`);
    const shown = await away.innerText();
    assert.match(shown, /Switchboard was closed\./);
    assert.match(shown, /this page reconnects by itself/);
    // Commands and addresses only under Details.
    assert.ok(!/switchboard serve|127\.0\.0\.1/.test(shown), shown);
    // What the page last knew stays, greyed and out of reach until Switchboard answers again.
    assert.equal(await page.locator('.pages[inert]').count(), 1);
    await away.getByText('Details').click();
    assert.match(await away.innerText(), /switchboard serve/);
    await screenshot(page, 'engine-closed');

    again = await serve(null, { home: s.home, port });
    await away.waitFor({ state: 'detached', timeout: 10_000 });
    await nav.getByText('Engine running').waitFor();
    await page.locator('[data-server="basic"]').waitFor();
    assert.equal(await page.locator('.pages[inert]').count(), 0);
  });

  it('a config.json that does not validate: plain words in view, the JSON path and line under Details', { timeout: 30_000 }, async () => {
    const cfg = JSON.parse(readFileSync(s.configFile, 'utf8'));
    cfg.profiles.demo.budgets = { timeoutMs: -5 };
    writeFileSync(s.configFile, JSON.stringify(cfg, null, 2));
    const note = page.getByTestId('config-problems');
    await note.waitFor({ timeout: 15_000 });
    const shown = await note.innerText();
    assert.match(shown, /Your settings file has a mistake\.[\s\S]*keeps using the last version that worked/);
    assert.ok(!/profiles\.|timeoutMs|line \d/.test(shown), `config keys in plain view:\n${shown}`);
    await note.getByText('Details').click();
    assert.match(await note.innerText(), /profiles\.demo\.budgets\.timeoutMs/);
  });
});
