// An axe-core pass on every page, in the light and the dark theme: no serious or critical
// violation (contrast, names of controls, landmarks, …). axe.min.js from the pinned `axe-core`
// package is put into the page and run there, as a browser extension would.
// Run: npm run build:renderer && node --import tsx --test tests/ui/accessibility.spec.ts
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser } from './harness.ts';
import { serveEveryPage, type EveryPage } from './every-page.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

let e: EveryPage;

before(async () => {
  e = await serveEveryPage();
}, { timeout: 120_000 });

after(async () => {
  await e?.dispose();
});

async function serious(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE });
  const { violations } = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: Violation[] };
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe('accessibility of every page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`no serious or critical axe-core violation on any page (${scheme} theme)`, { timeout: 300_000 }, async () => {
      const b = await openBrowser(scheme, { bypassCSP: true });
      try {
        const found: string[] = [];
        for (const state of e.states) {
          await state.open(b.page);
          for (const v of await serious(b.page)) {
            for (const n of v.nodes) found.push(`${state.name}: ${v.impact} ${v.id} (${v.help}) at ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`);
          }
        }
        assert.deepEqual(found, []);
      } finally {
        await b.dispose();
      }
    });
  }
});
