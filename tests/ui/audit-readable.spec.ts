// End-to-end in real Chromium: the Audit page a person can read at 800×600. No sideways scroll;
// a row opens to the call's outcome in words and its arguments, with a token in them redacted
// by the engine before it was stored.
// Run: npx vite build --logLevel warn && node --import tsx --test tests/ui/audit-readable.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { BASIC, NODE, openBrowser, screenshot, serve, SHOTS, untilCodeSees, type Browser, type Served } from './harness.ts';
import type { ExecResult } from '../../src-shared/api.ts';

// Page-side names, for the functions that run in Chromium (this project's tsconfig has no DOM lib).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

const TOKEN = `ghp_${'Q'.repeat(36)}`;
let s: Served;
let b: Browser;
let page: Page;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await serve({ servers: { basic: { command: NODE, args: [BASIC] } }, profiles: { auto: { servers: ['basic'], surface: 'code' } } });
  b = await openBrowser();
  page = b.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(s.url);
  await untilCodeSees(s, 'auto', 'basic.echo');
}, { timeout: 60_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
});

describe('the audit, readable', () => {
  it('fits 800×600 without sideways scroll, and a row opens to its outcome and its arguments, secrets redacted', { timeout: 60_000 }, async () => {
    const r = (await s.api('exec', {
      profile: 'auto',
      code: `async () => await basic.echo({ text: 'deploy with ${TOKEN} to production-cluster-eu-west-1-with-a-very-long-unbroken-name' })`,
    })) as ExecResult;
    assert.equal(r.isError, false, r.text);
    await page.goto(`${s.url.split('#')[0]}#/audit`);
    const rows = page.locator('table[aria-label="Audit entries"] tbody tr');
    await rows.first().waitFor();
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok((await wide()) <= 0, `the page scrolls sideways by ${await wide()} px`);

    await rows.first().getByRole('button', { name: /^More/ }).click();
    const detail = page.getByTestId('audit-detail');
    await detail.waitFor();
    const shown = await detail.innerText();
    assert.match(shown, /Done\./);
    assert.match(shown, /Arguments/);
    assert.match(shown, /deploy with \[redacted\] to production-cluster/);
    assert.ok(!shown.includes(TOKEN), shown);
    assert.ok((await wide()) <= 0, `open, the page scrolls sideways by ${await wide()} px`);
    await screenshot(page, 'audit-open');
    // Stored redacted: the token is nowhere in the audit folder.
    const dir = path.join(s.home, 'audit');
    for (const f of readdirSync(dir, { recursive: true }) as string[]) {
      const file = path.join(dir, f);
      try {
        assert.ok(!readFileSync(file, 'utf8').includes(TOKEN), `${f} holds the token`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
      }
    }
  });
});
