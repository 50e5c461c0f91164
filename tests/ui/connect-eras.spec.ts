// The Connect page lists a 2026-07-28 HTTP client, which keeps no session, from its requests:
// a real v2-SDK client pinned to that revision calls a profile's /mcp endpoint of a real
// `switchboard serve`, and real Chromium shows it with its last-seen time beside the sessions.
// Run: npm run build:renderer && node --import tsx --test tests/ui/connect-eras.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { BASIC, NODE, SHOTS, openBrowser, serve, type Browser, type Served } from './harness.ts';

let s: Served;
let b: Browser;
let page: Page;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await serve({ servers: { basic: { command: NODE, args: [BASIC] } }, profiles: { web: { servers: ['basic'] } } });
  b = await openBrowser();
  page = b.page;
}, { timeout: 90_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
});

describe('Connect page, 2026-07-28 clients', () => {
  it('lists a stateless HTTP client by the name people know it by (from its clientInfo), with when it was last seen', { timeout: 90_000 }, async () => {
    const u = new URL(s.url);
    const token = new URLSearchParams(u.hash.slice(1)).get('token')!;
    const client = new Client({ name: 'gemini-cli-mcp-client', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${u.origin}/mcp/web`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    assert.equal(client.getProtocolEra(), 'modern');
    await client.listTools();
    await page.goto(s.url);
    await page.getByRole('navigation').getByRole('link', { name: /^Connect/ }).click();
    const row = page.locator('tr', { hasText: 'Gemini CLI' });
    await row.waitFor({ timeout: 20_000 });
    const text = await row.innerText();
    assert.match(text, /^Gemini CLI\s+web\s+Over the network · newer kind of client/);
    assert.ok(!text.includes('gemini-cli-mcp-client'), text);
    // Plain words, in the tooltip too: no protocol names.
    const title = (await row.getByText('Over the network').getAttribute('title')) ?? '';
    assert.equal(title, "Through Switchboard's web address");
    assert.ok(!/socket|http/i.test(title), title);
    await page.getByRole('columnheader', { name: 'Last seen' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'connect-eras.png'), fullPage: true });
    await client.close();
  });
});
