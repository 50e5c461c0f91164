// The plain-words scan: every page, in its default state and with its main form open, shows no
// config key, protocol name, millisecond unit or raw client id outside a closed "Advanced" part
// (a closed <details>: Chromium leaves its content out of innerText) or a tooltip; what programs
// wrote (a server's log, a run's output) is theirs. And a server's normal log line does not look
// like an error.
// Run: npm run build:renderer && node --import tsx --test tests/ui/plain-words.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openBrowser, type Browser } from './harness.ts';
import { serveEveryPage, type EveryPage } from './every-page.ts';
import type { ClientInfo } from '../../src-shared/api.ts';

/** What a person who is not a developer should not meet on the main surface, and why. */
const JARGON: [RegExp, string][] = [
  [/\bbudgets\.\w+/, 'a config key'],
  [/\b(timeoutMs|callTimeoutSec|timeoutSec|maxToolCalls|memoryMb|maxResultChars|maxSourceBytes)\b/, 'a config key'],
  [/\b(destructiveHint|readOnlyHint|clientInfo|inputSchema)\b/, 'a protocol field'],
  [/\d\s?ms\b|\(ms\b|\bms\)/, 'milliseconds'],
  [/\bglobs?\b/i, 'a developer word'],
  [/\bstdio\b/i, 'a protocol name'],
  [/\bsockets?\b/i, 'a protocol name'],
  [/JSON-RPC/i, 'a protocol name'],
  [/\bBearer\b/, 'a protocol name'],
  [/\bMCP \d{4}-\d{2}-\d{2}\b/, 'a protocol revision'],
  [/\bcode · search\b|\bcode · inline\b/, 'an unexplained mode'],
];

let e: EveryPage;
let b: Browser;
let clientIds: string[] = [];

before(async () => {
  e = await serveEveryPage();
  b = await openBrowser();
  const { clients } = (await e.s.api('clients.list', {})) as { clients: ClientInfo[] };
  // An id a person would not call the client by (`claude-desktop`, `cursor` for Cursor): not its display name.
  clientIds = clients.filter((c) => c.id !== c.displayName).map((c) => c.id);
}, { timeout: 120_000 });

after(async () => {
  await b?.dispose();
  await e?.dispose();
});

/**
 * What the page shows a person in the app's own words: its rendered text, less closed <details>
 * (left out of innerText) and less what programs wrote (`data-raw`: a server's log, a run's output).
 */
async function shown(): Promise<string> {
  return String(
    await b.page.evaluate(`(() => {
      const raw = [...document.querySelectorAll('[data-raw]')];
      for (const el of raw) el.style.display = 'none';
      const text = document.body.innerText;
      for (const el of raw) el.style.display = '';
      return text;
    })()`),
  );
}

describe('plain words on every page', () => {
  it('no page, in its default state or with its main form open, shows config keys, protocol names, milliseconds or raw client ids, or sentences run together', { timeout: 240_000 }, async () => {
    const found: string[] = [];
    for (const state of e.states) {
      await state.open(b.page);
      const text = await shown();
      for (const line of text.split('\n')) {
        for (const [re, what] of JARGON) if (re.test(line)) found.push(`${state.name}: ${what} in “${line.trim()}”`);
        // Two sentences run together ("ready.This"): a space lost where template parts join.
        if (/\b[a-z]{2,}[.!?][”"]?[A-Z][a-z]/.test(line)) found.push(`${state.name}: sentences without a space in “${line.trim()}”`);
        for (const id of clientIds) if (new RegExp(`(^|[^\\w-])${id}($|[^\\w-])`).test(line)) found.push(`${state.name}: the raw client id ${id} in “${line.trim()}”`);
      }
    }
    assert.deepEqual(found, []);
  });

  it('a filesystem server\'s normal "No valid root directories" log line reads as information, not as an error', { timeout: 60_000 }, async () => {
    await e.states.find((x) => x.name.startsWith('Servers, the log'))!.open(b.page);
    const row = b.page.locator('[data-server="files"]');
    const line = row.locator('[data-level]', { hasText: 'No valid root directories provided by client' }).first();
    assert.equal(await line.getAttribute('data-level'), 'info');
    assert.equal(await row.getByText(/Last error/).count(), 0);
  });
});
