// End-to-end in real Chromium at 800×600: saving a profile says "Saved" where the person is,
// next to the Save button they pressed far down the editor, not at the top of the page out of view.
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/profiles-saved.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { BASIC, NODE, openBrowser, serve, type Browser, type Served } from './harness.ts';

// Page-side names, for the functions that run in Chromium (this project's tsconfig has no DOM lib).
declare const document: { querySelectorAll(s: string): Iterable<{ textContent: string; getBoundingClientRect(): { top: number; bottom: number } }> };
declare const innerHeight: number;

let s: Served;
let b: Browser;
let page: Page;

before(async () => {
  s = await serve({ servers: { basic: { command: NODE, args: [BASIC] } }, profiles: { work: { servers: ['basic'], surface: 'code' } } });
  b = await openBrowser();
  page = b.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(s.url);
  await page.goto(`${s.url.split('#')[0]}#/profiles`);
}, { timeout: 60_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
});

describe('saving a profile', () => {
  it('says Saved next to the Save button, in view', { timeout: 60_000 }, async () => {
    await page.locator('[data-profile="work"]').getByRole('button', { name: 'work' }).click();
    const save = page.getByRole('button', { name: 'Save profile' });
    await save.scrollIntoViewIfNeeded();
    await save.click();
    const saved = page.getByRole('status').getByText('Saved “work”.');
    await saved.waitFor({ timeout: 10_000 });
    const inView = await page.evaluate(() => {
      const all = [...document.querySelectorAll('[role="status"]')];
      const el = all.find((e) => e.textContent.includes('Saved “work”.'));
      const r = el!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    });
    assert.equal(inView, true, '“Saved” is out of view');
    assert.equal(await saved.count(), 1);
  });
});
