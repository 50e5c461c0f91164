// End-to-end in real Chromium: a call waiting for approval is hard to miss. Whatever page is open
// and however far it is scrolled, a notice fixed in view says how many wait and how long is left,
// and brings the card into view; the tab's title and favicon carry the count. A run the person
// refused reads "Not allowed by you" on the Runs page, not "runtime".
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/approval-notice.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import type { Page } from 'playwright-core';
import { FIXTURES, NODE, openBrowser, screenshot, serve, SHOTS, untilCodeSees, type Browser, type Served } from './harness.ts';
import type { ExecResult } from '../../src-shared/api.ts';

// Page-side names, for the functions that run in Chromium (this project's tsconfig has no DOM lib).
declare const document: { title: string; querySelector(sel: string): { getBoundingClientRect(): { top: number; bottom: number } } | null };
declare const innerHeight: number;

let s: Served;
let b: Browser;
let page: Page;
/** An empty $HOME for the engine: the Connect page then shows no client of this machine (screenshots are committed). */
const user = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-notice-user-'));
const base = () => s.url.split('#')[0]!;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await serve({
    servers: { ann: { command: NODE, args: [path.join(FIXTURES, 'annotated.mjs')] } },
    profiles: { guarded: { servers: ['ann'], surface: 'code', approvals: { destructive: true, timeoutSec: 120 } } },
  }, { user });
  b = await openBrowser();
  page = b.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(s.url);
  await untilCodeSees(s, 'guarded', 'ann.delete_item');
}, { timeout: 90_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
  rmSync(user, { recursive: true, force: true });
});

/** Whether the element's box lies inside the viewport. */
const inView = async (sel: string): Promise<boolean> =>
  Boolean(await page.evaluate(`(() => { const r = document.querySelector(${JSON.stringify(sel)}).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.width > 0; })()`));

describe('approvals nobody misses', () => {
  it('shows a notice in view on any page, scrolled or not, with the count and time left; title and favicon carry the count', { timeout: 90_000 }, async () => {
    await page.goto(`${base()}#/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    assert.equal(await page.title(), 'Switchboard');
    const run = s.api('exec', { profile: 'guarded', code: `async () => await ann.delete_item({ id: 'n-1' })` }) as Promise<ExecResult>;
    const notice = page.getByTestId('approval-notice');
    await notice.waitFor({ timeout: 15_000 });
    assert.match(await notice.innerText(), /A call waits for your approval\.[\s\S]*Not allowed if you don't answer in [12] min \d\d s\./);
    await page.waitForFunction(() => document.title === '(1) Approval needed — Switchboard');
    const icon = decodeURIComponent(await page.locator('link[rel="icon"]').getAttribute('href') ?? '');
    assert.match(icon, /<text[^>]*>1<\/text>/);
    // A second call: the count follows.
    const run2 = s.api('exec', { profile: 'guarded', code: `async () => { try { return await ann.delete_item({ id: 'n-2' }); } catch (e) { return e.message; } }` }) as Promise<ExecResult>;
    await notice.getByText('2 calls wait for your approval.').waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.title === '(2) Approval needed — Switchboard');

    // On another page, scrolled to its end, the notice is still in view, and brings the card there.
    await page.goto(`${base()}#/connect`);
    await page.getByRole('heading', { name: 'Connect', level: 1 }).waitFor();
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await notice.waitFor();
    assert.equal(await inView('[data-testid="approval-notice"]'), true);
    assert.equal(await inView('[data-approval]'), false, 'the card should be out of view before the click');
    await screenshot(page, 'approval-notice');
    await notice.getByRole('button', { name: 'Answer them' }).click();
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-approval]')!.getBoundingClientRect();
      return r.top >= 0 && r.top < innerHeight;
    });
    assert.match(await page.locator('[data-approval] [data-testid="time-left"]').first().innerText(), /Not allowed if nobody answers in (1|2) min \d\d s/);

    // The person refuses both: the notice, title and badge go.
    for (let i = 0; i < 2; i++) await page.locator('[data-approval]').first().getByRole('button', { name: "Don't allow" }).click();
    const r = await run;
    await run2;
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForFunction(() => document.title === 'Switchboard');
    assert.ok(!decodeURIComponent(await page.locator('link[rel="icon"]').getAttribute('href') ?? '').includes('<text'));

    // The run that stopped on the refusal reads as the person's refusal.
    assert.match(r.text, /^runtime: /);
    await page.goto(`${base()}#/runs/${r.runId}`);
    const row = page.locator(`[data-run="${r.runId}"] [data-testid="run-outcome"]`);
    await row.waitFor({ timeout: 10_000 });
    assert.equal(await row.innerText(), 'Not allowed by you');
    const detail = page.getByRole('article', { name: `Run ${r.runId}` });
    assert.equal(await detail.getByTestId('run-outcome').innerText(), 'Not allowed by you');
    assert.match(await detail.getByRole('alert').innerText(), /You answered “Don’t allow”, so the tool did not run/);
  });
});
